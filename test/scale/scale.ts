/**
 * `npm run test:scale` (90 s of load) and `npm run test:scale:short` (CI, ≈ 20 s of load): three
 * instances of Allmende behind HAProxy, one instance killed mid-run.
 *
 * Starts three servers (src/main.ts, each its own PORT, WEB_CONCURRENCY=1) on one scratch PostgreSQL
 * database and one Redis, writes an HAProxy configuration (the one docs/operations.md shows, "Several
 * instances behind a load balancer"), starts haproxy on a free port and sends steady load through it:
 * page views, API reads, idea and comment writes with an API token and with a signed-in browser
 * session (cookie + CSRF), likes on an Interactive Event, and live clients holding its event stream
 * open. Partway through, one instance gets SIGKILL; once HAProxy has marked it down it is started
 * again on the same port. Then it checks:
 *   - every write answered 2xx (ideas, comments, likes) is in the database, unchanged;
 *   - no 5xx and no connection error except for requests that were in flight when the instance died;
 *   - the token and the browser session (cookie + CSRF) work on every instance, the restarted one too;
 *   - every live client got every `likes` event the database holds for the topic, reconnecting with
 *     Last-Event-ID (the last `id:` it received, sent back as an opaque string) like EventSource.
 * Prints the figures per scenario. Exits 1 on any failed check.
 *
 *   SCALE_SECONDS        seconds of load (default 90; --short: 20)
 *   SCALE_DATABASE_URL   PostgreSQL server for the scratch database (default TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres)
 *   SCALE_REDIS_URL      Redis (default redis://127.0.0.1:6379/5)
 *   HAPROXY              the haproxy binary (default haproxy on PATH, else /usr/sbin/haproxy)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, type IncomingHttpHeaders, request } from 'node:http';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import '../../src/module-types.js';
import { loadFixture } from '../../src/cli/loaddata.js';
import { withClient, withDatabase } from '../../src/db/admin.js';
import { openPostgres } from '../../src/db/client.js';
import { comments, liveEvents } from '../../src/db/schema/index.js';
import { ideas } from '../../src/features/ideas/schema.js';
import { basicWorldWith, daysFromNow } from '../fixtures.js';
import { DOCS_EXAMPLE, docsConfig, haproxyConfig } from './haproxy.js';

const short = process.argv.includes('--short');
const SECONDS = Number(process.env.SCALE_SECONDS ?? (short ? 20 : 90));
const ADMIN_URL = process.env.SCALE_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.SCALE_REDIS_URL ?? 'redis://127.0.0.1:6379/5';
const HAPROXY = process.env.HAPROXY ?? (existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy');
const INSTANCES = 3;
const LIVE_CLIENTS = short ? 20 : 40;
const LIKES_PER_SECOND = short ? 5 : 8;
/** Clients per scenario, each sending its next request when the last is answered. */
const CONCURRENCY = short ? { pages: 2, reads: 1, writes: 1 } : { pages: 3, reads: 2, writes: 2 };
const loops = (n: number) => Array.from({ length: n }, (_, i) => i);
const IDEA_MODULE = 1;
// An unusual module id: Redis pub/sub ignores the database number, so its topic (ie:<id>) stays apart from other runs' on a shared Redis.
const IE_MODULE = 9101;
const QUESTIONS = Math.ceil(LIKES_PER_SECOND * SECONDS * 1.2) + 50;
const READY_TIMEOUT_MS = 90_000;
const SECRET_KEY = randomBytes(32).toString('hex');

// ---------------------------------------------------------------- helpers

const until = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs: number, everyMs = 100): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One HTTP request; rejects on a connection error (refused, reset, closed before the answer ended). */
function http(port: number, method: string, path: string, options: { headers?: Record<string, string>; body?: string; agent?: Agent } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent: options.agent, headers: { ...options.headers, ...(options.body !== undefined ? { 'content-length': String(Buffer.byteLength(options.body)) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
      res.on('aborted', () => reject(new Error('answer aborted')));
    });
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(options.body);
  });
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);

