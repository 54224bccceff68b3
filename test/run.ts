/**
 * Runs the suite (docs/testing.md). `tsx test/run.ts [--tier unit,medium,…] [file or folder …]`.
 *
 * - Tiers come from the file name: `*.unit.test.ts` (pure, no database), `*.browser.test.ts`
 *   (Chromium), `*.process.test.ts` (child processes), `*.sweep.test.ts` (fuzz and robustness
 *   sweeps), every other `*.test.ts` is medium (the app in-process on a database).
 * - The files are bundled once (test/build.ts) and run in-process through test/grouping.ts. A
 *   unit or medium file shares its process with other files of its tier (groups of about
 *   TEST_GROUP_SECONDS, default 120 s), so a process's start is paid once per group; a browser,
 *   process or sweep file has a process of its own. At most TEST_CONCURRENCY (default: one more
 *   than the cores: a browser or process file waits for Chromium or its children much of its
 *   time) processes at once, the slowest expected first (test/timings.json; `--save-timings`
 *   writes it anew), so the run does not end waiting for one long process.
 * - With TEST_DATABASE_URL set, the database tiers run on PostgreSQL: a migrated template database
 *   is made for the run, each test process clones one database from it and resets it between
 *   tests (test/database.ts), and everything is dropped at the end.
 * - With TEST_ALSO_POSTGRES set (an admin URL, as TEST_DATABASE_URL; `.ci/run` sets it), every file
 *   runs on PGlite and the files of the tiers the database decides (medium, process) run on
 *   PostgreSQL as well, in the same pool of processes: the two runs fill each other's idle cores
 *   instead of one waiting for the other's last long file.
 * - `--checks` (what `npm test` passes) runs the type check and the lint in the same pool of
 *   processes, dealt by their expected time like the files (they fill the cores the last long
 *   files leave idle); a failed check fails the run.
 * - Each file's output is printed when its process ends; at the end the ten slowest files, the
 *   time and the CPU time per tier and one closing line
 *   `N passed, N failed, N skipped`. `TEST_TIMING_FILE=path` also
 *   appends one JSON line per file. A file that hangs fails after 20 minutes.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { withClient, withDatabase } from '../src/db/admin.js';
import { openPostgres } from '../src/db/client.js';
import { BUILD_DIR, buildSuite, builtFile } from './build.js';
import { preparePgliteTemplates } from './database.js';

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
/** Where a test process's database tiers run. */
type Where = 'pglite' | 'postgres';
/** The tiers whose outcome the database decides (queries, locks, races, migrations, the permission matrix): run on PostgreSQL too. */
const DATABASE_TIERS: ReadonlySet<Tier> = new Set(['medium', 'process']);

interface FileResult extends Counts {
  file: string;
  tier: Tier;
  database: Where;
  /** The file's time (its suite's; a group's start is not in it). */
  ms: number;
  /** The CPU time its process and the processes it started and ended (Chromium, a server) spent in it. */
  cpuMs: number;
  output: string;
}

const TIMINGS = 'test/timings.json';
const FILE_TIMEOUT_MS = 20 * 60_000;

function parseArgs(argv: string[]): { tiers: Set<Tier>; paths: string[]; saveTimings: boolean; checks: boolean } {
  const tiers = new Set<Tier>();
  const paths: string[] = [];
  let saveTimings = false;
  let checks = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--save-timings' || arg === '--checks') {
      if (arg === '--checks') checks = true;
      else saveTimings = true;
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
  return { tiers: tiers.size ? tiers : new Set(TIERS), paths, saveTimings, checks };
}

const knownTimings = (): Record<string, number> => (existsSync(TIMINGS) ? JSON.parse(readFileSync(TIMINGS, 'utf8')) : {});
/** A file's key in test/timings.json: its path, with `postgres:` before it for its time on PostgreSQL. */
const timingKey = (file: string, database: Where) => (database === 'postgres' ? `postgres:${file}` : file);

/** What one test process runs: one file, or a group of files of a tier whose files share a process. */
interface Job {
  tier: Tier;
  database: Where;
  files: string[];
}

/**
 * The static checks `npm test` runs with the tests (`--checks`): jobs of the same pool, dealt by
 * their expected time like test files, so they fill the cores the run's last long files leave idle
 * instead of delaying its start.
 */
