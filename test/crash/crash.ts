/**
 * `npm run test:crash`: every acknowledged write survives a crash.
 *
 * Starts the real server (src/main.ts in a child process), sends a stream of writes (ideas and
 * comments through the API, several at once), kills the server's whole process group with SIGKILL
 * in the middle of the stream, starts it again on the same data and checks that every write that
 * was answered 2xx is there, unchanged. Several rounds on the same data.
 *
 *   CRASH_ROUNDS   kills per database (default 3)
 *   CRASH_SEED     when to kill (default: a fresh seed, printed)
 *   TEST_DATABASE_URL  also run on PostgreSQL (scratch database), after PGlite
 *
 * Exits 1 when an acknowledged write is missing or different.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withClient, withDatabase } from '../../src/db/admin.js';
import { daysFromNow } from '../fixtures.js';
import { freshSeed, Random } from '../fuzz/random.js';

interface Target {
  name: string;
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

interface Acknowledged {
  kind: 'idea' | 'comment';
  url: string;
  text: string;
}

const WORKERS = 4;
const READY_TIMEOUT_MS = 120_000;

const fixture = () => ({
  users: [{ id: 1, username: 'writer', email: 'writer@example.org', password: 'writer-password', language: 'en' }],
  organisations: [{ id: 1, slug: 'org', name: 'Organisation' }],
  projects: [{ id: 1, slug: 'project', name: 'Project', organisation: 1 }],
  modules: [{ id: 1, project: 1, name: 'Ideas', phases: [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(30) }] }],
});

function baseEnv(dataDir: string): Record<string, string> {
  return { NODE_ENV: 'development', HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'warn', SECRET_KEY: randomBytes(32).toString('hex') };
}

function cliEnv(target: Target): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...target.env };
  delete env.TEST_DATABASE_URL;
  return env;
}

/** Starts the server in its own process group; resolves with its address once /healthz answers. */
async function startServer(target: Target): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env: cliEnv(target), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start within ${READY_TIMEOUT_MS} ms:\n${output}`)), READY_TIMEOUT_MS);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/[^\s/]+)\//.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${output}`));
    });
  });
  child.removeAllListeners('exit');
  // Poll readiness: the address is printed once listening, but ask the database too.
  for (;;) {
    const health = await fetch(`${url}/healthz`).catch(() => null);
    if (health?.ok) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, url };
}

/** SIGKILL to the whole process group: the primary and any cluster workers die at once, as in a power cut of the container. */
async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  if (child.pid) process.kill(-child.pid, 'SIGKILL');
  await exited;
}

async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}

/** Writes ideas and comments from several clients at once until the server dies; returns what was acknowledged. */
async function writeUntilKilled(url: string, token: string, ideaContentType: number, round: number, killAfter: number, child: ChildProcess) {
  const acknowledged: Acknowledged[] = [];
  let sent = 0;
  let killing: Promise<void> | null = null;
  const headers = { authorization: `Token ${token}`, 'content-type': 'application/json' };
  const worker = async (id: number) => {
    const ideas: number[] = [];
    for (let n = 0; ; n++) {
      const text = `round ${round} worker ${id} write ${n}`;
      const comment = ideas.length > 0 && n % 2 === 1;
      const path = comment ? `/api/contenttypes/${ideaContentType}/objects/${ideas[ideas.length - 1]}/comments/` : '/api/modules/1/ideas/';
      const body = comment ? { comment: text } : { name: text, description: `<p>${text}</p>` };
      sent++;
      const response = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }).catch(() => null);
      if (!response) return; // the server is gone
      if (response.status !== 201) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
      const created = await json(response);
      const key = comment ? Number(created.id) : Number(created.pk);
      if (!comment) ideas.push(key);
      acknowledged.push({ kind: comment ? 'comment' : 'idea', url: comment ? `${path}${key}/` : `/api/modules/1/ideas/${key}/`, text });
      if (acknowledged.length >= killAfter) killing ??= kill(child);
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, (_, id) => worker(id)));
  await killing;
  return { acknowledged, inFlight: sent - acknowledged.length };
}

