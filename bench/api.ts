/**
 * The scenarios of issue 15 beside the bare limit, in one run, on loopback only:
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> WORKERS=2 npx tsx bench/api.ts [seconds] [scenario,scenario,…]
 *   BENCH_DATA_DIR=/tmp/allmende-bench WORKERS=1 npx tsx bench/api.ts [seconds] [scenarios]              (PGlite)
 * An empty database is filled with `manage generate` first (sizes from BENCH_USERS, BENCH_ORGANISATIONS,
 * BENCH_PROJECTS, BENCH_IDEAS, BENCH_COMMENTS, BENCH_ACTIONS; see SIZES). Allmende runs as in production:
 * `npm run build` (skipped with BENCH_BUILD=0), then `node dist/main.js` with WEB_CONCURRENCY=WORKERS.
 * For each scenario the bare node:http + pg (or PGlite) server of bench/bare.ts answers the same query,
 * then Allmende, each for `seconds` with 20 connections (BENCH_CONNECTIONS). Prints req/s, p50/p99, SQL statements per
 * request (counted in-process afterwards), the ratio, the resident memory after the load and, for
 * `cold-start`, the time from spawning `node dist/main.js` (PGlite: on a fresh copy of the data) to
 * the first 200 on /healthz and on the app project list.
 */
import autocannon from 'autocannon';
import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.js';
import { generate, type GenerateCounts, GENERATED_PASSWORD } from '../src/cli/generate.js';
import { testConfig } from '../src/config.js';
import { type Database, openDatabase } from '../src/db/client.js';
import { signJwt } from '../src/http/jwt.js';
import { createBrowserSession } from '../src/http/session.js';
import { ideaPath } from '../src/core/urls.js';

const seconds = Number(process.argv[2] ?? 5);
const chosen = process.argv[3] ? process.argv[3].split(',') : null;
const workers = Number(process.env.WORKERS ?? 1);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? null;
const dataDir = process.env.BENCH_DATA_DIR ?? '/tmp/allmende-bench';
const secretKey = 'bench-secret-key-bench-secret-key-bench-secret-key';
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const size = (name: string, fallback: number) => Number(process.env[`BENCH_${name}`] ?? fallback);
/**
 * What an empty database is filled with. Every tenth comment lands in one project (the moderation
 * list: 10 000 of 100 000), about a tenth of the actions in the first generated user's feed.
 */
const SIZES: GenerateCounts = {
  users: size('USERS', 1000),
  organisations: size('ORGANISATIONS', 20),
  projects: size('PROJECTS', 500),
  ideas: size('IDEAS', 5000),
  comments: size('COMMENTS', 100_000),
  actions: size('ACTIONS', 1_000_000),
};
const ACTION_BATCH = Number(process.env.BENCH_ACTION_BATCH ?? 250_000);
mkdirSync(dataDir, { recursive: true });

async function rows<T>(database: Database, query: string): Promise<T[]> {
  return ((await database.db.execute(sql.raw(query))) as unknown as { rows: T[] }).rows;
}