const CHECKS = [
  { name: 'type check (npm run typecheck)', command: ['npx', 'tsc', '--noEmit'], expected: 35_000 },
  { name: 'lint (npm run lint)', command: ['npx', 'eslint', '.'], expected: 20_000 },
];
interface CheckResult {
  name: string;
  ms: number;
  ok: boolean;
  output: string;
}

function runCheck(check: (typeof CHECKS)[number]): Promise<CheckResult> {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(check.command[0], check.command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (exitCode) => {
      const result = { name: check.name, ms: Date.now() - started, ok: exitCode === 0, output: output.trimEnd() };
      console.log(`\n${result.ok ? '✔' : '✖'} ${check.name} (${(result.ms / 1000).toFixed(1)} s)${output ? `\n${result.output}` : ''}`);
      done(result);
    });
  });
}
interface JobResult {
  tier: Tier;
  database: Where;
  ms: number;
  files: FileResult[];
}

/** Tiers whose files run several to a process (test/grouping.ts); a browser, process or sweep file has a process of its own. */
const GROUPED: ReadonlySet<Tier> = new Set(['unit', 'medium']);
/** About how long a group runs: long enough to pay a process's start once for many files, short enough to share out. */
const GROUP_MS = Number(process.env.TEST_GROUP_SECONDS ?? 120) * 1000;

/**
 * The jobs, the slowest expected first. A grouped tier's files are dealt, the slowest first, to
 * the group expected to end first, with as many groups as its expected time needs.
 */
function plan(files: string[], database: Where): (Job & { expected: number })[] {
  const known = knownTimings();
  const expected = (file: string) => known[timingKey(file, database)] ?? known[file] ?? 30_000;
  const jobs: (Job & { expected: number })[] = [];
  for (const tier of TIERS) {
    const inTier = files.filter((f) => tierOf(f) === tier).sort((a, b) => expected(b) - expected(a));
    const alone = inTier.filter((file) => !GROUPED.has(tier) || ownProcess(file));
    jobs.push(...alone.map((file) => ({ tier, database, files: [file], expected: expected(file) })));
    const grouped = inTier.filter((file) => !alone.includes(file));
    if (!grouped.length) continue;
    const total = grouped.reduce((n, f) => n + expected(f), 0);
    const groups = Array.from({ length: Math.min(grouped.length, Math.ceil(total / GROUP_MS)) }, () => ({ tier, database, files: [] as string[], expected: 0 }));
    for (const file of grouped) {
      const least = groups.reduce((a, b) => (b.expected < a.expected ? b : a));
      least.files.push(file);
      least.expected += expected(file);
    }
    jobs.push(...groups);
  }
  return jobs.sort((a, b) => b.expected - a.expected);
}

/** A file whose subject is what a process does once (a first compile, a first read) says so in a line `// test: own process`. */
const ownProcess = (file: string) => /^\/\/ test: own process\b/m.test(readFileSync(file, 'utf8'));

const NO_COUNTS: Counts = { passed: 0, failed: 0, skipped: 0, todo: 0 };

/** The entry of a group: test/grouping.ts imports its files and runs each in a suite of its own. */
function groupEntry(files: string[]): string {
  const entry = join(BUILD_DIR, 'groups', `${randomBytes(4).toString('hex')}.js`);
  mkdirSync(dirname(entry), { recursive: true });
  const loads = files.map((file) => `  [${JSON.stringify(file)}, () => import(${JSON.stringify(`./${relative(dirname(entry), builtFile(file))}`)})],`);
  writeFileSync(entry, `import { runGroup } from '../test/grouping.js';\nawait runGroup([\n${loads.join('\n')}\n]);\n`);
  return entry;
}

/**
 * Runs a job in one process through its group entry, with test/reporter.ts: each file's output,
 * time and counts come from the reporter's lines (`# file {…}` ends a file).
 */
function runJob(job: Job, env: NodeJS.ProcessEnv): Promise<JobResult> {
  const started = Date.now();
  const reporter = join(BUILD_DIR, 'test', 'reporter.js');
  const extra = (process.env.TEST_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const args = [...extra, '--enable-source-maps', `--test-timeout=${FILE_TIMEOUT_MS}`, `--test-reporter=./${reporter}`, groupEntry(job.files)];
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), FILE_TIMEOUT_MS * job.files.length + 60_000);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      const files = groupResults(job, output, exitCode);
      const on = job.database === 'postgres' ? ' on PostgreSQL' : '';
      for (const r of files) console.log(`\n▶ ${r.file}${on} (${(r.ms / 1000).toFixed(1)} s)${r.failed ? ' FAILED' : ''}\n${r.output}`);
      done({ tier: job.tier, database: job.database, ms: Date.now() - started, files });
    });
  });
}