// ---------------------------------------------------------------- the database

async function scratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `allmende_scale_${randomBytes(4).toString('hex')}`;
  await withClient(ADMIN_URL, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = withDatabase(ADMIN_URL, name);
  const drop = () => withClient(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined);
  try {
    const database = openPostgres(url, { max: 2 });
    try {
      await database.migrate();
      await loadFixture(
        database.db,
        basicWorldWith({
          projects: [{ id: 2, slug: 'town-hall', name: 'Town hall', organisation: 1 }],
          modules: [{ id: IE_MODULE, slug: 'town-hall-questions', project: 2, name: 'Town hall questions', blueprint_type: 'IE', phases: [{ type: 'a4_candy_interactive_events:issue', start_date: daysFromNow(-1), end_date: daysFromNow(1) }] }],
          affiliations: [{ id: 9101, module: IE_MODULE, name: 'Residents' }],
          live_questions: Array.from({ length: QUESTIONS }, (_, i) => ({ id: i + 1, module: IE_MODULE, text: `Question ${i + 1}`, affiliation: 9101 })),
          ideas: [{ id: 1, module: IDEA_MODULE, creator: 5, name: 'The first idea', description: '<p>Read by the page views.</p>' }],
        }),
        { baseDir: process.cwd() },
      );
    } finally {
      await database.close();
    }
  } catch (error) {
    await drop();
    throw error;
  }
  return { url, drop };
}

// ---------------------------------------------------------------- the instances

interface Instance {
  name: string;
  port: number;
  child: ChildProcess | null;
  dataDir: string;
}

async function startInstance(instance: Instance, databaseUrl: string): Promise<void> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    SECRET_KEY,
    MEDIA_STORE: 'database',
    PORT: String(instance.port),
    HOST: '127.0.0.1',
    WEB_CONCURRENCY: '1',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    DATA_DIR: instance.dataDir,
    BASE_URL: 'http://allmende.test',
    // Every client comes from 127.0.0.1 (through HAProxy, which is trusted and forwards the client's address).
    CONNECTIONS_PER_IP: '0',
    TRUST_PROXY: '127.0.0.1',
  };
  delete env.TEST_DATABASE_URL;
  delete env.TEST_TEMPLATE_DB;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  instance.child = child;
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${instance.name} did not start within ${READY_TIMEOUT_MS} ms:\n${output}`)), READY_TIMEOUT_MS);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (/running at http/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${instance.name} exited with ${code ?? signal}:\n${output}`));
    });
  });
  child.removeAllListeners('exit');
  child.stdout?.removeAllListeners('data');
  child.stderr?.removeAllListeners('data');
  // Keep reading (a full pipe would block the server), and show what it complains about.
  child.stdout?.on('data', () => undefined);
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[${instance.name}] ${chunk.toString()}`));
  await until(`${instance.name}'s /healthz`, async () => (await http(instance.port, 'GET', '/healthz').catch(() => null))?.status === 200, READY_TIMEOUT_MS);
}

/** SIGKILL to the instance's process group; resolves once it is gone. */
async function killInstance(instance: Instance, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  const child = instance.child;
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    process.kill(-child.pid, signal);
  } catch {
    return;
  }
  await exited;
}

// ---------------------------------------------------------------- HAProxy

/** One command on HAProxy's stats socket. */
function haproxyCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = connect(socket);
    let out = '';
    client.on('connect', () => client.end(`${command}\n`));
    client.on('data', (chunk) => (out += chunk.toString()));
    client.on('end', () => resolve(out));
    client.on('error', reject);
  });
}