/** Fills an empty database, and picks what the scenarios ask for. */
async function prepare() {
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    await database.migrate();
    const [{ n }] = await rows<{ n: string }>(database, 'SELECT count(*) n FROM projects');
    if (Number(n) === 0) {
      console.log(`generating ${JSON.stringify(SIZES)} …`);
      await database.db.transaction((tx) => generate(tx, { ...SIZES, actions: Math.min(SIZES.actions, ACTION_BATCH) }));
      // The rest of the actions in transactions of their own: PGlite holds a transaction's work in memory.
      for (let done = ACTION_BATCH; done < SIZES.actions; done += ACTION_BATCH) {
        const actions = Math.min(ACTION_BATCH, SIZES.actions - done);
        await database.db.transaction((tx) => generate(tx, { users: 0, organisations: 0, projects: 0, ideas: 0, comments: 0, actions }));
        console.log(`  ${done + actions} actions`);
      }
      // What autovacuum does to a settled table: statistics, and the visibility map that lets counts read the index alone.
      await database.db.execute(sql.raw('VACUUM ANALYZE'));
    }
    // The first generated user owns every tenth idea (its feed); the second moderates the busiest project.
    const [user, moderator] = await rows<{ id: number; username: string }>(database, `SELECT id, username FROM users WHERE username LIKE 'gen_user_%' ORDER BY id LIMIT 2`);
    const tokenOf = async (userId: number, key: string) => {
      await database.db.execute(sql.raw(`INSERT INTO api_tokens (key, user_id) VALUES ('${key}', ${userId}) ON CONFLICT DO NOTHING`));
      return (await rows<{ key: string }>(database, `SELECT key FROM api_tokens WHERE user_id = ${userId}`))[0].key;
    };
    const [busy] = await rows<{ project: number; n: string }>(database, 'SELECT project_id project, count(*) n FROM comments GROUP BY project_id ORDER BY count(*) DESC LIMIT 1');
    await database.db.execute(sql.raw(`INSERT INTO project_moderators (project_id, user_id) VALUES (${busy.project}, ${moderator.id}) ON CONFLICT DO NOTHING`));
    const [listed, other] = await rows<{ slug: string; module: number; module_slug: string; org: string }>(
      database,
      `SELECT p.slug, m.id module, m.slug module_slug, o.slug org FROM projects p JOIN organisations o ON o.id = p.organisation_id JOIN modules m ON m.project_id = p.id
       JOIN phases ph ON ph.module_id = m.id WHERE p.access = 'PUBLIC' AND NOT p.is_draft AND NOT p.is_archived AND o.enable_geolocation
       AND ph.start_date <= now() AND ph.end_date > now() + interval '1 day' ORDER BY (SELECT count(*) FROM ideas i WHERE i.module_id = m.id AND i.name NOT LIKE 'Bench idea %') DESC, m.id LIMIT 2`,
    );
    // The idea page: the listed module's idea with the most comments (its thread's first page is full).
    const [idea] = await rows<{ id: number; created: Date | string }>(
      database,
      `SELECT i.id, i.created FROM ideas i WHERE i.module_id = ${listed.module}
       ORDER BY (SELECT count(*) FROM comments c WHERE c.content_type = 'idea' AND c.object_pk = i.id) DESC, i.id LIMIT 1`,
    );
    const [counts] = await rows<Record<string, string>>(
      database,
      `SELECT (SELECT count(*) FROM projects) projects, (SELECT count(*) FROM ideas) ideas, (SELECT count(*) FROM comments) comments,
        (SELECT count(*) FROM actions) actions, (SELECT count(*) FROM actions WHERE target_creator_id = ${user.id}) feed`,
    );
    const data = `${counts.projects} projects, ${counts.ideas} ideas, ${counts.comments} comments (${busy.n} in the moderated project), ${counts.actions} actions (${counts.feed} in the dashboard user's feed)`;
    return {
      user,
      token: await tokenOf(user.id, 'b'.repeat(40)),
      moderatorToken: await tokenOf(moderator.id, 'm'.repeat(40)),
      session: await createBrowserSession(database.db, user.id),
      busyProject: busy.project,
      ...listed,
      ideaPath: ideaPath(listed.org, new Date(idea.created), idea.id),
      // Ideas are created in another module than the listed one, so that the list stays the same size
    // (and they do not count when the listed module is picked, so that it stays the same from run to run).
      writeModule: other.module,
      data,
    };
  } finally {
    await database.close();
  }
}

function startServer(command: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, command, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      const match = ready.exec(output);
      if (match) resolve({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`${command.join(' ')} exited with ${code}: ${output}`)));
  });
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.removeAllListeners('exit');
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

interface Scenario {
  name: string;
  title: string;
  method?: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: () => string;
  /** Allmende only (the bare server has no such route): no ratio. */
  allmendeOnly?: boolean;
  /** Conditional: sent with the ETag Allmende gave the same request, so 304 is the expected answer. */
  conditional?: boolean;
}

type Measured = Awaited<ReturnType<typeof load>>;

/** Seconds of load per scenario before the measured run, so that both servers are measured warm (JIT, pools, caches). */
const warmup = Number(process.env.BENCH_WARMUP ?? 1);
async function measure(url: string, scenario: Scenario): Promise<Measured> {
  if (warmup > 0) await load(url, scenario, warmup);
  return load(url, scenario);
}

async function load(url: string, scenario: Scenario, duration = seconds) {
  let n = 0;
  const result = await autocannon({
    url: url + scenario.path,
    connections,
    duration,
    method: scenario.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...scenario.headers },
    ...(scenario.body ? { requests: [{ setupRequest: (request) => ({ ...request, body: scenario.body?.().replace('#', String(n++)) }) }] } : {}),
  });
  const errors = result.errors + result['4xx'] + result['5xx'] + (scenario.conditional ? result['2xx'] : result['3xx']);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors, bytes: result.throughput.average / Math.max(1, result.requests.average) };
}

