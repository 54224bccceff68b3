/**
 * The API scenarios of issue 15 beside the bare limit, in one run, on loopback only:
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> WORKERS=2 npx tsx bench/api.ts [seconds]
 *   BENCH_DATA_DIR=/tmp/allmende-bench WORKERS=1 npx tsx bench/api.ts [seconds]          (PGlite)
 * The database is filled with `manage generate` first when it has no projects (500 projects, 199
 * or so of them in the app list, 5 000 ideas, 20 000 comments and actions, 1 000 users). For each
 * scenario: the bare node:http + pg (or PGlite) server of bench/bare.ts answers the same query, then
 * Allmende (`src/main.ts` with WEB_CONCURRENCY=WORKERS), each for `seconds` with 20 connections.
 * Prints req/s, p50/p99, SQL statements per request (counted in-process afterwards) and the ratio.
 */
import autocannon from 'autocannon';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.js';
import { generate, GENERATED_PASSWORD } from '../src/cli/generate.js';
import { testConfig } from '../src/config.js';
import { type Database, openDatabase } from '../src/db/client.js';
import { signJwt } from '../src/http/jwt.js';

const seconds = Number(process.argv[2] ?? 5);
const workers = Number(process.env.WORKERS ?? 1);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? null;
const dataDir = process.env.BENCH_DATA_DIR ?? '/tmp/allmende-bench';
const secretKey = 'bench-secret-key-bench-secret-key-bench-secret-key';
const connections = 20;
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
      console.log('generating: 1 000 users, 20 organisations, 500 projects, 5 000 ideas, 20 000 comments and actions …');
      await database.db.transaction((tx) => generate(tx, { users: 1000, organisations: 20, projects: 500, ideas: 5000, comments: 20000, actions: 20000 }));
      await database.db.execute(sql.raw('ANALYZE'));
    }
    const [user] = await rows<{ id: number; username: string }>(database, `SELECT id, username FROM users WHERE username LIKE 'gen_user_%' ORDER BY id LIMIT 1`);
    await database.db.execute(sql.raw(`INSERT INTO api_tokens (key, user_id) VALUES ('${'b'.repeat(40)}', ${user.id}) ON CONFLICT DO NOTHING`));
    const [token] = await rows<{ key: string }>(database, `SELECT key FROM api_tokens WHERE user_id = ${user.id}`);
    const [listed, other] = await rows<{ slug: string; module: number }>(
      database,
      `SELECT p.slug, m.id module FROM projects p JOIN organisations o ON o.id = p.organisation_id JOIN modules m ON m.project_id = p.id
       JOIN phases ph ON ph.module_id = m.id WHERE p.access = 'PUBLIC' AND NOT p.is_draft AND NOT p.is_archived AND o.enable_geolocation
       AND ph.start_date <= now() AND ph.end_date > now() + interval '1 day' ORDER BY (SELECT count(*) FROM ideas i WHERE i.module_id = m.id) DESC, m.id LIMIT 2`,
    );
    // Ideas are created in another module than the listed one, so that the list stays the same size.
    return { user, token: token.key, slug: listed.slug, module: listed.module, writeModule: other.module };
  } finally {
    await database.close();
  }
}

function startServer(command: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...command], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
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
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

interface Scenario {
  title: string;
  method?: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: () => string;
  /** Allmende only (the bare server has no such route): no ratio. */
  allmendeOnly?: boolean;
}

type Measured = Awaited<ReturnType<typeof load>>;

async function load(url: string, scenario: Scenario) {
  let n = 0;
  const result = await autocannon({
    url: url + scenario.path,
    connections,
    duration: seconds,
    method: scenario.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...scenario.headers },
    ...(scenario.body ? { requests: [{ setupRequest: (request) => ({ ...request, body: scenario.body?.().replace('#', String(n++)) }) }] } : {}),
  });
  const errors = result.non2xx + result.errors;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors, bytes: result.throughput.average / Math.max(1, result.requests.average) };
}

