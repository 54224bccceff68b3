/**
 * A busy evening (issue 40), on loopback only, never in the test suite:
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/allmende_bench_busy npx tsx bench/busy.ts
 * The database named in the URL is dropped and made anew, then filled with one public project with an
 * Interactive Event and a Brainstorming module (200 ideas, 2,000 comments, 300 users, 60 open and 40
 * answered questions). Allmende runs from the production build (`npm run build`; BENCH_BUILD=0 skips
 * it) with WEB_CONCURRENCY=2 (BENCH_WORKERS). 1,000 clients hold the event's live stream, in
 * BENCH_RECEIVERS (2) processes of their own; each client viewed the event page once (the visitor
 * identity its likes would count under) and fetches what the page's live.js fetches on each event (a question's fragment only
 * for a question its page can not place, or the page again). Then, two rounds (BENCH_ROUNDS) of: the five pages
 * (project, module, an idea with its comments, the event, the start page) each read for
 * BENCH_SECONDS (10) by autocannon with BENCH_CONNECTIONS (20) connections, first quiet, then while
 * 20 writes a second (10 likes, 6 comments, 4 new questions) go through the public HTTP interface,
 * paced. Prints req/s and p50/p99 per page, quiet and busy, with their ratio; the writes' answer
 * times per kind and their errors; the delay from each like's or question's request to each live
 * client's receiving its event (every event × every client); the live clients' fetches (how many,
 * failed, p50/p99); each round's figures per page with where the machine's two cores went meanwhile
 * (CPU seconds per second of reading: the server's workers, PostgreSQL, the live receivers, the rest);
 * and each worker's resident memory after the run.
 * BENCH_SCALE (default 1) scales the data, the clients and the writes per second, for a small or
 * shared machine (e.g. BENCH_SCALE=0.1 BENCH_SECONDS=3). BENCH_CPU_PROF=<dir>: the server's
 * processes write V8 CPU profiles there when they stop (read them with bench/profile-top.ts).
 * BENCH_PAGES=event,module: read only these pages (the writes and streams as always), e.g. to
 * compare two pages' profiles under the same busy background. BENCH_NODE_FLAGS: node flags for the
 * server alone (e.g. --max-semi-space-size=8). BENCH_IDEAS, BENCH_COMMENTS: the brainstorming's ideas and
 * comments instead of 200 and 2,000 (× BENCH_SCALE), to see what a larger module costs.
 */
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import '../src/module-types.js';
import { ask, openStreams, startReceivers } from './receivers.js';
import { loadFixture } from '../src/cli/loaddata.js';
import { withClient, withDatabase } from '../src/db/admin.js';
import { openPostgres } from '../src/db/client.js';
import { ideaPath } from '../src/core/urls.js';

const env = (name: string, fallback: number) => Number(process.env[`BENCH_${name}`] ?? fallback);
const scale = env('SCALE', 1);
const scaled = (n: number) => Math.max(1, Math.round(n * scale));
const seconds = env('SECONDS', 10);
const rounds = env('ROUNDS', 2);
const workers = env('WORKERS', 2);
const receivers = env('RECEIVERS', 2);
const connections = env('CONNECTIONS', 20);
const clients = scaled(1000);
const USERS = scaled(300);
const IDEAS = env('IDEAS', scaled(200));
const COMMENTS = env('COMMENTS', scaled(2000));
const OPEN_QUESTIONS = 60;
const ANSWERED_QUESTIONS = 40;
/** One second's writes, in the order they are sent (spread over the second): 10 likes, 6 comments, 4 questions. */
const MIX = ['like', 'comment', 'like', 'question', 'like', 'comment', 'like', 'like', 'comment', 'question', 'like', 'comment', 'like', 'like', 'comment', 'question', 'like', 'comment', 'like', 'question'] as const;
type WriteKind = (typeof MIX)[number];
const writesPerSecond = 20 * scale;
const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/allmende_bench_busy';
const EVENT = 1;
const BRAINSTORMING = 2;
const ORG = 'evening-org';

const day = 24 * 3600 * 1000;
const iso = (offset: number) => new Date(Date.now() + offset).toISOString();
const now = () => performance.timeOrigin + performance.now();
const HISTOGRAM_MS = 120_000;

