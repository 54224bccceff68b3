import type { FastifyInstance, InjectOptions } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { buildApp } from '../src/app.js';
import { type Config, testConfig } from '../src/config.js';
import type { Database, Db } from '../src/db/client.js';
import { createTestDatabase } from './database.js';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  db: Db;
  config: Config;
  /** Sends a request through app.inject() and parses a JSON answer. */
  request(options: InjectOptions): Promise<{ status: number; body: unknown; headers: Record<string, unknown>; text: string }>;
}

/**
 * A fresh app on a fresh database (PGlite, or PostgreSQL in CI); closed after the test file.
 * `routes` adds a test's own routes before the app is ready (a page that mounts widgets).
 */
export async function createTestApp(overrides: Partial<Config> = {}, extra: { routes?: (app: FastifyInstance) => void } = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'allmende-test-'));
  const config = testConfig({ dataDir, ...overrides });
  const app = await buildApp({ config, database });
  extra.routes?.(app);
  awaitSideWork(app);
  await app.ready();
  after(async () => {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    app,
    database,
    db: database.db,
    config,
    async request(options) {
      const response = await app.inject(options);
      const type = String(response.headers['content-type'] ?? '');
      return {
        status: response.statusCode,
        body: type.includes('json') && response.body ? JSON.parse(response.body) : response.body,
        headers: response.headers,
        text: response.body,
      };
    },
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
