/**
 * Runs the suite (docs/testing.md). `tsx test/run.ts [--tier unit,medium,…] [file or folder …]`.
 *
 * - Tiers come from the file name: `*.unit.test.ts` (pure, no database), `*.browser.test.ts`
 *   (Chromium), `*.process.test.ts` (child processes), `*.sweep.test.ts` (fuzz and robustness
 *   sweeps), every other `*.test.ts` is medium (the app in-process on a database).
 * - The files are bundled once (test/build.ts); each file runs in its own process under node's
 *   test runner, at most TEST_CONCURRENCY (default 2) at once, the slowest known first
 *   (test/timings.json; `--save-timings` writes it anew), so the run does not end waiting for one
 *   long file.
 * - With TEST_DATABASE_URL set, the database tiers run on PostgreSQL: a migrated template database
 *   is made for the run, each test process clones one database from it and resets it between
 *   tests (test/database.ts), and everything is dropped at the end.
 * - Each file's output is printed when it ends; at the end the ten slowest files, the time per
 *   tier and one closing line `N passed, N failed, N skipped`. `TEST_TIMING_FILE=path` also
 *   appends one JSON line per file. A file that hangs fails after 20 minutes.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { withClient, withDatabase } from '../src/db/admin.js';
import { openPostgres } from '../src/db/client.js';
import { BUILD_DIR, buildSuite, builtFile } from './build.js';

const TIERS = ['unit', 'medium', 'browser', 'process', 'sweep'] as const;
type Tier = (typeof TIERS)[number];

/** A test file's tier, from its name. */
function tierOf(file: string): Tier {
  return /\.(unit|browser|process|sweep)\.test\.ts$/.exec(file)?.[1] as Tier | undefined ?? 'medium';
}

/** Every `*.test.ts` below `dir`, in a stable order. */
function testFilesIn(dir = 'test'): string[] {
  if (!statSync(dir).isDirectory()) return [dir];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => join(dir, file))
    .sort();
}

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  todo: number;
}
interface FileResult extends Counts {
  file: string;
  tier: Tier;
  ms: number;
  exitCode: number | null;
}

const TIMINGS = 'test/timings.json';
const FILE_TIMEOUT_MS = 20 * 60_000;

function parseArgs(argv: string[]): { tiers: Set<Tier>; paths: string[]; saveTimings: boolean } {
  const tiers = new Set<Tier>();
  const paths: string[] = [];
  let saveTimings = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--save-timings') {
      saveTimings = true;
      continue;
    }
    const value = arg.startsWith('--tier=') ? arg.slice(7) : arg === '--tier' ? argv[++i] : null;
    if (value === null) {
      paths.push(arg);
      continue;
    }
    for (const tier of value.split(',')) {
      if (!(TIERS as readonly string[]).includes(tier)) throw new Error(`unknown tier ${tier} (one of ${TIERS.join(', ')})`);
      tiers.add(tier as Tier);
    }
  }
  return { tiers: tiers.size ? tiers : new Set(TIERS), paths, saveTimings };
}

const knownTimings = (): Record<string, number> => (existsSync(TIMINGS) ? JSON.parse(readFileSync(TIMINGS, 'utf8')) : {});

/** The slowest known files first: with a few processes at once, a long file started last would end the run alone. */
function slowestFirst(files: string[]): string[] {
  const known = knownTimings();
  const expected = (file: string) => known[file] ?? 30_000;
  return [...files].sort((a, b) => expected(b) - expected(a));
}

/** Runs one bundled test file under node's test runner; counts come from test/reporter.ts's last line. */
function runFile(file: string, env: NodeJS.ProcessEnv): Promise<FileResult> {
  const started = Date.now();
  const reporter = join(BUILD_DIR, 'test', 'reporter.js');
  const args = ['--enable-source-maps', '--test', `--test-timeout=${FILE_TIMEOUT_MS}`, '--test-force-exit', `--test-reporter=./${reporter}`, builtFile(file)];
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), FILE_TIMEOUT_MS + 60_000);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      const summary = [...output.matchAll(/^# counts (\{.*\})$/gm)].at(-1);
      const counts: Counts = summary ? JSON.parse(summary[1]) : { passed: 0, failed: 1, skipped: 0, todo: 0 };
      if (exitCode !== 0 && counts.failed === 0) counts.failed = 1; // a crash after the last test
      const ms = Date.now() - started;
      const text = output.replace(/^# counts .*\n?/gm, '').trimEnd();
      console.log(`\n▶ ${file} (${(ms / 1000).toFixed(1)} s)${counts.failed ? ' FAILED' : ''}\n${text}`);
      done({ file, tier: tierOf(file), ms, exitCode, ...counts });
    });
  });
}