/** Each backend server's status (UP, DOWN, …) as HAProxy's health checks see it. */
async function backendStatus(socket: string): Promise<Record<string, string>> {
  const csv = await haproxyCommand(socket, 'show stat').catch(() => '');
  const [header, ...rows] = csv.split('\n').filter(Boolean);
  if (!header) return {};
  const columns = header.replace(/^# /, '').split(',');
  const [px, sv, st] = ['pxname', 'svname', 'status'].map((c) => columns.indexOf(c));
  const status: Record<string, string> = {};
  for (const row of rows) {
    const cells = row.split(',');
    if (cells[px] === 'instances' && cells[sv] !== 'BACKEND') status[cells[sv]] = cells[st];
  }
  return status;
}

// ---------------------------------------------------------------- the load

interface Sample {
  start: number;
  end: number;
  status: number; // 0: connection error
}

class Scenario {
  readonly samples: Sample[] = [];
  readonly unexpected: string[] = [];
  constructor(readonly name: string) {}
  async run(fn: () => Promise<Answer>, expected: (a: Answer) => boolean): Promise<Answer | null> {
    const start = performance.now();
    const token = {};
    inFlight.add(token);
    try {
      const answer = await fn();
      this.samples.push({ start, end: performance.now(), status: answer.status });
      if (!expected(answer) && answer.status < 500) this.unexpected.push(`${answer.status} ${answer.body.slice(0, 200)}`);
      return expected(answer) ? answer : null;
    } catch {
      this.samples.push({ start, end: performance.now(), status: 0 });
      return null;
    } finally {
      inFlight.delete(token);
    }
  }
}
const inFlight = new Set<object>();

interface Written {
  kind: 'idea' | 'comment';
  id: number;
  text: string;
  via: string;
}

class Cookies {
  readonly jar = new Map<string, string>();
  take(headers: IncomingHttpHeaders): void {
    for (const line of headers['set-cookie'] ?? []) {
      const [pair, ...attrs] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1);
      if (value === '' || attrs.some((a) => /max-age=0\b/i.test(a.trim()) || /expires=Thu, 01 Jan 1970/i.test(a))) this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }
  get header(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** A live client with EventSource's reconnection: the last `id:` it saw goes back as Last-Event-ID. */
class LiveClient {
  lastId: string | null = null;
  readonly likes = new Set<string>();
  reconnects = 0;
  resets = 0;
  connected = false;
  private closed = false;
  private req: ReturnType<typeof request> | null = null;
  private retryMs = 2000;
  constructor(
    private readonly port: number,
    private readonly agent: Agent,
  ) {}

  open(): Promise<void> {
    return new Promise((resolve) => {
      let settled = false;
      const settle = () => {
        if (!settled) {
          settled = true;
          resolve();
        }
      };
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (this.lastId !== null) headers['last-event-id'] = this.lastId;
      const req = request({ host: '127.0.0.1', port: this.port, path: `/api/modules/${IE_MODULE}/interactiveevents/live/`, agent: this.agent, headers }, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          this.again();
          return settle();
        }
        this.connected = true;
        res.setEncoding('utf8');
        let rest = '';
        res.on('data', (chunk: string) => {
          rest += chunk;
          let at;
          while ((at = rest.indexOf('\n\n')) >= 0) {
            this.frame(rest.slice(0, at));
            rest = rest.slice(at + 2);
          }
          settle();
        });
        const ended = () => {
          this.connected = false;
          this.again();
        };
        res.on('end', ended);
        res.on('aborted', ended);
        res.on('error', () => undefined);
      });
      req.on('error', () => {
        this.connected = false;
        this.again();
        settle();
      });
      req.end();
      this.req = req;
    });
  }

  private frame(block: string): void {
    let event = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      const colon = line.indexOf(':');
      if (colon === 0) continue;
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id' && !value.includes('\0')) this.lastId = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data += (data ? '\n' : '') + value;
      else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
    }
    if (event === 'likes') {
      const { id, count } = JSON.parse(data) as { id: number; count: number };
      this.likes.add(`${id}:${count}`);
    } else if (event === 'reset') this.resets++;
  }

  private again(): void {
    if (this.closed) return;
    this.reconnects++;
    // EventSource waits the stream's `retry:` before it connects again.
    setTimeout(() => void this.open(), this.retryMs).unref();
  }

  close(): void {
    this.closed = true;
    this.req?.destroy();
  }
}

// ---------------------------------------------------------------- main

