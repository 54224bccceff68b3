/**
 * The attack suite's engine: drives every operation of the OpenAPI document and the page routes of
 * the dashboard, the back-office and invitations (pages.ts) with generated valid and hostile
 * requests as anonymous, a plain user, a moderator, an initiator and a superuser, and checks after every request
 * that nothing answered 5xx and every 4xx under /api/ has a JSON error body, and after every
 * batch of rejected requests that the database and the media directory are unchanged.
 */
import sharp from 'sharp';
import type { Database } from '../../src/db/client.js';
import { generateRequest, type FuzzRequest, type Images, isSafeMethod, type OpenApiDocument, type Operation, operationsOf } from './inputs.js';
import { PAGE_OPERATIONS } from './pages.js';
import { Random } from './random.js';
import { type Epoch, startEchoUpstream, startEpoch } from './world.js';

export interface FuzzOptions {
  database: Database;
  seed: number;
  /** Stop after this many requests … */
  requests: number;
  /** … or after this many seconds, whichever comes first. */
  seconds: number;
  /** Requests per epoch (a fresh world each epoch). */
  epochSize?: number;
  /** Rejected requests between two database fingerprints (1 pins a change to one request). */
  batchSize?: number;
  /** Share of hostile requests (the rest is valid). */
  hostileShare?: number;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

export interface Failure {
  rule: 'no 5xx' | 'JSON error body' | 'database unchanged' | 'no files left' | 'answers';
  epoch: number;
  index: number;
  detail: string;
  requests: string[];
  /** A finding of issue 11 that another change is fixing; reported, named, and left to that change. */
  knownOpen?: string;
}

/**
 * Findings of issue 11 that are being fixed elsewhere at the time of writing. A failure that
 * matches one is still reported (and fails the long run), but the short run in `npm test` does
 * not fail on it. Remove an entry as soon as its fix is on main: then the suite guards it.
 */
const KNOWN_OPEN: { finding: string; matches(failure: Failure): boolean }[] = [];

export interface FuzzReport {
  seed: number;
  requests: number;
  serverErrors: number;
  failures: Failure[];
  statuses: Record<string, number>;
  /** Rejected or read-only requests whose batch was fingerprinted before and after. */
  verifiedUnchanged: number;
  /** Rejected requests whose batch was cut short by an accepted hostile write (not fingerprinted). */
  unverified: number;
  /** Requests the test client could not send (not the server's fault). */
  unsendable: number;
  epochs: number;
  operations: number;
  /** Operations that never answered 2xx in this run (valid requests did not reach them). */
  neverAccepted: string[];
  slowest: { ms: number; request: string }[];
  elapsedSeconds: number;
}

const ANSWER_TIMEOUT_MS = 30_000;

/** A short, reproducible description of a request. */
export function describe(request: FuzzRequest): string {
  const payload = request.payload === undefined ? '' : Buffer.isBuffer(request.payload) ? `<${request.payload.length} bytes>` : request.payload;
  const shown = payload.length > 160 ? `${payload.slice(0, 160)}…(${payload.length})` : payload;
  const url = request.url.length > 200 ? `${request.url.slice(0, 200)}…(${request.url.length})` : request.url;
  return `[${request.caller} ${request.mode}:${request.kind}] ${request.method} ${url} ${JSON.stringify(request.headers).slice(0, 200)} ${JSON.stringify(shown)}`;
}

/** A JSON error body as the API promises it: {"detail": "…"} or field errors {"field": ["…"]}. */
export function isApiErrorBody(contentType: string, body: string): boolean {
  if (!contentType.includes('application/json')) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
  const entries = Object.entries(parsed);
  if (typeof (parsed as { detail?: unknown }).detail === 'string') return true;
  return entries.length > 0 && entries.every(([, value]) => Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'object'));
}

async function testImages(): Promise<Images> {
  const png = await sharp({ create: { width: 600, height: 400, channels: 3, background: { r: 30, g: 120, b: 60 } } }).png().toBuffer();
  return { png, truncated: png.subarray(0, Math.floor(png.length / 2)) };
}