/** Every acknowledged write, read back through the API. */
async function missing(url: string, acknowledged: Acknowledged[]): Promise<string[]> {
  const problems: string[] = [];
  for (const write of acknowledged) {
    const response = await fetch(`${url}${write.url}`);
    if (response.status !== 200) {
      problems.push(`${write.kind} ${write.url} (${write.text}): ${response.status}`);
      continue;
    }
    const body = await json(response);
    const stored = write.kind === 'idea' ? body.name : body.comment;
    if (stored !== write.text) problems.push(`${write.kind} ${write.url}: stored ${JSON.stringify(stored)}, acknowledged ${JSON.stringify(write.text)}`);
  }
  return problems;
}

async function crashRounds(target: Target, rounds: number, rng: Random): Promise<boolean> {
  const fixtureFile = join(target.env.DATA_DIR, 'crash-fixture.json');
  writeFileSync(fixtureFile, JSON.stringify(fixture()));
  const loaded = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/manage.ts', 'loaddata', fixtureFile], { env: cliEnv(target), encoding: 'utf8' });
  if (loaded.status !== 0) throw new Error(`loaddata failed: ${loaded.stdout}${loaded.stderr}`);
  const all: Acknowledged[] = [];
  let ok = true;
  let server = await startServer(target);
  const login = await json(await fetch(`${server.url}/api/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'writer', password: 'writer-password' }) }));
  const token = String(login.token);
  const types = (await (await fetch(`${server.url}/api/contenttypes/`)).json()) as { id: number; model: string }[];
  const ideaType = types.find((type) => type.model === 'idea')?.id ?? 0;
  for (let round = 1; round <= rounds; round++) {
    const killAfter = rng.int(20, 120);
    const { acknowledged, inFlight } = await writeUntilKilled(server.url, token, ideaType, round, killAfter, server.child);
    all.push(...acknowledged);
    server = await startServer(target);
    const problems = await missing(server.url, all);
    const ideas = all.filter((write) => write.kind === 'idea').length;
    console.log(
      `crash: ${target.name} round ${round}: SIGKILL after ${acknowledged.length} acknowledged writes (${inFlight} in flight); after restart ${all.length - problems.length} of ${all.length} acknowledged writes so far (${ideas} ideas, ${all.length - ideas} comments) found unchanged`,
    );
    for (const problem of problems) console.log(`  MISSING ${problem}`);
    if (problems.length) ok = false;
  }
  await kill(server.child);
  return ok;
}

async function pgliteTarget(): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'allmende-crash-'));
  return { name: 'PGlite', env: baseEnv(dataDir), cleanup: async () => rmSync(dataDir, { recursive: true, force: true }) };
}

async function postgresTarget(adminUrl: string): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'allmende-crash-'));
  const name = `allmende_crash_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  return {
    name: 'PostgreSQL',
    env: { ...baseEnv(dataDir), DATABASE_URL: withDatabase(adminUrl, name) },
    async cleanup() {
      await withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function main(): Promise<number> {
  const seed = Number(process.env.CRASH_SEED ?? freshSeed());
  const rounds = Number(process.env.CRASH_ROUNDS ?? 3);
  const rng = new Random(seed);
  const adminUrl = process.env.TEST_DATABASE_URL;
  console.log(`crash: seed ${seed}, ${rounds} rounds on PGlite${adminUrl ? ' and PostgreSQL' : ''} (repeat: CRASH_SEED=${seed} npm run test:crash)`);
  let ok = true;
  for (const make of [pgliteTarget, ...(adminUrl ? [() => postgresTarget(adminUrl)] : [])]) {
    const target = await make();
    try {
      ok = (await crashRounds(target, rounds, rng)) && ok;
    } finally {
      await target.cleanup();
    }
  }
  console.log(ok ? 'crash: every acknowledged write survived' : 'crash: acknowledged writes were lost');
  return ok ? 0 : 1;
}

process.exitCode = await main();