async function main(): Promise<boolean> {
  const failures: string[] = [];
  const dirs: string[] = [];
  let haproxy: ChildProcess | null = null;
  const instances: Instance[] = [];
  const began = performance.now();
  const documented = docsConfig(readFileSync('docs/operations.md', 'utf8'));
  const example = haproxyConfig(DOCS_EXAMPLE.listen, DOCS_EXAMPLE.servers, DOCS_EXAMPLE.statsSocket);
  if (documented !== example) failures.push(`docs/operations.md's HAProxy configuration is not the one this test runs; it should read:\n${example}`);
  const scratch = await scratchDatabase();
  console.log(`scale: scratch database ready in ${((performance.now() - began) / 1000).toFixed(1)} s`);
  const liveClients: LiveClient[] = [];
  const agents: Agent[] = [];
  try {
    const started = performance.now();
    for (let i = 1; i <= INSTANCES; i++) {
      const dataDir = mkdtempSync(join(tmpdir(), `allmende-scale-${i}-`));
      dirs.push(dataDir);
      instances.push({ name: `allmende${i}`, port: await freePort(), child: null, dataDir });
    }
    await Promise.all(instances.map((instance) => startInstance(instance, scratch.url)));

    const haproxyDir = mkdtempSync(join(tmpdir(), 'allmende-scale-haproxy-'));
    dirs.push(haproxyDir);
    const socket = join(haproxyDir, 'stats.sock');
    const lbPort = await freePort();
    const configFile = join(haproxyDir, 'haproxy.cfg');
    writeFileSync(configFile, haproxyConfig(`127.0.0.1:${lbPort}`, instances.map((i) => ({ name: i.name, address: `127.0.0.1:${i.port}` })), socket));
    haproxy = spawn(HAPROXY, ['-db', '-f', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
    let haproxyOutput = '';
    haproxy.stderr?.on('data', (chunk: Buffer) => (haproxyOutput += chunk.toString()));
    const haproxyExit = new Promise<never>((_, reject) => haproxy?.once('exit', (code) => reject(new Error(`haproxy exited with ${code}:\n${haproxyOutput}`))));
    haproxyExit.catch(() => undefined);
    const allUp = async () => {
      const status = await backendStatus(socket);
      return instances.every((i) => status[i.name] === 'UP');
    };
    await Promise.race([until('every instance UP in HAProxy', allUp, 30_000), haproxyExit]);
    console.log(`scale: ${INSTANCES} instances and HAProxy up in ${((performance.now() - started) / 1000).toFixed(1)} s (balancer on port ${lbPort}, instances on ${instances.map((i) => i.port).join(', ')})`);

    // Idle sockets are closed well before HAProxy's `timeout http-keep-alive` (10 s) would close them under a request.
    const agent = new Agent({ keepAlive: true, maxSockets: 64, timeout: 4000 });
    const liveAgent = new Agent({ keepAlive: false, maxSockets: Infinity });
    agents.push(agent, liveAgent);
    const lb = (method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}) => http(lbPort, method, path, { ...options, agent });

    // A token and a signed-in browser session, both obtained through the balancer.
    const login = await lb('POST', '/api/login/', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'user', password: 'user-password' }) });
    if (login.status !== 200) throw new Error(`/api/login/ answered ${login.status}: ${login.body}`);
    const token = (JSON.parse(login.body) as { token: string }).token;
    const browser = new Cookies();
    browser.take((await lb('GET', '/accounts/login/')).headers);
    const signIn = await lb('POST', '/accounts/login/', {
      headers: { cookie: browser.header, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfmiddlewaretoken: browser.jar.get('csrftoken') ?? '', login: 'member', password: 'member-password' }).toString(),
    });
    browser.take(signIn.headers);
    if (signIn.status !== 302 || !browser.jar.has('sessionid')) throw new Error(`the browser login answered ${signIn.status} without a session: ${signIn.body.slice(0, 300)}`);
    const contentTypes = JSON.parse((await lb('GET', '/api/contenttypes/')).body) as { id: number; model: string }[];
    const ideaType = contentTypes.find((t) => t.model === 'idea')?.id ?? 0;
    const tokenHeaders = { authorization: `Token ${token}`, 'content-type': 'application/json' };
    const formHeaders = () => ({ cookie: browser.header, 'content-type': 'application/x-www-form-urlencoded' });
    const form = (fields: Record<string, string>) => new URLSearchParams({ csrfmiddlewaretoken: browser.jar.get('csrftoken') ?? '', ...fields }).toString();

    // Live clients, all connected before the first like.
    for (let i = 0; i < LIVE_CLIENTS; i++) liveClients.push(new LiveClient(lbPort, liveAgent));
    await Promise.all(liveClients.map((c) => c.open()));
    await until('every live client connected', () => liveClients.every((c) => c.connected), 30_000);

    const written: Written[] = [];
    const likedQuestions: number[] = [];
    const pages = new Scenario('page views');
    const reads = new Scenario('API reads');
    const apiWrites = new Scenario('API writes (token)');
    const formWrites = new Scenario('form writes (session)');
    const likes = new Scenario('likes');
    const scenarios = [pages, reads, apiWrites, formWrites, likes];
    const ok2xx = (a: Answer) => a.status >= 200 && a.status < 300;

    const loadStart = performance.now();
    const loadEnd = loadStart + SECONDS * 1000;
    const running = () => performance.now() < loadEnd;
    const pagePaths = ['/', '/org/projects/project/', '/org/projects/module/module-1/', `/org/ideas/${new Date().getUTCFullYear()}-00001/`, '/org/projects/town-hall/'];
    const pageLoop = async (n: number) => {
      for (let i = n; running(); i++) await pages.run(() => lb('GET', pagePaths[i % pagePaths.length]), (a) => a.status === 200);
    };
    const readPaths = ['/api/app-projects/', `/api/modules/${IDEA_MODULE}/ideas/`, `/api/modules/${IE_MODULE}/interactiveevents/livequestions/`];
    const readLoop = async (n: number) => {
      for (let i = n; running(); i++) await reads.run(() => lb('GET', readPaths[i % readPaths.length], { headers: { authorization: `Token ${token}` } }), (a) => a.status === 200);
    };
    const apiWriteLoop = async (n: number) => {
      let idea = 0;
      for (let i = 0; running(); i++) {
        const text = `api ${n}.${i}`;
        if (i % 2 === 0 || !idea) {
          const answer = await apiWrites.run(() => lb('POST', `/api/modules/${IDEA_MODULE}/ideas/`, { headers: tokenHeaders, body: JSON.stringify({ name: text, description: `<p>${text}</p>`, category: 1 }) }), ok2xx);
          if (answer) written.push({ kind: 'idea', id: (idea = Number((JSON.parse(answer.body) as { pk: number }).pk)), text, via: 'API' });
        } else {
          const answer = await apiWrites.run(() => lb('POST', `/api/contenttypes/${ideaType}/objects/${idea}/comments/`, { headers: tokenHeaders, body: JSON.stringify({ comment: text }) }), ok2xx);
          if (answer) written.push({ kind: 'comment', id: Number((JSON.parse(answer.body) as { id: number }).id), text, via: 'API' });
        }
      }
    };
    const formWriteLoop = async (n: number) => {
      let idea = 0;
      for (let i = 0; running(); i++) {
        const text = `form ${n}.${i}`;
        if (i % 2 === 0 || !idea) {
          const answer = await formWrites.run(() => lb('POST', '/org/ideas/create/module/module-1/', { headers: formHeaders(), body: form({ name: text, description: `<p>${text}</p>`, category: '1' }) }), (a) => a.status === 302 && /\/org\/ideas\/\d{4}-\d+\//.test(String(a.headers.location)));
          if (answer) written.push({ kind: 'idea', id: (idea = Number(/\d{4}-(\d+)\//.exec(String(answer.headers.location))?.[1])), text, via: 'form' });
        } else {
          const answer = await formWrites.run(() => lb('POST', `/comments/on/idea/${idea}/`, { headers: formHeaders(), body: form({ comment: text }) }), (a) => a.status === 302 && /[?&]comment=\d+/.test(String(a.headers.location)));
          if (answer) written.push({ kind: 'comment', id: Number(/[?&]comment=(\d+)/.exec(String(answer.headers.location))?.[1]), text, via: 'form' });
        }
      }
    };
    const likeLoop = async () => {
      const pending: Promise<unknown>[] = [];
      for (let q = 1; running() && q <= QUESTIONS; q++) {
        const due = loadStart + ((q - 1) * 1000) / LIKES_PER_SECOND;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        if (!running()) break;
        pending.push(likes.run(() => lb('POST', `/api/livequestions/${q}/likes/`, { headers: { cookie: browser.header, 'x-csrftoken': browser.jar.get('csrftoken') ?? '', 'content-type': 'application/json' }, body: '{"value":true}' }), ok2xx).then((a) => a && likedQuestions.push(q)));
      }
      await Promise.all(pending);
    };

    // The kill: partway through, SIGKILL one instance; once HAProxy has it DOWN, start it again on its port.
    const victim = instances[1];
    let killedAt = 0;
    let exitedAt = 0;
    let inFlightAtKill = 0;
    let restartedAt = 0;
    const chaos = async () => {
      await until('the time to kill', () => performance.now() > loadStart + SECONDS * 1000 * 0.3, SECONDS * 1000);
      inFlightAtKill = inFlight.size;
      killedAt = performance.now();
      await killInstance(victim);
      exitedAt = performance.now();
      await until(`${victim.name} DOWN in HAProxy`, async () => (await backendStatus(socket))[victim.name] === 'DOWN', 30_000);
      const downAt = performance.now();
      await startInstance(victim, scratch.url);
      await until(`${victim.name} UP again in HAProxy`, async () => (await backendStatus(socket))[victim.name] === 'UP', 30_000);
      restartedAt = performance.now();
      console.log(`scale: SIGKILL to ${victim.name} at ${((killedAt - loadStart) / 1000).toFixed(1)} s (${inFlightAtKill} requests in flight through the balancer), DOWN after ${((downAt - killedAt) / 1000).toFixed(1)} s, serving again after ${((restartedAt - killedAt) / 1000).toFixed(1)} s`);
    };

    const killed = chaos();
    killed.catch(() => undefined);
    await Promise.all([
      ...loops(CONCURRENCY.pages).map(pageLoop),
      ...loops(CONCURRENCY.reads).map(readLoop),
      ...loops(CONCURRENCY.writes).map(apiWriteLoop),
      ...loops(CONCURRENCY.writes).map(formWriteLoop),
      likeLoop(),
    ]);
    const loadSeconds = (performance.now() - loadStart) / 1000;
    // The restarted instance may still be starting (a busy machine); the checks below need it.
    await killed;

    // ------------------------------------------------------------ checks
    // 1. 5xx and connection errors only for requests in flight when the instance died.
    // In flight on the dead instance: started before its exit was seen, not answered when the kill was sent.
    const badOutside: string[] = [];
    let badInside = 0;
    for (const s of scenarios) {
      for (const sample of s.samples) {
        const failed = sample.status === 0 || sample.status >= 500;
        if (failed && sample.start <= exitedAt && sample.end >= killedAt) badInside++;
        else if (failed) badOutside.push(`${s.name}: ${sample.status || 'connection error'} at ${((sample.start - loadStart) / 1000).toFixed(2)} s`);
      }
      for (const u of s.unexpected.slice(0, 5)) failures.push(`${s.name}: unexpected answer ${u}`);
    }
    // Bound: at most the requests in flight through the balancer when the kill was sent, plus those sent until the instance was gone.
    const startedDuringKill = scenarios.reduce((n, s) => n + s.samples.filter((x) => x.start > killedAt && x.start <= exitedAt).length, 0);
    const bound = inFlightAtKill + startedDuringKill;
    if (badInside > bound) failures.push(`${badInside} requests failed around the kill, more than the ${bound} in flight then`);
    if (badOutside.length) failures.push(`${badOutside.length} requests failed that were not in flight at the kill: ${badOutside.slice(0, 10).join('; ')}`);

    // 2. The token and the session work on every instance directly, the restarted one too (a read and a write each); the writes are checked with the others below.
    for (const instance of instances) {
      const account = await http(instance.port, 'GET', '/api/account/', { headers: { authorization: `Token ${token}` } }).catch((e: Error) => ({ status: 0, body: e.message, headers: {} }));
      if (account.status !== 200 || !account.body.includes('"user"')) failures.push(`${instance.name}: the token's GET /api/account/ answered ${account.status}`);
      const session = await http(instance.port, 'GET', '/api/account/', { headers: { cookie: browser.header } }).catch((e: Error) => ({ status: 0, body: e.message, headers: {} }));
      if (session.status !== 200 || !session.body.includes('"member"')) failures.push(`${instance.name}: the session's GET /api/account/ answered ${session.status}: ${session.body.slice(0, 200)}`);
      const text = `direct ${instance.name}`;
      const byToken = await http(instance.port, 'POST', `/api/modules/${IDEA_MODULE}/ideas/`, { headers: tokenHeaders, body: JSON.stringify({ name: text, description: `<p>${text}</p>`, category: 1 }) }).catch(() => null);
      if (byToken?.status !== 201) failures.push(`${instance.name}: an idea with the token answered ${byToken?.status}`);
      else written.push({ kind: 'idea', id: Number((JSON.parse(byToken.body) as { pk: number }).pk), text, via: `API on ${instance.name}` });
      const byForm = await http(instance.port, 'POST', '/org/ideas/create/module/module-1/', { headers: formHeaders(), body: form({ name: `${text} (form)`, description: `<p>${text}</p>`, category: '1' }) }).catch(() => null);
      const formIdea = /\/org\/ideas\/\d{4}-(\d+)\//.exec(String(byForm?.headers.location));
      if (byForm?.status !== 302 || !formIdea) failures.push(`${instance.name}: an idea by the session's form (cookie + CSRF) answered ${byForm?.status}`);
      else written.push({ kind: 'idea', id: Number(formIdea[1]), text: `${text} (form)`, via: `form on ${instance.name}` });
    }

    // 3. Every acknowledged write is in the database, unchanged.
    const database = openPostgres(scratch.url, { max: 1 });
    let lost = 0;
    try {
      const ideaIds = written.filter((w) => w.kind === 'idea').map((w) => w.id);
      const commentIds = written.filter((w) => w.kind === 'comment').map((w) => w.id);
      const storedIdeas = new Map((ideaIds.length ? await database.db.select({ id: ideas.id, name: ideas.name }).from(ideas).where(inArray(ideas.id, ideaIds)) : []).map((r) => [r.id, r.name]));
      const storedComments = new Map((commentIds.length ? await database.db.select({ id: comments.id, text: comments.comment }).from(comments).where(inArray(comments.id, commentIds)) : []).map((r) => [r.id, r.text]));
      for (const w of written) {
        const stored = w.kind === 'idea' ? storedIdeas.get(w.id) : storedComments.get(w.id);
        if (stored !== w.text) {
          lost++;
          if (lost <= 10) failures.push(`acknowledged ${w.kind} ${w.id} (${w.via}) ${stored === undefined ? 'is missing' : `reads "${stored}", not "${w.text}"`}`);
        }
      }

      // 4. Every live client got every likes event the database holds for the topic (and every acknowledged like has one).
      const events = await database.db.select({ data: liveEvents.data }).from(liveEvents).where(and(eq(liveEvents.topic, `ie:${IE_MODULE}`), eq(liveEvents.event, 'likes')));
      const expected = new Set(events.map((e) => `${(e.data as { id: number }).id}:${(e.data as { count: number }).count}`));
      const questionsWithEvent = new Set(events.map((e) => (e.data as { id: number }).id));
      const likesWithoutEvent = likedQuestions.filter((q) => !questionsWithEvent.has(q));
      if (likesWithoutEvent.length) failures.push(`${likesWithoutEvent.length} acknowledged likes have no event in live_events (questions ${likesWithoutEvent.slice(0, 10).join(', ')})`);
      const complete = () => liveClients.every((c) => [...expected].every((e) => c.likes.has(e)));
      await until('every live client to have every like event', complete, 20_000).catch(() => undefined);
      const incomplete = liveClients.filter((c) => ![...expected].every((e) => c.likes.has(e)));
      if (incomplete.length) failures.push(`${incomplete.length} of ${liveClients.length} live clients missed like events (e.g. ${[...expected].filter((e) => !incomplete[0].likes.has(e)).slice(0, 5).join(', ')})`);
      const resets = liveClients.reduce((n, c) => n + c.resets, 0);
      if (resets) failures.push(`${resets} reset events: a reconnecting client could not be replayed what it missed`);
      const reconnects = liveClients.reduce((n, c) => n + c.reconnects, 0);
      const moved = Math.round(LIVE_CLIENTS / INSTANCES);
      if (reconnects < moved - 2) failures.push(`only ${reconnects} live reconnects: the streams on the killed instance (≈ ${moved}) should have reconnected`);

      // ---------------------------------------------------------- figures
      const rows = scenarios.map((s) => {
        const sorted = s.samples.map((x) => x.end - x.start).sort((a, b) => a - b);
        const conn = s.samples.filter((x) => x.status === 0).length;
        const gateway = s.samples.filter((x) => x.status === 502 || x.status === 503).length;
        const other5xx = s.samples.filter((x) => x.status >= 500 && x.status !== 502 && x.status !== 503).length;
        return [s.name, String(s.samples.length), (s.samples.length / loadSeconds).toFixed(1), percentile(sorted, 50).toFixed(0), percentile(sorted, 99).toFixed(0), String(conn), String(gateway), String(other5xx), String(s.unexpected.length)];
      });
      const head = ['scenario', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'conn err', '502/503', 'other 5xx', 'other unexpected'];
      const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
      const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
      console.log(`\nscale: ${loadSeconds.toFixed(1)} s of load through HAProxy on ${INSTANCES} instances, ${LIVE_CLIENTS} live clients, one instance killed and restarted`);
      console.log(line(head));
      console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
      for (const row of rows) console.log(line(row));
      const ideasWritten = written.filter((w) => w.kind === 'idea').length;
      console.log(`\nacknowledged writes: ${written.length} (${ideasWritten} ideas, ${written.length - ideasWritten} comments; ${written.filter((w) => w.via === 'form').length} by the session's forms), lost: ${lost}`);
      console.log(`likes: ${likedQuestions.length} acknowledged, ${expected.size} like events in live_events; live clients complete: ${LIVE_CLIENTS - incomplete.length} of ${LIVE_CLIENTS}, reconnects: ${reconnects}, resets: ${resets}`);
      console.log(`failed requests (connection errors, 5xx): ${badInside} in flight at the kill (bound ${bound}), ${badOutside.length} at other times`);
      console.log(`the killed instance was back ${((restartedAt - killedAt) / 1000).toFixed(1)} s after the kill\n`);
    } finally {
      await database.close();
    }
  } finally {
    for (const c of liveClients) c.close();
    for (const a of agents) a.destroy();
    if (haproxy && haproxy.exitCode === null) {
      const gone = new Promise((resolve) => haproxy?.once('exit', resolve));
      haproxy.kill('SIGKILL');
      await gone;
    }
    await Promise.all(instances.map((i) => killInstance(i)));
    await scratch.drop().catch((error: unknown) => console.error(`scale: the scratch database could not be dropped: ${String(error)}`));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
  console.log(`scale: ${((performance.now() - began) / 1000).toFixed(1)} s in all`);
  for (const f of failures) console.log(`FAIL ${f}`);
  console.log(failures.length ? `scale: ${failures.length} checks failed` : 'scale: every check passed');
  return failures.length === 0;
}

process.exitCode = (await main()) ? 0 : 1;
