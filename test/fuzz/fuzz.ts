/**
 * `npm run test:fuzz`: the standing attack suite's long run (not part of `npm test`).
 *
 *   FUZZ_SEED      the seed (default: a fresh one, printed; give it again to repeat a run)
 *   FUZZ_REQUESTS  how many requests (default 100000)
 *   FUZZ_SECONDS   time bound in seconds (default 1500)
 *   FUZZ_BATCH     rejected requests per database fingerprint (default 200; 1 pins a change to its request)
 *   FUZZ_WORKERS   processes, each with its own database and seed (seed, seed+1, …), sharing the requests (default 1)
 *   TEST_DATABASE_URL  run on PostgreSQL (a scratch database is created and dropped) instead of PGlite
 *
 * Exits 1 when any request answered 5xx, a 4xx under /api/ had no JSON error body, or a rejected
 * request changed the database or left a file.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { withClient, withDatabase } from '../../src/db/admin.js';
import { type Database, openMemoryPglite, openPostgres } from '../../src/db/client.js';
import { type FuzzReport, runFuzz, summary } from './engine.js';
import { freshSeed } from './random.js';

function numberVar(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return value;
}

async function openScratchDatabase(): Promise<{ database: Database; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const database = await openMemoryPglite();
    await database.migrate();
    return { database, drop: async () => undefined };
  }
  const name = `allmende_fuzz_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const database = openPostgres(withDatabase(adminUrl, name), { max: 5 });
  await database.migrate();
  return { database, drop: () => withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined) };
}

const REPORT_PREFIX = 'FUZZ_REPORT ';

/** One worker: its own database, its share of the requests; its report goes to the parent as one JSON line. */
async function runOne(seed: number, requests: number, seconds: number, batchSize: number, asWorker: boolean): Promise<FuzzReport> {
  const { database, drop } = await openScratchDatabase();
  const prefix = asWorker ? `[${seed}] ` : '';
  if (!asWorker) {
    console.log(`fuzz: seed ${seed} on ${database.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}, up to ${requests} requests or ${seconds} s (repeat: FUZZ_SEED=${seed} npm run test:fuzz)`);
  }
  try {
    return await runFuzz({ database, seed, requests, seconds, batchSize, log: (line) => console.log(prefix + line) });
  } finally {
    await database.close();
    await drop();
  }
}

/** Starts `workers` copies of this script with seeds seed…seed+workers-1 and adds up their reports. */
async function runWorkers(seed: number, workers: number, requests: number): Promise<FuzzReport[]> {
  console.log(`fuzz: ${workers} workers, seeds ${seed}…${seed + workers - 1}, ${requests} requests in all (repeat one: FUZZ_SEED=<seed> FUZZ_WORKERS=1 npm run test:fuzz)`);
  const share = Math.ceil(requests / workers);
  return Promise.all(
    Array.from({ length: workers }, (_, i) => {
      const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
        env: { ...process.env, FUZZ_SEED: String(seed + i), FUZZ_REQUESTS: String(share), FUZZ_WORKERS: '1', FUZZ_AS_WORKER: '1' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let report: FuzzReport | null = null;
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (line.startsWith(REPORT_PREFIX)) report = JSON.parse(line.slice(REPORT_PREFIX.length)) as FuzzReport;
        else console.log(line);
      });
      return new Promise<FuzzReport>((resolve, reject) =>
        child.on('exit', (code) => (report ? resolve(report) : reject(new Error(`fuzz worker ${seed + i} exited with ${code} and no report`)))),
      );
    }),
  );
}

/** The workers' reports as one. */
function combine(reports: FuzzReport[]): FuzzReport {
  const [first] = reports;
  const sum = (pick: (r: FuzzReport) => number) => reports.reduce((n, r) => n + pick(r), 0);
  const statuses: Record<string, number> = {};
  for (const report of reports) for (const [status, n] of Object.entries(report.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
  return {
    ...first,
    requests: sum((r) => r.requests),
    serverErrors: sum((r) => r.serverErrors),
    failures: reports.flatMap((r) => r.failures),
    statuses,
    verifiedUnchanged: sum((r) => r.verifiedUnchanged),
    unverified: sum((r) => r.unverified),
    unsendable: sum((r) => r.unsendable),
    epochs: sum((r) => r.epochs),
    neverAccepted: first.neverAccepted.filter((op) => reports.every((r) => r.neverAccepted.includes(op))),
    slowest: reports.flatMap((r) => r.slowest).sort((a, b) => b.ms - a.ms).slice(0, 5),
    elapsedSeconds: Math.max(...reports.map((r) => r.elapsedSeconds)),
  };
}

async function main(): Promise<number> {
  const seed = numberVar('FUZZ_SEED', freshSeed());
  const requests = numberVar('FUZZ_REQUESTS', 100_000);
  const seconds = numberVar('FUZZ_SECONDS', 1500);
  const batchSize = numberVar('FUZZ_BATCH', 200);
  const workers = Math.max(1, numberVar('FUZZ_WORKERS', 1));
  if (process.env.FUZZ_AS_WORKER === '1') {
    console.log(REPORT_PREFIX + JSON.stringify(await runOne(seed, requests, seconds, batchSize, true)));
    return 0;
  }
  const report = workers === 1 ? await runOne(seed, requests, seconds, batchSize, false) : combine(await runWorkers(seed, workers, requests));
  for (const line of summary(report)) console.log(line);
  if (workers > 1) console.log(`fuzz: seeds ${seed}…${seed + workers - 1} (${workers} workers)`);
  return report.failures.length === 0 ? 0 : 1;
}

process.exitCode = await main();