/** A group's output cut at its files' ends; a file that never ended (the process died) failed, with what was left. */
function groupResults(job: Job, output: string, exitCode: number | null): FileResult[] {
  const results: FileResult[] = [];
  let rest = output;
  for (const [marker, json] of output.matchAll(/^# file (\{.*\})$/gm)) {
    const { file, ms, cpuMs, ...counts } = JSON.parse(json) as Counts & { file: string; ms: number; cpuMs: number };
    const at = rest.indexOf(marker);
    results.push({ file, tier: job.tier, database: job.database, ms, cpuMs, ...counts, output: rest.slice(0, at).trimEnd() });
    rest = rest.slice(at + marker.length + 1);
  }
  const leftOver = rest.trimEnd();
  const ended = new Set(results.map((r) => r.file));
  for (const file of job.files.filter((f) => !ended.has(f))) {
    results.push({ file, tier: job.tier, database: job.database, ms: 0, cpuMs: 0, ...NO_COUNTS, failed: 1, output: `${leftOver}\n(the process ended before this file did, exit code ${exitCode})` });
  }
  const last = results.at(-1);
  if (last && exitCode !== 0 && !results.some((r) => r.failed)) last.failed = 1; // a crash after the last test
  if (last && leftOver && ended.size === job.files.length) last.output += `\n${leftOver}`;
  return results;
}

/** Each database's jobs and the environment of their processes. */
type Runs = { database: Where; files: string[]; env: NodeJS.ProcessEnv }[];

async function runAll(runs: Runs, concurrency: number, checks: typeof CHECKS): Promise<{ jobs: JobResult[]; checks: CheckResult[] }> {
  type Queued = { job: Job; env: NodeJS.ProcessEnv; expected: number } | { check: (typeof CHECKS)[number]; expected: number };
  const queue: Queued[] = [
    ...runs.flatMap(({ database, files, env }) => plan(files, database).map((job) => ({ job, env, expected: job.expected }))),
    ...checks.map((check) => ({ check, expected: check.expected })),
  ].sort((a, b) => b.expected - a.expected);
  const jobs: JobResult[] = [];
  const checked: CheckResult[] = [];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      if ('job' in next) jobs.push(await runJob(next.job, next.env));
      else checked.push(await runCheck(next.check));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
  return { jobs, checks: checked };
}

function report(jobs: JobResult[], checks: CheckResult[], wallMs: number, buildMs: number): void {
  const results = jobs.flatMap((j) => j.files);
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  if (checks.length) console.log(`\nChecks: ${checks.map((c) => `${c.name} ${c.ok ? 'passed' : 'FAILED'} (${seconds(c.ms)})`).join(', ')}.`);
  const both = new Set(results.map((r) => r.database)).size > 1;
  const named = (r: { database: Where }) => (both && r.database === 'postgres' ? ' (PostgreSQL)' : '');
  console.log('\nThe ten slowest files:');
  for (const r of [...results].sort((a, b) => b.ms - a.ms).slice(0, 10)) console.log(`  ${seconds(r.ms).padStart(8)}  ${r.file}${named(r)}`);
  console.log('Per tier (files, tests, processes, time in the processes, CPU time in the files):');
  for (const database of ['pglite', 'postgres'] as const) {
    for (const tier of TIERS) {
      const inTier = results.filter((r) => r.tier === tier && r.database === database);
      if (!inTier.length) continue;
      const tests = inTier.reduce((n, r) => n + r.passed + r.failed + r.skipped + r.todo, 0);
      const processes = jobs.filter((j) => j.tier === tier && j.database === database);
      const ms = processes.reduce((n, j) => n + j.ms, 0);
      const cpu = inTier.reduce((n, r) => n + r.cpuMs, 0);
      const name = `${tier}${named({ database })}`;
      console.log(`  ${name.padEnd(21)} ${String(inTier.length).padStart(4)} files ${String(tests).padStart(5)} tests ${String(processes.length).padStart(4)} processes ${seconds(ms).padStart(9)} ${seconds(cpu).padStart(9)} CPU`);
    }
  }
  console.log(`Build ${seconds(buildMs)}, wall ${seconds(wallMs)}.`);
  const failedFiles = results.filter((r) => r.failed);
  if (failedFiles.length) console.log(`Failed files:\n${failedFiles.map((r) => `  ${r.file}${named(r)}`).join('\n')}`);
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
  const { tiers, paths, saveTimings, checks } = parseArgs(process.argv.slice(2));
  const files = (paths.length ? paths.flatMap((path) => testFilesIn(path)) : testFilesIn()).filter((file) => tiers.has(tierOf(file)));
  if (!files.length) {
    console.log('No test file matches.');
    return 1;
  }
  const onlyPostgres = process.env.TEST_DATABASE_URL;
  const alsoPostgres = onlyPostgres ? undefined : process.env.TEST_ALSO_POSTGRES;
  const postgresFiles = onlyPostgres ? files : alsoPostgres ? files.filter((file) => DATABASE_TIERS.has(tierOf(file))) : [];
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', TEST_BUILD_DIR: BUILD_DIR };
  delete env.TEST_ALSO_POSTGRES;
  // One more process than cores: a browser or process file waits on Chromium or on its children for
  // more than half its time, and a third process fills that (on 2 cores: 846 s against 1,276 s).
  const concurrency = Number(process.env.TEST_CONCURRENCY) || cpus().length + 1;
  const started = Date.now();
  const buildMs = await buildSuite([...files, 'test/reporter.ts', 'test/grouping.ts'], { withProduction: files.some((f) => tierOf(f) === 'process') });
  const adminUrl = onlyPostgres ?? alsoPostgres;
  const template = adminUrl && postgresFiles.length ? await postgresTemplate(adminUrl) : null;
  const runs: Runs = [];
  if (!onlyPostgres) {
    // The migrated embedded database the test processes start from, made here once (not by each of the first processes at once).
    await preparePgliteTemplates({ dataDir: files.some((f) => tierOf(f) === 'process') });
    runs.push({ database: 'pglite', files, env });
  }
  // TEST_POSTGRES_SERVER_NODE: the process tier's servers of the PostgreSQL run on another Node.js (CI: the next LTS line, as in production).
  const serverNode = process.env.TEST_POSTGRES_SERVER_NODE ? { TEST_SERVER_NODE: process.env.TEST_POSTGRES_SERVER_NODE } : {};
  if (template && adminUrl) runs.push({ database: 'postgres', files: postgresFiles, env: { ...env, TEST_DATABASE_URL: adminUrl, TEST_TEMPLATE_DB: template.name, ...serverNode } });
  const where = runs.map((r) => (r.database === 'pglite' ? `${r.files.length} on PGlite` : `${r.files.length} on PostgreSQL (template ${template?.name})`)).join(', ');
  console.log(`Running ${where} (${[...tiers].join(', ')})${checks ? ' and the checks' : ''}, ${concurrency} at once.`);
  try {
    const { jobs, checks: checked } = await runAll(runs, concurrency, checks ? CHECKS : []);
    report(jobs, checked, Date.now() - started, buildMs);
    const results = jobs.flatMap((j) => j.files);
    const timingFile = process.env.TEST_TIMING_FILE;
    if (timingFile) for (const r of results) appendFileSync(timingFile, `${JSON.stringify({ file: r.file, tier: r.tier, ms: r.ms, cpuMs: r.cpuMs, database: r.database })}\n`);
    if (saveTimings) {
      const timings = { ...knownTimings(), ...Object.fromEntries(results.map((r) => [timingKey(r.file, r.database), r.ms])) };
      const sorted = Object.fromEntries(Object.entries(timings).filter(([key]) => existsSync(key.replace(/^postgres:/, ''))).sort(([a], [b]) => a.localeCompare(b)));
      writeFileSync(TIMINGS, `${JSON.stringify(sorted, null, 1)}\n`);
    }
    return results.some((r) => r.failed) || checked.some((c) => !c.ok) ? 1 : 0;
  } finally {
    await template?.dropAll();
    rmSync(BUILD_DIR, { recursive: true, force: true });
  }
}

if (/[\\/]test[\\/]run\.ts$/.test(process.argv[1] ?? '')) process.exitCode = await main();