function differences(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after.keys()].filter((table) => before.get(table) !== after.get(table));
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const { database, seed } = options;
  const epochSize = options.epochSize ?? 5000;
  const batchSize = options.batchSize ?? 200;
  const log = options.log ?? (() => undefined);
  const rng = new Random(seed);
  const images = await testImages();
  const upstream = await startEchoUpstream();
  const started = Date.now();
  const deadline = started + options.seconds * 1000;
  const report: FuzzReport = {
    seed,
    requests: 0,
    serverErrors: 0,
    failures: [],
    statuses: {},
    verifiedUnchanged: 0,
    unverified: 0,
    unsendable: 0,
    epochs: 0,
    operations: 0,
    neverAccepted: [],
    slowest: [],
    elapsedSeconds: 0,
  };
  const accepted = new Set<string>();
  let epoch: Epoch | null = null;
  let operations: Operation[] = [];
  let baseline = new Map<string, string>();
  let baselineMedia = '';
  let pending: string[] = [];
  const fail = (rule: Failure['rule'], index: number, detail: string, requests: string[]) => {
    const failure: Failure = { rule, epoch: report.epochs, index, detail, requests: requests.slice(-5) };
    failure.knownOpen = KNOWN_OPEN.find((known) => known.matches(failure))?.finding;
    report.failures.push(failure);
    const label = failure.knownOpen ? `KNOWN OPEN (${failure.knownOpen})` : 'FAIL';
    log(`${label} ${rule} #${index} (epoch ${report.epochs}): ${detail}\n  ${requests.slice(-5).join('\n  ')}`);
  };
  const rebaseline = async (current: Epoch) => {
    baseline = await current.checksum();
    baselineMedia = current.mediaFiles().join('\n');
    pending = [];
  };
  /** Compares the fingerprint with the baseline: the pending (rejected or read-only) requests changed nothing. */
  const verify = async (current: Epoch, index: number) => {
    if (pending.length === 0) return;
    const now = await current.checksum();
    const changed = differences(baseline, now);
    if (changed.length) fail('database unchanged', index, `tables changed by ${pending.length} rejected/read-only requests: ${changed.join(', ')}`, pending);
    const media = current.mediaFiles().join('\n');
    if (media !== baselineMedia) fail('no files left', index, `media files changed: ${media.split('\n').filter((f) => !baselineMedia.includes(f)).join(', ')}`, pending);
    report.verifiedUnchanged += pending.length;
    baseline = now;
    baselineMedia = media;
    pending = [];
  };

  try {
    for (let index = 0; index < options.requests && Date.now() < deadline; index++) {
      if (!epoch || index % epochSize === 0) {
        if (epoch) {
          await verify(epoch, index);
          await epoch.close();
        }
        epoch = await startEpoch(database, upstream.url);
        report.epochs++;
        if (operations.length === 0) {
          operations = [...operationsOf(JSON.parse((await epoch.app.inject({ method: 'GET', url: '/api/schema/' })).body) as OpenApiDocument), ...PAGE_OPERATIONS];
          report.operations = operations.length;
        }
        await rebaseline(epoch);
      }
      const operation = rng.pick(operations);
      let request: FuzzRequest;
      try {
        request = generateRequest(rng, operation, rng.pick(epoch.callers), epoch.known, images, options.hostileShare);
      } catch (error) {
        // A generator that cannot build its request is the suite's bug, not the server's: count it, go on.
        report.unsendable++;
        log(`could not generate #${index} for ${operation.method} ${operation.path}: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      const line = `#${index} ${describe(request)}`;
      const mayWrite = !isSafeMethod(request.method) && request.mode === 'valid';
      if (mayWrite) await verify(epoch, index);

      const t0 = performance.now();
      let response: { statusCode: number; headers: Record<string, unknown>; body: string } | null = null;
      let timer: NodeJS.Timeout | undefined;
      try {
        response = await Promise.race([
          epoch.app.inject({ method: request.method as 'GET', url: request.url, headers: request.headers, payload: request.payload }),
          new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ANSWER_TIMEOUT_MS))),
        ]);
        if (response === null) fail('answers', index, `no answer within ${ANSWER_TIMEOUT_MS} ms`, [line]);
      } catch (error) {
        report.unsendable++;
        if (report.unsendable <= 3) log(`could not send ${line}: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        clearTimeout(timer);
      }
      report.requests++;
      const ms = performance.now() - t0;
      if (report.slowest.length < 5 || ms > report.slowest[report.slowest.length - 1].ms) {
        report.slowest = [...report.slowest, { ms: Math.round(ms), request: line.slice(0, 300) }].sort((a, b) => b.ms - a.ms).slice(0, 5);
      }
      if (!response) continue;

      const status = response.statusCode;
      const statusClass = `${Math.floor(status / 100)}xx`;
      report.statuses[statusClass] = (report.statuses[statusClass] ?? 0) + 1;
      if (status >= 500) {
        report.serverErrors++;
        fail('no 5xx', index, `${status} ${response.body.slice(0, 200)}`, [line]);
      } else if (status >= 400 && request.url.startsWith('/api/') && request.method !== 'HEAD') {
        if (!isApiErrorBody(String(response.headers['content-type'] ?? ''), response.body)) {
          fail('JSON error body', index, `${status} ${String(response.headers['content-type'])} ${response.body.slice(0, 200)}`, [line]);
        }
      }


      // A page form that sends its caller to log in was refused, not accepted.
      const toLogin = String(response.headers.location ?? '').startsWith('/accounts/login/');
      // A page form answers an accepted write with a redirect (POST-redirect-GET).
      if ((status >= 200 && status < 300) || (operation.page && status >= 300 && status < 400 && !toLogin)) accepted.add(`${operation.method} ${operation.path}`);
      if (!isSafeMethod(request.method) && status < 400 && !toLogin) {
        // An accepted write: the world changed on purpose. A hostile one was not expected to
        // be accepted, and the rejected requests before it go unfingerprinted.
        if (request.mode === 'hostile') report.unverified += pending.length;
        await rebaseline(epoch);
        epoch.known.ideaIds.push(...createdId(operation, 'ideas', response.body));
        epoch.known.commentIds.push(...createdId(operation, 'comments', response.body));
      } else {
        pending.push(line);
        if (pending.length >= batchSize) await verify(epoch, index);
      }
      if (index % 10_000 === 0 && index > 0) log(`${index} requests, ${report.serverErrors} 5xx, ${report.failures.length} failures, ${Math.round((Date.now() - started) / 1000)} s`);
    }
    if (epoch) await verify(epoch, report.requests);
  } finally {
    await epoch?.close();
    await upstream.close();
  }
  report.neverAccepted = operations.map((op) => `${op.method} ${op.path}`).filter((op) => !accepted.has(op));
  report.elapsedSeconds = Math.round((Date.now() - started) / 100) / 10;
  return report;
}

/** The id of an object a valid POST created, so later requests can reach it (kept few). */
function createdId(operation: Operation, collection: 'ideas' | 'comments', body: string): number[] {
  if (operation.method !== 'POST' || !operation.path.endsWith(`/${collection}/`)) return [];
  try {
    const id = (JSON.parse(body) as { id?: unknown }).id;
    return typeof id === 'number' ? [id] : [];
  } catch {
    return [];
  }
}

/** The report as the lines a person reads. */
export function summary(report: FuzzReport): string[] {
  const lines = [
    `fuzz: seed ${report.seed}, ${report.requests} requests in ${report.elapsedSeconds} s over ${report.operations} operations and ${report.epochs} epochs`,
    `fuzz: statuses ${JSON.stringify(report.statuses)}; ${report.verifiedUnchanged} rejected/read-only requests fingerprinted unchanged, ${report.unverified} not (cut by an accepted hostile write), ${report.unsendable} unsendable`,
    `fuzz: slowest ${report.slowest.map((s) => `${s.ms} ms`).join(', ')}; ${report.slowest[0]?.request ?? ''}`,
  ];
  if (report.neverAccepted.length) lines.push(`fuzz: never answered 2xx: ${report.neverAccepted.join(', ')}`);
  const known = report.failures.filter((f) => f.knownOpen);
  if (known.length) lines.push(`fuzz: ${known.length} of the failures are known open findings: ${[...new Set(known.map((f) => f.knownOpen))].join('; ')}`);
  lines.push(`fuzz: ${report.requests} requests, ${report.serverErrors} 5xx, ${report.failures.length} failures (seed ${report.seed})`);
  return lines;
}