async function statementsPerRequest(scenarios: Scenario[]): Promise<number[]> {
  const database = await openDatabase({ databaseUrl, dataDir }, 2);
  const app = await buildApp({ config: testConfig({ dataDir, secretKey, databaseUrl }), database });
  try {
    const counts: number[] = [];
    for (const scenario of scenarios) {
      await app.inject({ method: scenario.method ?? 'GET', url: scenario.path, headers: { 'content-type': 'application/json', ...scenario.headers }, payload: scenario.body?.().replace('#', 'warm') });
      const before = database.stats.queries;
      for (let i = 0; i < 10; i++) {
        await app.inject({ method: scenario.method ?? 'GET', url: scenario.path, headers: { 'content-type': 'application/json', ...scenario.headers }, payload: scenario.body?.().replace('#', `count ${i}`) });
      }
      counts.push((database.stats.queries - before) / 10);
    }
    return counts;
  } finally {
    await app.close();
    await database.close();
  }
}

async function main() {
  const picked = await prepare();
  const token = { authorization: `Token ${picked.token}` };
  const bearer = { authorization: `Bearer ${await signJwt(secretKey, 'access', picked.user.id, 3600)}` };
  const ideaBody = () => JSON.stringify({ name: 'Bench idea #', description: '<p>Eine Idee aus dem Lasttest.</p>' });
  const scenarios: Scenario[] = [
    { title: 'GET /api/app-projects/ (Token)', path: '/api/app-projects/', headers: token },
    { title: 'GET /api/app-projects/ (Bearer)', path: '/api/app-projects/', headers: bearer, allmendeOnly: true },
    { title: 'GET /api/app-projects/{slug}/ (Token)', path: `/api/app-projects/${picked.slug}/`, headers: token },
    { title: 'GET /api/modules/{id}/ideas/', path: `/api/modules/${picked.module}/ideas/`, headers: token },
    { title: 'POST /api/modules/{id}/ideas/', method: 'POST', path: `/api/modules/${picked.writeModule}/ideas/`, headers: token, body: ideaBody },
    { title: 'POST /api/login/', method: 'POST', path: '/api/login/', headers: {}, body: () => JSON.stringify({ username: picked.user.username, password: GENERATED_PASSWORD }) },
  ];

  const env = { DATABASE_URL: databaseUrl ?? '', DATA_DIR: dataDir, PORT: '0', WORKERS: String(workers) };
  const bare = await startServer(['bench/bare.ts'], env, /bare at (http:\/\/\S+)/);
  const bareResults: (Measured | null)[] = [];
  for (const scenario of scenarios) bareResults.push(scenario.allmendeOnly ? null : await load(bare.url, scenario));
  await stop(bare.child);

  const server = await startServer(
    ['src/main.ts'],
    { ...env, WEB_CONCURRENCY: String(workers), SECRET_KEY: secretKey, SEED_DEMO: 'false', LOG_LEVEL: 'warn', NODE_ENV: 'production', LOGIN_FAILURE_LIMIT: '1000000' },
    /running at (http:\/\/[^/\s]+)\//,
  );
  const results: Measured[] = [];
  for (const scenario of scenarios) results.push(await load(server.url, scenario));
  const rss = await rssOfTree(server.child.pid ?? 0);
  await stop(server.child);
  const statements = await statementsPerRequest(scenarios);

  console.log(`\n${databaseUrl ? 'PostgreSQL' : 'PGlite'}, ${workers} worker(s), ${seconds} s per scenario, ${connections} connections, loopback`);
  console.table(
    scenarios.map((scenario, i) => {
      const mine = results[i];
      const base = bareResults[i];
      return {
        scenario: scenario.title,
        'bare req/s': base ? Math.round(base.rps) : '—',
        'req/s': Math.round(mine.rps),
        'p50 ms': mine.p50,
        'p99 ms': mine.p99,
        'SQL/req': statements[i],
        ratio: base ? (mine.rps / base.rps).toFixed(2) : '—',
        'KB/resp (bare)': `${(mine.bytes / 1024).toFixed(1)} (${base ? (base.bytes / 1024).toFixed(1) : '—'})`,
        errors: mine.errors,
      };
    }),
  );
  console.log(`RSS after the load: ${rss.map((mb) => `${mb} MB`).join(', ')} (primary first)`);
}

/** Resident memory of a process and its children, in MB (Linux /proc). */
async function rssOfTree(pid: number): Promise<number[]> {
  const { readFileSync, readdirSync } = await import('node:fs');
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
