/**
 * The live channel under load (issue 26), on loopback only, never in the test suite:
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/live.ts [clients] [likes/s] [seconds]
 * Creates a scratch database (dropped afterwards) with one running Interactive Event and one question
 * per like to come, starts Allmende with WEB_CONCURRENCY=2 (BENCH_WORKERS) and CONNECTIONS_PER_IP=0
 * (every client comes from 127.0.0.1), opens `clients` event streams (default 1000), then sends
 * `likes/s` likes (default 50) for `seconds` (default 20), each on its own question, so every `likes`
 * event names the like it answers. Prints the delay from sending a like to each client's receiving its
 * event (p50, p99, max over every client × like), how many arrived, and the workers' resident memory
 * before and after the streams opened (per open connection).
 * The streams are held by BENCH_RECEIVERS (default 2) processes of their own, so that reading
 * 50,000 events a second does not hold up the process that sends the likes and times their answers;
 * times are taken from the machine's clock (`performance.timeOrigin + performance.now()`) in each.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import '../src/module-types.js';
import { ask, openStreams, startReceivers } from './receivers.js';
import { loadFixture } from '../src/cli/loaddata.js';
import { withClient, withDatabase } from '../src/db/admin.js';
import { openPostgres } from '../src/db/client.js';

const clients = Number(process.argv[2] ?? 1000);
const likesPerSecond = Number(process.argv[3] ?? 50);
const seconds = Number(process.argv[4] ?? 20);
const workers = Number(process.env.BENCH_WORKERS ?? 2);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const likes = likesPerSecond * seconds;
const MODULE = 1;

const day = 24 * 3600 * 1000;
const iso = (offset: number) => new Date(Date.now() + offset).toISOString();

async function scratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `allmende_live_bench_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = withDatabase(adminUrl, name);
  const database = openPostgres(url, { max: 2 });
  await database.migrate();
  await loadFixture(
    database.db,
    {
      organisations: [{ id: 1, slug: 'org', name: 'Organisation' }],
      projects: [{ id: 1, slug: 'project', name: 'Project', organisation: 1 }],
      modules: [{ id: MODULE, slug: 'town-hall', project: 1, name: 'Town hall', blueprint_type: 'IE', phases: [{ type: 'a4_candy_interactive_events:issue', start_date: iso(-day), end_date: iso(day) }] }],
      affiliations: [{ id: 1, module: MODULE, name: 'Residents' }],
      live_questions: Array.from({ length: likes }, (_, i) => ({ id: i + 1, module: MODULE, text: `Question ${i + 1}`, affiliation: 1 })),
    },
    { baseDir: process.cwd() },
  );
  await database.close();
  return { url, drop: () => withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined) };
}

function startServer(url: string): Promise<{ child: ChildProcess; base: string; workerPids: number[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, DATABASE_URL: url, WEB_CONCURRENCY: String(workers), PORT: '0', HOST: '127.0.0.1', SEED_DEMO: 'false', LOG_LEVEL: 'warn', CONNECTIONS_PER_IP: '0', DATA_DIR: mkdtempSync(join(tmpdir(), 'allmende-live-bench-')) },
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/[^/\s]+)\//.exec(output);
      if (match) resolve({ child, base: match[1], workerPids: [...output.matchAll(/worker (\d+) is listening/g)].map((m) => Number(m[1])) });
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
  });
}

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

const now = () => performance.timeOrigin + performance.now();
const likeTimes: number[] = [];
/** Delays in whole milliseconds, counted per millisecond (merged from the receivers). */
const HISTOGRAM_MS = 120_000;

/**
 * A receiver process: opens its streams, tells the parent, and records when each like's event
 * arrived on each stream; told the send times at the end, it answers with a histogram of the delays.
 */