async function runAll(files: string[], env: NodeJS.ProcessEnv, concurrency: number): Promise<FileResult[]> {
  const queue = slowestFirst(files);
  const results: FileResult[] = [];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) results.push(await runFile(file, env));
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
  return results;
}

function report(results: FileResult[], wallMs: number, buildMs: number): void {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log('\nThe ten slowest files:');
  for (const r of [...results].sort((a, b) => b.ms - a.ms).slice(0, 10)) console.log(`  ${seconds(r.ms).padStart(8)}  ${r.file}`);
  console.log('Per tier (files, tests, time in the files):');
  for (const tier of TIERS) {
    const inTier = results.filter((r) => r.tier === tier);
    if (!inTier.length) continue;
    const tests = inTier.reduce((n, r) => n + r.passed + r.failed + r.skipped + r.todo, 0);
    console.log(`  ${tier.padEnd(8)} ${String(inTier.length).padStart(4)} files ${String(tests).padStart(5)} tests ${seconds(inTier.reduce((n, r) => n + r.ms, 0)).padStart(9)}`);
  }
  console.log(`Build ${seconds(buildMs)}, wall ${seconds(wallMs)}.`);
  const failedFiles = results.filter((r) => r.failed);
  if (failedFiles.length) console.log(`Failed files:\n${failedFiles.map((r) => `  ${r.file}`).join('\n')}`);
  const sum = (key: keyof Counts) => results.reduce((n, r) => n + r[key], 0);
  const todo = sum('todo');
  console.log(`\n${sum('passed')} passed, ${sum('failed')} failed, ${sum('skipped')} skipped${todo ? `, ${todo} todo` : ''}`);
}

/** On PostgreSQL runs: a migrated template database for the run; returns its name and how to drop everything the run made. */
async function postgresTemplate(adminUrl: string): Promise<{ name: string; dropAll(): Promise<void> }> {
  const prefix = `allmende_t${randomBytes(3).toString('hex')}`;
  const name = `${prefix}_tpl`;
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  const database = openPostgres(withDatabase(adminUrl, name), { max: 1 });
  await database.migrate();
  await database.close();
  return {
    name,
    dropAll: () =>
      withClient(adminUrl, async (c) => {
        const { rows } = await c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}%`]);
        for (const { datname } of rows) await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      }),
  };
}

async function main(): Promise<number> {
  const { tiers, paths, saveTimings } = parseArgs(process.argv.slice(2));
  const files = (paths.length ? paths.flatMap((path) => testFilesIn(path)) : testFilesIn()).filter((file) => tiers.has(tierOf(file)));
  if (!files.length) {
    console.log('No test file matches.');
    return 1;
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', TEST_BUILD_DIR: BUILD_DIR };
  const concurrency = Number(process.env.TEST_CONCURRENCY) || Math.max(2, cpus().length);
  const started = Date.now();
  const buildMs = await buildSuite([...files, 'test/reporter.ts'], { withProduction: files.some((f) => tierOf(f) === 'process') });
  const template = adminUrl ? await postgresTemplate(adminUrl) : null;
  if (template) env.TEST_TEMPLATE_DB = template.name;
  console.log(`Running ${files.length} files (${[...tiers].join(', ')}) on ${template ? `PostgreSQL (template ${template.name})` : 'PGlite'}, ${concurrency} at once.`);
  try {
    const results = await runAll(files, env, concurrency);
    report(results, Date.now() - started, buildMs);
    const timingFile = process.env.TEST_TIMING_FILE;
    if (timingFile) for (const r of results) appendFileSync(timingFile, `${JSON.stringify({ file: r.file, tier: r.tier, ms: r.ms, database: template ? 'postgres' : 'pglite' })}\n`);
    if (saveTimings) {
      const timings = { ...knownTimings(), ...Object.fromEntries(results.map((r) => [r.file, r.ms])) };
      const sorted = Object.fromEntries(Object.entries(timings).filter(([file]) => existsSync(file)).sort(([a], [b]) => a.localeCompare(b)));
      writeFileSync(TIMINGS, `${JSON.stringify(sorted, null, 1)}\n`);
    }
    return results.some((r) => r.failed) ? 1 : 0;
  } finally {
    await template?.dropAll();
  }
}

if (/[\\/]test[\\/]run\.ts$/.test(process.argv[1] ?? '')) process.exitCode = await main();