/** The fixture of the issue, in a database made anew. */
async function prepare(): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`BENCH_DATABASE_URL names no plain database: ${name}`);
  await withClient(withDatabase(databaseUrl, 'postgres'), async (c) => {
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${name}"`);
  });
  const database = openPostgres(databaseUrl, { max: 2 });
  try {
    await database.migrate();
    const created = (i: number) => iso(-day + i * 1000);
    await loadFixture(
      database.db,
      {
        users: Array.from({ length: USERS }, (_, i) => ({ id: i + 1, username: `evening_${i + 1}`, email: `evening_${i + 1}@example.org`, email_verified: true, is_superuser: i === 0 })),
        organisations: [{ id: 1, slug: ORG, name: 'Town of Evening' }],
        projects: [{ id: 1, slug: 'evening', name: 'The busy evening', organisation: 1, description: 'A consultation at its best evening' }],
        modules: [
          { id: EVENT, slug: 'town-hall', project: 1, name: 'Town hall', blueprint_type: 'IE', weight: 1, phases: [{ type: 'a4_candy_interactive_events:issue', start_date: iso(-day), end_date: iso(day) }] },
          { id: BRAINSTORMING, slug: 'brainstorming', project: 1, name: 'Brainstorming', blueprint_type: 'BS', weight: 2, phases: [{ type: 'a4_candy_ideas:collect', start_date: iso(-day), end_date: iso(day) }] },
        ],
        affiliations: [{ id: 1, module: EVENT, name: 'Residents' }],
        live_questions: Array.from({ length: OPEN_QUESTIONS + ANSWERED_QUESTIONS }, (_, i) => ({ id: i + 1, module: EVENT, text: `Question ${i + 1} of the evening`, affiliation: 1, is_answered: i >= OPEN_QUESTIONS })),
        ideas: Array.from({ length: IDEAS }, (_, i) => ({ id: i + 1, module: BRAINSTORMING, creator: (i % USERS) + 1, name: `Idea ${i + 1}`, description: `<p>What idea ${i + 1} proposes.</p>`, created: created(i) })),
        // A tenth of the comments on the first idea (the page read), the rest spread.
        comments: Array.from({ length: COMMENTS }, (_, i) => ({ id: i + 1, creator: (i % USERS) + 1, target: { type: 'idea', id: i % 10 === 0 ? 1 : (i % IDEAS) + 1 }, comment: `Comment ${i + 1}: a thought on this idea.`, created: created(IDEAS + i) })),
      },
      { baseDir: process.cwd() },
    );
    await database.db.execute(sql.raw(`INSERT INTO api_tokens (key, user_id) SELECT rpad('busy' || id, 40, 'x'), id FROM users`));
    await database.db.execute(sql.raw('VACUUM ANALYZE'));
  } finally {
    await database.close();
  }
}

function startServer(): Promise<{ child: ChildProcess; base: string; workerPids: number[] }> {
  // The workers are forked with the primary's flags, so each writes its own profile.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // BENCH_NODE_FLAGS: node's flags for the server alone (its workers inherit them), e.g. to compare V8's memory settings.
  const flags = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...profile, ...flags, 'dist/main.js'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      WEB_CONCURRENCY: String(workers),
      PORT: '0',
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      CONNECTIONS_PER_IP: '0',
      SECRET_KEY: 'bench-secret-key-bench-secret-key-bench-secret-key',
      BASE_URL: 'http://127.0.0.1:8004',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'allmende-busy-')),
    },
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/[^/\s]+)\//.exec(output);
      if (match) resolve({ child, base: match[1], workerPids: [...output.matchAll(/worker (\d+) is listening/g)].map((m) => Number(m[1])) });
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', (chunk: Buffer) => {
      read(chunk);
      process.stderr.write(chunk);
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
  });
}

/** A live client's fetches (what live.js fetches on an event): how many, failed, and their times (a histogram in ms). */
interface Fetches {
  n: number;
  errors: number;
  histogram: number[];
}
const noFetches = (): Fetches => ({ n: 0, errors: 0, histogram: new Array<number>(HISTOGRAM_MS + 1).fill(0) });

/** GETs a path as a browser with `cookie`; resolves with its status and body (status 0: no answer). */
function get(agent: Agent, port: number, path: string, cookie: string): Promise<{ status: number; body: string; cookies: string[] }> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, cookies: (response.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]) }));
      response.on('error', () => resolve({ status: 0, body, cookies: [] }));
    });
    req.on('error', () => resolve({ status: 0, body: '', cookies: [] }));
    req.end();
  });
}

