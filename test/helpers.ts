import type { FastifyInstance, InjectOptions } from 'fastify';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { buildApp } from '../src/app.js';
import { type Config, testConfig } from '../src/config.js';
import type { Database, Db } from '../src/db/client.js';
import { createTestDatabase, resetTestDatabase } from './database.js';
import { atFileEnd } from './grouping.js';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  db: Db;
  config: Config;
  /** Sends a request through app.inject() and parses a JSON answer. */
  request(options: InjectOptions): Promise<{ status: number; body: unknown; headers: Record<string, unknown>; text: string }>;
}

/**
 * An app on a database reset to the template's rows (PGlite, or PostgreSQL in CI), for one test.
 * One app serves the tests of a file one after the other (docs/testing.md, "One app per file"): at
 * the end of a test it is put aside, and the next test of the file that asks for the same
 * configuration gets it back with its database reset, what the app kept in memory forgotten
 * (`app.ctx.memory`) and its data directory emptied; the file's end closes it. A test gets an app of
 * its own, closed after it, when it adds `routes` (they change the app), when its configuration
 * holds more than plain values, when the app's start writes into its database (the first admin of
 * the user/session service), or while its timers are mocked (the app's intervals would be mocked).
 */
export async function createTestApp(overrides: Partial<Config> = {}, extra: { routes?: (app: FastifyInstance) => void } = {}): Promise<TestApp> {
  const key = extra.routes || timersMocked() || writesAtStart(overrides) ? null : plainKey(overrides);
  const aside = key === null ? undefined : shelf.find((kept) => kept.key === key && !kept.inUse);
  if (aside && (await takeBack(aside))) return lend(aside);
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'allmende-test-'));
  const config = testConfig({ dataDir, ...overrides });
  const app = await buildApp({ config, database });
  const kept: Kept = { key, inUse: false, closed: false, dataDir, made: { app, database, db: database.db, config, request: requester(app) } };
  app.addHook('onClose', async () => void (kept.closed = true));
  extra.routes?.(app);
  awaitSideWork(app);
  await app.ready();
  if (key !== null && atFileEnd(() => close(kept))) {
    shelf.push(kept);
    return lend(kept);
  }
  after(() => close(kept));
  return kept.made;
}

/** An app made by createTestApp: its configuration's key (null: not shared), whether a test holds it, whether it was closed. */
interface Kept {
  key: string | null;
  inUse: boolean;
  closed: boolean;
  dataDir: string;
  made: TestApp;
}

/** The running file's apps, in use or put aside for its next test. */
let shelf: Kept[] = [];

/** At most this many apps wait for the next test (each holds a database); the one put aside longest ago goes first. */
const SHELF_SIZE = 2;

/** The global timer functions as this module found them: a test that mocks timers replaces them. */
const realSetInterval = setInterval;
const timersMocked = () => globalThis.setInterval !== realSetInterval;

/** The app's start writes into its database (the user/session service's first admin): a reset would take it away. */
const writesAtStart = (overrides: Partial<Config>) => Boolean(overrides.usersvcAdmin || overrides.seedDemo);

/** A configuration's key when it holds only plain values (numbers, text, arrays, plain objects); null otherwise. */
function plainKey(overrides: Partial<Config>): string | null {
  const plain = (value: unknown): boolean =>
    value === null ||
    ['string', 'number', 'boolean', 'undefined'].includes(typeof value) ||
    (Array.isArray(value) && value.every(plain)) ||
    (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype && Object.values(value as object).every(plain));
  if (!plain(overrides)) return null;
  return JSON.stringify(overrides, (_name, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))) : value,
  );
}

/**
 * The test holds the app until its end, then it is put aside (and the oldest beyond SHELF_SIZE
 * closed); an app that listens on a port (a browser's server) cannot listen again: it is closed.
 */
function lend(kept: Kept): TestApp {
  kept.inUse = true;
  after(async () => {
    kept.inUse = false;
    if (kept.made.app.server.listening) return close(kept);
    shelf = [...shelf.filter((k) => k !== kept), kept];
    const waiting = shelf.filter((k) => !k.inUse);
    for (const old of waiting.slice(0, Math.max(0, waiting.length - SHELF_SIZE))) await close(old);
  });
  return kept.made;
}

/** An app put aside, ready for the next test: its database reset, its memory forgotten, its files gone; false when it cannot be (closed). */
async function takeBack(kept: Kept): Promise<boolean> {
  const { app, database } = kept.made;
  if (kept.closed || !(await resetTestDatabase(database))) {
    await close(kept);
    return false;
  }
  app.ctx.memory.forget();
  for (const entry of readdirSync(kept.dataDir)) rmSync(join(kept.dataDir, entry), { recursive: true, force: true });
  return true;
}

async function close(kept: Kept): Promise<void> {
  shelf = shelf.filter((k) => k !== kept);
  if (!kept.closed) await kept.made.app.close();
  await kept.made.database.close();
  rmSync(kept.dataDir, { recursive: true, force: true });
}

/** Sends a request through app.inject() and parses a JSON answer. */
function requester(app: FastifyInstance): TestApp['request'] {
  return async (options) => {
    const response = await app.inject(options);
    const type = String(response.headers['content-type'] ?? '');
    return {
      status: response.statusCode,
      body: type.includes('json') && response.body ? JSON.parse(response.body) : response.body,
      headers: response.headers,
      text: response.body,
    };
  };
}

/**
 * Every `app.inject(options)` resolves once the side work of the answers sent so far has run
 * (http/after-answer.ts: a comment's notice), so that a test reads what a process would find a
 * moment later; a test that counts a request's statements before its answer reads them in onSend.
 */
function awaitSideWork(app: FastifyInstance): void {
  const inject = app.inject.bind(app);
  app.inject = ((options?: InjectOptions) =>
    options === undefined
      ? inject()
      : inject(options).then(async (response) => {
          await app.sideWorkDone();
          return response;
        })) as FastifyInstance['inject'];
}

/**
 * Date frozen at the next whole second (never before the real time): the app project list is
 * computed for the start of each second, so a test's requests then fall into one second, later
 * than any fixture date made before, until the test ticks.
 */
export const freezeTime = (t: { mock: { timers: { enable(options: { apis: 'Date'[]; now: number }): void } } }) =>
  t.mock.timers.enable({ apis: ['Date'], now: Math.ceil(Date.now() / 1000) * 1000 });