async function receive(port: number, count: number): Promise<void> {
  const arrived: number[][] = Array.from({ length: likes + 1 }, () => []);
  let received = 0;
  await openStreams(port, `/api/modules/${MODULE}/interactiveevents/live/`, count, (events, at) => {
    for (const match of events.matchAll(/event: likes\ndata: \{"id":(\d+)/g)) {
      arrived[Number(match[1])]?.push(at);
      received++;
    }
  });
  process.send?.({ open: count });
  process.on('message', (message: { sentAt?: number[] }) => {
    if (!message.sentAt) return;
    const histogram = new Array<number>(HISTOGRAM_MS + 1).fill(0);
    message.sentAt.forEach((sent, id) => {
      for (const at of arrived[id] ?? []) histogram[Math.min(HISTOGRAM_MS, Math.max(0, Math.round(at - sent)))]++;
    });
    process.send?.({ received, histogram }, () => process.exit(0));
  });
  process.on('message', (message: { count?: boolean }) => {
    if (message.count) process.send?.({ received });
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

const receivers = Number(process.env.BENCH_RECEIVERS ?? 2);


async function main() {
  const scratch = await scratchDatabase();
  const server = await startServer(scratch.url);
  const port = Number(new URL(server.base).port);
  let children: ChildProcess[] = [];
  try {
    const before = server.workerPids.map(rssKb).reduce((a, b) => a + b, 0);
    children = await startReceivers(fileURLToPath(import.meta.url), port, clients, receivers);
    await new Promise((resolve) => setTimeout(resolve, 2000)); // let the workers settle before measuring memory
    const after = server.workerPids.map(rssKb).reduce((a, b) => a + b, 0);
    console.log(`${clients} streams open on ${workers} workers (held by ${receivers} receiver processes): resident memory ${(before / 1024).toFixed(1)} MB → ${(after / 1024).toFixed(1)} MB, ${((after - before) / clients).toFixed(1)} KB per connection`);

    const sentAt = new Array<number>(likes + 1).fill(0);
    const likeAgent = new Agent({ keepAlive: true, maxSockets: 20 });
    // Likes count for the session of a page view (issue 36.3): one visitor's session likes every question.
    const pairs = (await fetch(`http://127.0.0.1:${port}/org/interactiveevents/town-hall/`)).headers.getSetCookie().map((c) => c.split(';')[0]);
    const likeHeaders = { 'content-type': 'application/json', cookie: pairs.join('; '), 'x-csrftoken': pairs.find((p) => p.startsWith('csrftoken='))?.split('=')[1] ?? '' };
    const sendLike = (id: number) =>
      new Promise<void>((resolve) => {
        sentAt[id] = now();
        const req = request({ host: '127.0.0.1', port, method: 'POST', path: `/api/livequestions/${id}/likes/`, agent: likeAgent, headers: likeHeaders }, (res) => {
          res.resume();
          res.on('end', () => {
            likeTimes.push(now() - sentAt[id]);
            resolve();
          });
        });
        req.on('error', () => resolve());
        req.end('{"value":true}');
      });
    const started = performance.now();
    const pending: Promise<void>[] = [];
    for (let i = 1; i <= likes; i++) {
      const due = started + ((i - 1) * 1000) / likesPerSecond;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      pending.push(sendLike(i));
    }
    await Promise.all(pending);
    const expected = clients * likes;
    const deadline = performance.now() + 10_000;
    const countReceived = async () => (await Promise.all(children.map((child) => ask<{ received: number }>(child, { count: true }, 'received')))).reduce((a, b) => a + b.received, 0);
    while ((await countReceived()) < expected && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    const answers = await Promise.all(children.map((child) => ask<{ received: number; histogram: number[] }>(child, { sentAt }, 'histogram')));
    const received = answers.reduce((a, b) => a + b.received, 0);
    const histogram = answers.reduce((sum, answer) => sum.map((n, ms) => n + (answer.histogram[ms] ?? 0)), new Array<number>(HISTOGRAM_MS + 1).fill(0));
    const total = histogram.reduce((a, b) => a + b, 0);
    const at = (p: number) => {
      let seen = 0;
      for (let ms = 0; ms < histogram.length; ms++) if ((seen += histogram[ms]) >= (p / 100) * total) return ms;
      return NaN;
    };
    const max = histogram.findLastIndex((n) => n > 0);
    console.log(`${likes} likes at ${likesPerSecond}/s over ${seconds} s: ${received} of ${expected} updates arrived; like → every client's update: p50 ${at(50)} ms, p99 ${at(99)} ms, max ${max} ms`);
    const answered = likeTimes.sort((a, b) => a - b);
    console.log(`the like requests themselves: p50 ${percentile(answered, 50).toFixed(0)} ms, p99 ${percentile(answered, 99).toFixed(0)} ms`);
    likeAgent.destroy();
  } finally {
    for (const child of children) child.kill();
    const gone = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await gone;
    await scratch.drop();
  }
}

if (process.argv[2] === '--receive') await receive(Number(process.argv[3]), Number(process.argv[4]));
else await main();