async function statementsPerRequest(scenarios: Scenario[]): Promise<number[]> {
  const database = await openDatabase({ databaseUrl, dataDir }, 2);
  const app = await buildApp({ config: testConfig({ dataDir, secretKey, databaseUrl }), database });
  const send = (scenario: Scenario, label: string) =>
    app.inject({ method: scenario.method ?? 'GET', url: scenario.path, headers: { 'content-type': 'application/json', ...scenario.headers }, payload: scenario.body?.().replace('#', label) });
  try {
    const counts: number[] = [];
    for (const scenario of scenarios) {
      await send(scenario, 'warm');
      const before = database.stats.queries;
      for (let i = 0; i < 10; i++) await send(scenario, `count ${i}`);
      counts.push((database.stats.queries - before) / 10);
    }
    return counts;
  } finally {
    await app.close();
    await database.close();
  }
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/**
 * Cold start: spawns `node dist/main.js` (on PGlite on a fresh copy of the data directory, so no
 * cache of a previous start helps; the copy is flushed to disk first) and polls every 5 ms; ms from the spawn to the first 200 on
 * /healthz and on the app project list. Three starts.
 */
async function coldStart(env: NodeJS.ProcessEnv, token: string): Promise<{ healthz: number; list: number }[]> {
  const runs = [];
  for (let run = 0; run < 3; run++) {
    const copy = `${dataDir}-cold`;
    rmSync(copy, { recursive: true, force: true });
    if (!databaseUrl) {
      cpSync(dataDir, copy, { recursive: true });
      // Written out before the clock starts: else the kernel writes the copy (≈ 1 GB at a million actions) back during the start it times.
      execSync('sync');
    }
    const port = await freePort();
    const started = performance.now();
    const child = spawn(process.execPath, ['dist/main.js'], { env: { ...process.env, ...env, DATA_DIR: databaseUrl ? dataDir : copy, PORT: String(port) }, stdio: 'ignore' });
    const firstOk = async (path: string, headers: Record<string, string> = {}) => {
      for (;;) {
        const ok = await fetch(`http://127.0.0.1:${port}${path}`, { headers }).then((r) => r.status === 200, () => false);
        if (ok) return performance.now() - started;
        if (child.exitCode !== null) throw new Error('the server exited during its start');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const [healthz, list] = await Promise.all([firstOk('/healthz'), firstOk('/api/app-projects/', { authorization: `Token ${token}` })]);
    runs.push({ healthz: Math.round(healthz), list: Math.round(list) });
    await stop(child);
  }
  rmSync(`${dataDir}-cold`, { recursive: true, force: true });
  return runs;
}

async function main() {
  const picked = await prepare();
  const token = { authorization: `Token ${picked.token}` };
  const bearer = { authorization: `Bearer ${await signJwt(secretKey, 'access', picked.user.id, 3600)}` };
  const session = { cookie: `sessionid=${picked.session}` };
  const ideaBody = () => JSON.stringify({ name: 'Bench idea #', description: '<p>Eine Idee aus dem Lasttest.</p>' });
  const all: Scenario[] = [
    { name: 'app-projects', title: 'GET /api/app-projects/ (Token)', path: '/api/app-projects/', headers: token },
    { name: 'app-projects-bearer', title: 'GET /api/app-projects/ (Bearer)', path: '/api/app-projects/', headers: bearer, allmendeOnly: true },
    { name: 'app-projects-gzip', title: 'GET /api/app-projects/ (Token, Accept-Encoding: gzip)', path: '/api/app-projects/', headers: { ...token, 'accept-encoding': 'gzip' } },
    { name: 'app-projects-304', title: 'GET /api/app-projects/ (Token, If-None-Match: 304)', path: '/api/app-projects/', headers: token, allmendeOnly: true, conditional: true },
    { name: 'app-project', title: 'GET /api/app-projects/{slug}/ (Token)', path: `/api/app-projects/${picked.slug}/`, headers: token },
    { name: 'ideas', title: 'GET /api/modules/{id}/ideas/', path: `/api/modules/${picked.module}/ideas/`, headers: token },
    { name: 'idea-create', title: 'POST /api/modules/{id}/ideas/', method: 'POST', path: `/api/modules/${picked.writeModule}/ideas/`, headers: token, body: ideaBody },
    { name: 'login', title: 'POST /api/login/', method: 'POST', path: '/api/login/', headers: {}, body: () => JSON.stringify({ username: picked.user.username, password: GENERATED_PASSWORD }) },
    {
      name: 'moderation',
      title: 'GET /api/userdashboard/moderation/{project}/comments/ (page of 20)',
      path: `/api/userdashboard/moderation/${picked.busyProject}/comments/?num_of_comments=20&ordering=-created`,
      headers: { authorization: `Token ${picked.moderatorToken}` },
    },
    { name: 'dashboard', title: 'GET /userdashboard/overview/activities/ (page)', path: '/userdashboard/overview/activities/', headers: session },
    { name: 'project-page', title: 'GET /{org}/projects/{slug}/ (page)', path: `/${picked.org}/projects/${picked.slug}/`, headers: {} },
    { name: 'ideas-page', title: 'GET /{org}/projects/module/{slug}/ (idea list page)', path: `/${picked.org}/projects/module/${picked.module_slug}/`, headers: {} },
    { name: 'start-page', title: 'GET / (start page)', path: '/', headers: {} },
    { name: 'project-page-user', title: 'GET /{org}/projects/{slug}/ (page, signed in)', path: `/${picked.org}/projects/${picked.slug}/`, headers: session },
    { name: 'ideas-page-user', title: 'GET /{org}/projects/module/{slug}/ (idea list page, signed in)', path: `/${picked.org}/projects/module/${picked.module_slug}/`, headers: session },
    { name: 'idea-page', title: 'GET /{org}/ideas/{ref}/ (idea page with its comments)', path: picked.ideaPath, headers: {} },
    { name: 'idea-page-user', title: 'GET /{org}/ideas/{ref}/ (idea page with its comments, signed in)', path: picked.ideaPath, headers: session },
  ];
  const names = [...all.map((s) => s.name), 'cold-start', 'prepare'];
  const unknown = (chosen ?? []).filter((name) => !names.includes(name));
  if (unknown.length) throw new Error(`unknown scenario ${unknown.join(', ')}; the scenarios: ${names.join(', ')}`);
  const scenarios = all.filter((s) => !chosen || chosen.includes(s.name));
  if (chosen?.join() === 'prepare') return console.log(`prepared: ${picked.data}`); // the data only, e.g. before a timed session

  if (process.env.BENCH_BUILD !== '0') execSync('npm run build', { stdio: ['ignore', 'ignore', 'inherit'] });
  const env = { DATABASE_URL: databaseUrl ?? '', DATA_DIR: dataDir, PORT: '0', WORKERS: String(workers) };
  const production = { ...env, WEB_CONCURRENCY: String(workers), SECRET_KEY: secretKey, BASE_URL: 'http://127.0.0.1:8004', SEED_DEMO: 'false', LOG_LEVEL: 'warn', NODE_ENV: 'production', LOGIN_FAILURE_LIMIT: '1000000' };
  const bareResults: (Measured | null)[] = [];
  const results: Measured[] = [];
  let rss: number[] = [];
  if (scenarios.length) {
    const bare = await startServer(['--import', 'tsx', 'bench/bare.ts'], env, /bare at (http:\/\/\S+)/);
    for (const scenario of scenarios) bareResults.push(scenario.allmendeOnly ? null : await measure(bare.url, scenario));
    await stop(bare.child);
    const server = await startServer(['dist/main.js'], production, /running at (http:\/\/[^/\s]+)\//);
    for (const scenario of scenarios.filter((s) => s.conditional)) {
      const etag = (await fetch(server.url + scenario.path, { headers: scenario.headers })).headers.get('etag');
      scenario.headers = { ...scenario.headers, 'if-none-match': etag ?? '' };
    }
    for (const scenario of scenarios) results.push(await measure(server.url, scenario));
    rss = await rssOfTree(server.child.pid ?? 0);
    await stop(server.child);
  }
  const cold = !chosen || chosen.includes('cold-start') ? await coldStart(production, picked.token) : null;
  const statements = await statementsPerRequest(scenarios);

  console.log(`\n${databaseUrl ? 'PostgreSQL' : 'PGlite'}, ${workers} worker(s), ${seconds} s per scenario, ${connections} connections, loopback; ${picked.data}\n`);
  console.log('| scenario | bare req/s | req/s | p50 / p99 ms | SQL/req | ratio | KB/answer (bare) | errors |\n|---|---|---|---|---|---|---|---|');
  scenarios.forEach((scenario, i) => {
    const [mine, base] = [results[i], bareResults[i]];
    const cells = [
      `\`${scenario.name}\` ${scenario.title}`,
      base ? Math.round(base.rps) : '—',
      Math.round(mine.rps),
      `${mine.p50} / ${mine.p99}`,
      statements[i],
      base ? (mine.rps / base.rps).toFixed(2) : '—',
      `${(mine.bytes / 1024).toFixed(1)} (${base ? (base.bytes / 1024).toFixed(1) : '—'})`,
      mine.errors,
    ];
    console.log(`| ${cells.join(' | ')} |`);
  });
  const memory = rss.length > 1 ? `primary ${rss[0]} MB, workers ${rss.slice(1).join(', ')} MB` : `${rss[0]} MB (one process serving)`;
  if (rss.length) console.log(`\nRSS after the load (node dist/main.js): ${memory}`);
  if (cold) console.log(`\nCold start to the first 200 (ms, three starts): /healthz ${cold.map((c) => c.healthz).join(', ')}; /api/app-projects/ ${cold.map((c) => c.list).join(', ')}`);
}

/** Resident memory of a process and its children, in MB (Linux /proc). */
async function rssOfTree(pid: number): Promise<number[]> {
  const rssOf = (p: number) => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0) / 1024);
  const children = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ')[1] === String(pid);
      } catch {
        return false;
      }
    })
    .map(Number);
  return [rssOf(pid), ...children.map(rssOf)];
}

await main();