/**
 * A receiver process: each of its clients views the event page once (its visitor identity, where the
 * questions' fragments are, the questions it counted and listed), then holds the event's stream with
 * its cookie and fetches what the page's live.js fetches: for a `question` or `question_hidden` event
 * nothing when the page knows the question (in its open list, heard of since, or newer than it
 * counted: a participant's page shows it from the event, issue 40), else the question's fragment; a `reset`,
 * `comment`, `report` or `moderation` event the page again (after 100 ms, one at a time per client).
 * It tells the parent, records when each like's and each new question's event arrived on each stream
 * (a like by question and count, a question by its text), and times the fetches; told the send times
 * at the end, it answers with a histogram of the delays and the fetches' counts and times.
 */
async function receive(port: number, count: number): Promise<void> {
  const arrived = new Map<string, number[]>();
  let received = 0;
  const note = (key: string, at: number) => {
    let times = arrived.get(key);
    if (!times) arrived.set(key, (times = []));
    times.push(at);
    received++;
  };
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const eventPage = `/${ORG}/interactiveevents/town-hall/`;
  const cookies: string[] = [];
  /** Per client, as live.js sees its page: the highest question id it counted, the questions it knows. */
  const counted: number[] = [];
  const knows: Set<number>[] = [];
  let fragmentBase = '';
  for (let i = 0; i < count; i += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, count - i) }, async (_, j) => {
        const page = await get(agent, port, eventPage, '');
        if (page.status !== 200) throw new Error(`the event page answered ${page.status}`);
        cookies[i + j] = page.cookies.join('; ');
        counted[i + j] = Number(/data-last-question="(\d+)"/.exec(page.body)?.[1] ?? Infinity);
        knows[i + j] = new Set(Array.from(page.body.matchAll(/<li id="question-(\d+)"/g), (m) => Number(m[1])));
        fragmentBase ||= /data-live-questions="([^"]+)"/.exec(page.body)?.[1] ?? '';
      }),
    );
  }
  if (!fragmentBase) throw new Error('the event page names no questions\' fragments (data-live-questions)');
  const fetches = { fragment: noFetches(), page: noFetches() };
  const fetchAs = async (kind: keyof typeof fetches, stream: number, path: string) => {
    const started = now();
    const { status } = await get(agent, port, path, cookies[stream]);
    const tally = fetches[kind];
    tally.n++;
    if (status !== 200) tally.errors++;
    tally.histogram[Math.min(HISTOGRAM_MS, Math.round(now() - started))]++;
  };
  // live.js's whole-page refresh: after 100 ms, one at a time, once more when asked meanwhile.
  const refreshing = new Map<number, 'timer' | 'running' | 'again'>();
  const refresh = (stream: number) => {
    const state = refreshing.get(stream);
    if (state === 'timer' || state === 'again') return;
    if (state === 'running') return void refreshing.set(stream, 'again');
    refreshing.set(stream, 'timer');
    setTimeout(async () => {
      refreshing.set(stream, 'running');
      await fetchAs('page', stream, eventPage);
      const again = refreshing.get(stream) === 'again';
      refreshing.delete(stream);
      if (again) refresh(stream);
    }, 100);
  };
  await openStreams(
    port,
    `/api/modules/${EVENT}/interactiveevents/live/`,
    count,
    (events, at, stream) => {
      for (const m of events.matchAll(/event: likes\ndata: \{"id":(\d+),"count":(\d+)\}/g)) note(`l${m[1]}:${m[2]}`, at);
      for (const m of events.matchAll(/event: question\ndata: \{"id":\d+,"text":"busy question (\d+)/g)) note(`q${m[1]}`, at);
      for (const m of events.matchAll(/event: (?:question|question_hidden)\ndata: \{"id":(\d+)/g)) {
        const id = Number(m[1]);
        if (id > (counted[stream] ?? Infinity) || knows[stream]?.has(id)) knows[stream]?.add(id);
        else void fetchAs('fragment', stream, `${fragmentBase}${id}/`);
      }
      if (/event: (?:reset|comment|report|moderation)\n/.test(events)) refresh(stream);
    },
    (stream) => ({ cookie: cookies[stream] }),
  );
  process.send?.({ open: count });
  process.on('message', (message: { sentAt?: Record<string, number>; count?: boolean }) => {
    if (message.count) process.send?.({ received });
    if (!message.sentAt) return;
    const histogram = new Array<number>(HISTOGRAM_MS + 1).fill(0);
    for (const [key, sent] of Object.entries(message.sentAt)) for (const at of arrived.get(key) ?? []) histogram[Math.min(HISTOGRAM_MS, Math.max(0, Math.round(at - sent)))]++;
    process.send?.({ received, histogram, fetches }, () => process.exit(0));
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const histogramAt = (histogram: number[], p: number) => {
  const total = histogram.reduce((a, b) => a + b, 0);
  let seen = 0;
  for (let ms = 0; ms < histogram.length; ms++) if ((seen += histogram[ms]) >= (p / 100) * total) return ms;
  return NaN;
};

/** The paced writes through the public interface, with their answer times and the send times of what the live clients should see. */
class Writer {
  readonly times = new Map<WriteKind, number[]>(MIX.map((kind) => [kind, []]));
  readonly errors = new Map<WriteKind, number>(MIX.map((kind) => [kind, 0]));
  readonly sentAt: Record<string, number> = {};
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 50 });
  private readonly likes = new Array<number>(OPEN_QUESTIONS + 1).fill(0);
  private sent = 0;
  private questions = 0;
  private comments = 0;
  private pending: Promise<void>[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly port: number,
    /** Visitors of the event page (cookies with their identity, and CSRF token): the n-th like of a question is sent by the n-th. */
    private readonly sessions: { cookie: string; csrf: string }[],
  ) {}

  start(): void {
    const started = performance.now();
    const first = this.sent;
    const tick = () => {
      while (this.sent - first <= ((performance.now() - started) * writesPerSecond) / 1000) this.pending.push(this.write(MIX[this.sent++ % MIX.length]));
      this.timer = setTimeout(tick, 5);
    };
    tick();
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    await Promise.all(this.pending);
    this.pending = [];
  }

  private write(kind: WriteKind): Promise<void> {
    if (kind === 'like') {
      // Round robin over the open questions: a question's likes are seconds apart, so each event's count names its like.
      const question = (this.sent % OPEN_QUESTIONS) + 1;
      const n = this.likes[question]++;
      const session = this.sessions[n % this.sessions.length];
      const expected = `l${question}:${n + 1}`;
      this.sentAt[expected] = now();
      return this.send(kind, `/api/livequestions/${question}/likes/`, { cookie: session.cookie, 'x-csrftoken': session.csrf }, { value: true }, expected);
    }
    if (kind === 'question') {
      const n = ++this.questions;
      this.sentAt[`q${n}`] = now();
      return this.send(kind, `/api/modules/${EVENT}/interactiveevents/livequestions/`, {}, { text: `busy question ${n}: what about the square?`, category: 1 }, `q${n}`);
    }
    const n = ++this.comments;
    const token = `busy${(n % USERS) + 1}`.padEnd(40, 'x');
    return this.send(kind, `/api/contenttypes/4/objects/${(n % IDEAS) + 1}/comments/`, { authorization: `Token ${token}` }, { comment: `Busy comment ${n}` });
  }

  /** The statuses of the writes that failed (0: no answer). */
  readonly failures = new Map<number, number>();

  private fail(kind: WriteKind, status: number, expected: string | undefined): void {
    this.errors.set(kind, (this.errors.get(kind) ?? 0) + 1);
    this.failures.set(status, (this.failures.get(status) ?? 0) + 1);
    // A write that failed announces nothing: its event is not expected.
    if (expected) delete this.sentAt[expected];
  }

  private send(kind: WriteKind, path: string, headers: Record<string, string>, body: object, expected?: string): Promise<void> {
    const sent = now();
    return new Promise((resolve) => {
      const req = request({ host: '127.0.0.1', port: this.port, method: 'POST', path, agent: this.agent, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
        res.resume();
        res.on('end', () => {
          this.times.get(kind)?.push(now() - sent);
          if (res.statusCode !== 201) this.fail(kind, res.statusCode ?? 0, expected);
          resolve();
        });
      });
      req.on('error', () => {
        this.fail(kind, 0, expected);
        resolve();
      });
      req.end(JSON.stringify(body));
    });
  }

  /** How many like and question events each client should receive. */
  get expectedEvents(): number {
    return Object.keys(this.sentAt).length;
  }
}

/**
 * How often each page's version moved: the change log's sums for the start page (project 0), the
 * project page (the project), the Brainstorming module's page (the project's rows of module 0 and
 * of that module, where the log has modules: migration 0042) and the idea's page (of those, item 0
 * and the idea's own, where it has items); before migration 0042 all but the start page's are the
 * project's.
 */
type Scope = 'start' | 'project' | 'module' | 'idea';
async function versionSums(database: ReturnType<typeof openPostgres>): Promise<Record<Scope, number>> {
  const columns = ((await database.db.execute(sql.raw(`SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'page_changes'`))) as unknown as { rows: { name: string }[] }).rows.map((c) => c.name);
  // Since migration 0051 the module's page leaves out the comments on its ideas (`thread`; it fills their figures in at sending),
  // and since 0052 the project page too (its modules' tiles' counts are filled in at sending), and both the ratings.
  const notThread = columns.includes('thread') ? ' AND NOT thread' : '';
  const inModule = columns.includes('module_id') ? `project_id = 1 AND module_id IN (0, ${BRAINSTORMING})${notThread}` : 'project_id = 1';
  const inIdea = columns.includes('item_id') ? `project_id = 1 AND (module_id = 0 OR (module_id = ${BRAINSTORMING} AND item_id IN (0, 1)))` : inModule;
  // Since migration 0056 the merge moves the rows into page_change_sums every two seconds (per key: scope 0, per module: 1, per project: 2).
  const sums = ((await database.db.execute(sql.raw(`SELECT to_regclass('page_change_sums') IS NOT NULL AS has`))) as unknown as { rows: { has: boolean }[] }).rows[0]?.has;
  const merged = (where: string) => (sums ? ` + (SELECT coalesce(sum(n), 0) FROM page_change_sums WHERE ${where})` : '');
  const sum = (where: string, mergedWhere: string) => `((SELECT coalesce(sum(n), 0) FROM page_changes WHERE ${where})${merged(mergedWhere)})`;
  const site = 'scope = 2 AND project_id = 0';
  const [row] = ((await database.db.execute(
    sql.raw(`SELECT ${sum('project_id = 0', site)} AS start,
      ${sum(`project_id = 0 OR (project_id = 1${notThread})`, `${site} OR (scope = 2 AND project_id = 1${notThread})`)} AS project,
      ${sum(`(project_id = 0 OR (${inModule}))`, `${site} OR (scope = 1 AND ${inModule})`)} AS module,
      ${sum(`project_id = 0 OR (${inIdea})`, `${site} OR (scope = 1 AND project_id = 1 AND module_id = 0) OR (scope = 0 AND project_id = 1 AND module_id = ${BRAINSTORMING} AND item_id IN (0, 1))`)} AS idea`),
  )) as unknown as {
    rows: Record<Scope, string>[];
  }).rows;
  return { start: Number(row.start), project: Number(row.project), module: Number(row.module), idea: Number(row.idea) };
}

/** CPU seconds (user and system) of a process, from /proc (0: gone). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The machine's processes by group: the server's workers, the live receivers, PostgreSQL, and the rest (this process with autocannon, the others). */
type CpuGroup = 'workers' | 'receivers' | 'postgres' | 'other';

/** Each process's group and CPU seconds now. */
function cpuByProcess(workers: number[], receivers: number[]): Map<number, { group: CpuGroup; seconds: number }> {
  const processes = new Map<number, { group: CpuGroup; seconds: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    let comm: string;
    try {
      comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    const group: CpuGroup = workers.includes(pid) ? 'workers' : receivers.includes(pid) ? 'receivers' : comm === 'postgres' ? 'postgres' : 'other';
    processes.set(pid, { group, seconds: cpuSeconds(pid) });
  }
  return processes;
}

/** The CPU seconds each group took between two readings (a process that ended meanwhile is not counted; one that started, all of it). */
function cpuBetween(before: ReturnType<typeof cpuByProcess>, after: ReturnType<typeof cpuByProcess>): Record<CpuGroup, number> {
  const seconds: Record<CpuGroup, number> = { workers: 0, receivers: 0, postgres: 0, other: 0 };
  for (const [pid, { group, seconds: now }] of after) seconds[group] += now - (before.get(pid)?.seconds ?? 0);
  return seconds;
}

/** Reads a page for BENCH_SECONDS, with the share of the machine's two cores each group of processes took meanwhile. */
async function readPage(base: string, path: string, pids: { workers: number[]; receivers: number[] }) {
  const before = cpuByProcess(pids.workers, pids.receivers);
  const started = performance.now();
  const result = await autocannon({ url: base + path, connections, duration: seconds });
  const used = cpuBetween(before, cpuByProcess(pids.workers, pids.receivers));
  const elapsed = (performance.now() - started) / 1000;
  const cpu = Object.fromEntries((Object.keys(used) as CpuGroup[]).map((group) => [group, used[group] / elapsed])) as Record<CpuGroup, number>;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx, cpu };
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function main() {
  console.log(`busy evening at scale ${scale}: ${USERS} users, ${IDEAS} ideas, ${COMMENTS} comments, ${clients} live clients, ${writesPerSecond} writes/s, ${seconds} s per page, ${rounds} rounds, ${workers} workers`);
  if (process.env.BENCH_BUILD !== '0') execSync('npm run build', { stdio: ['ignore', 'ignore', 'inherit'] });
  await prepare();
  const server = await startServer();
  const port = Number(new URL(server.base).port);
  let children: ChildProcess[] = [];
  try {
    const pages = { project: `/${ORG}/projects/evening/`, module: `/${ORG}/projects/module/brainstorming/`, idea: ideaPath(ORG, new Date(Date.now() - day), 1), event: `/${ORG}/interactiveevents/town-hall/`, start: '/' };
    // The idea's reference number comes from its creation date: take the path the module page links.
    const modulePage = await (await fetch(server.base + pages.module)).text();
    pages.idea = /href="(\/[^"]+\/ideas\/[^"/]+\/)"/.exec(modulePage)?.[1] ?? pages.idea;
    const sessions = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const pairs = (await fetch(server.base + pages.event)).headers.getSetCookie().map((c) => c.split(';')[0]);
        return { cookie: pairs.join('; '), csrf: pairs.find((p) => p.startsWith('csrftoken='))?.split('=')[1] ?? '' };
      }),
    );
    // BENCH_PAGES (names, comma-separated): read only these pages, e.g. for a profile of one page's busy time.
    const only = process.env.BENCH_PAGES?.split(',');
    const read = Object.entries(pages).filter(([name]) => !only || only.includes(name));
    children = await startReceivers(fileURLToPath(import.meta.url), port, clients, receivers);
    const pids = { workers: server.workerPids, receivers: children.flatMap((child) => (child.pid ? [child.pid] : [])) };
    const writer = new Writer(port, sessions);
    const results: Record<string, { quiet: Awaited<ReturnType<typeof readPage>>[]; busy: Awaited<ReturnType<typeof readPage>>[] }> = {};
    for (const [name] of read) results[name] = { quiet: [], busy: [] };
    const versions = openPostgres(databaseUrl, { max: 1 });
    const moved: Record<Scope, number> = { start: 0, project: 0, module: 0, idea: 0 };
    let busySeconds = 0;
    for (let round = 1; round <= rounds; round++) {
      for (const [name, path] of read) results[name].quiet.push(await readPage(server.base, path, pids));
      const before = await versionSums(versions);
      const started = performance.now();
      writer.start();
      for (const [name, path] of read) results[name].busy.push(await readPage(server.base, path, pids));
      await writer.stop();
      busySeconds += (performance.now() - started) / 1000;
      const after = await versionSums(versions);
      for (const key of Object.keys(moved) as Scope[]) moved[key] += after[key] - before[key];
      console.log(`round ${round} done`);
    }
    await versions.close();
    const expected = clients * writer.expectedEvents;
    const deadline = performance.now() + 15_000;
    const countReceived = async () => (await Promise.all(children.map((child) => ask<{ received: number }>(child, { count: true }, 'received')))).reduce((a, b) => a + b.received, 0);
    while ((await countReceived()) < expected && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    const answers = await Promise.all(children.map((child) => ask<{ received: number; histogram: number[]; fetches: Record<'fragment' | 'page', Fetches> }>(child, { sentAt: writer.sentAt }, 'histogram')));
    const received = answers.reduce((a, b) => a + b.received, 0);
    const histogram = answers.reduce((sum, answer) => sum.map((n, ms) => n + (answer.histogram[ms] ?? 0)), new Array<number>(HISTOGRAM_MS + 1).fill(0));
    const memory = server.workerPids.map((pid) => `${rssMb(pid).toFixed(0)} MB`).join(', ');

    const range = (values: number[], digits = 0) => {
      const low = Math.min(...values).toFixed(digits);
      const high = Math.max(...values).toFixed(digits);
      return low === high ? low : `${low}–${high}`;
    };
    console.log('\n| page | quiet req/s | busy req/s | busy/quiet | quiet p50 / p99 ms | busy p50 / p99 ms | errors |');
    console.log('|---|---|---|---|---|---|---|');
    for (const [name, { quiet, busy }] of Object.entries(results)) {
      const ratios = busy.map((b, i) => b.rps / Math.max(1, quiet[i].rps));
      const latency = (runs: typeof quiet) => `${range(runs.map((r) => r.p50))} / ${range(runs.map((r) => r.p99))}`;
      const errors = [...quiet, ...busy].reduce((n, r) => n + r.errors, 0);
      console.log(`| ${name} | ${range(quiet.map((r) => r.rps))} | ${range(busy.map((r) => r.rps))} | ${range(ratios, 2)} | ${latency(quiet)} | ${latency(busy)} | ${errors} |`);
    }
    // Each round's figures, and where the two cores went meanwhile (CPU seconds per second of reading, by group of processes).
    const share = (cpu: Record<CpuGroup, number>) => `${cpu.workers.toFixed(2)} / ${cpu.postgres.toFixed(2)} / ${cpu.receivers.toFixed(2)} / ${cpu.other.toFixed(2)}`;
    console.log('\n| page | round | quiet req/s | busy req/s | busy/quiet | quiet CPU: workers / postgres / receivers / other | busy CPU |');
    console.log('|---|---|---|---|---|---|---|');
    for (const [name, { quiet, busy }] of Object.entries(results)) {
      for (const [i, b] of busy.entries()) console.log(`| ${name} | ${i + 1} | ${quiet[i].rps.toFixed(0)} | ${b.rps.toFixed(0)} | ${(b.rps / Math.max(1, quiet[i].rps)).toFixed(2)} | ${share(quiet[i].cpu)} | ${share(b.cpu)} |`);
    }
    console.log('\n| write | sent | p50 ms | p99 ms | errors |');
    console.log('|---|---|---|---|---|');
    for (const [kind, times] of writer.times) {
      const sorted = times.sort((a, b) => a - b);
      console.log(`| ${kind} | ${sorted.length} | ${percentile(sorted, 50).toFixed(0)} | ${percentile(sorted, 99).toFixed(0)} | ${writer.errors.get(kind)} |`);
    }
    if (writer.failures.size) console.log(`failed writes by status (0: no answer): ${JSON.stringify(Object.fromEntries(writer.failures))}`);
    for (const kind of ['fragment', 'page'] as const) {
      const all = answers.map((answer) => answer.fetches[kind]);
      const times = all.reduce((sum, f) => sum.map((n, ms) => n + (f.histogram[ms] ?? 0)), new Array<number>(HISTOGRAM_MS + 1).fill(0));
      const n = all.reduce((sum, f) => sum + f.n, 0);
      const what = kind === 'fragment' ? "questions' fragments" : 'whole event pages';
      console.log(`live clients fetched ${n} ${what} (live.js on each event), ${all.reduce((sum, f) => sum + f.errors, 0)} failed${n ? `: p50 ${histogramAt(times, 50)} ms, p99 ${histogramAt(times, 99)} ms` : ''}`);
    }
    console.log(`\nlive: ${received} of ${expected} events arrived (${writer.expectedEvents} likes and questions × ${clients} clients); request → every client's event: p50 ${histogramAt(histogram, 50)} ms, p99 ${histogramAt(histogram, 99)} ms, max ${histogram.findLastIndex((n) => n > 0)} ms`);
    const perSecond = (n: number) => (n / busySeconds).toFixed(1);
    console.log(`page versions moved while busy (per second; each move makes the page anew on its next read, per language and viewer): start ${perSecond(moved.start)}, project ${perSecond(moved.project)}, module ${perSecond(moved.module)}, idea ${perSecond(moved.idea)}`);
    console.log(`RSS per worker after the run: ${memory}`);
  } finally {
    for (const child of children) child.kill();
    const gone = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await gone;
  }
}

if (process.argv[2] === '--receive') await receive(Number(process.argv[3]), Number(process.argv[4]));
else await main();
