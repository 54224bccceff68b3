import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { withClient, withDatabase } from '../../src/db/admin.js';
import { type Database, openPostgres } from '../../src/db/client.js';
import { follows, ratings } from '../../src/db/schema/index.js';
import { clonePostgresTemplate } from '../database.js';
import { Browser } from '../me/accounts/client.js';
import { basicWorld, daysFromNow, load, tokenHeader } from '../fixtures.js';

/*
 * Two app instances on one PostgreSQL database and one Redis, as in a scaled-out deployment:
 * what one instance counts or writes, the other sees. Needs PostgreSQL and Redis (as on this
 * machine and in CI); without them the test is skipped, except on CI (CI=true), where it fails.
 */
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function reachable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    return `PostgreSQL at ${ADMIN_URL} is not reachable (${error instanceof Error ? error.message : String(error)})`;
  } finally {
    await client.end().catch(() => undefined);
  }
  const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    return `Redis at ${REDIS_URL} is not reachable (${error instanceof Error ? error.message : String(error)})`;
  } finally {
    redis.disconnect();
  }
  return null;
}

const missing = await reachable();
if (missing && process.env.CI === 'true') throw new Error(`the two-instance test needs PostgreSQL and Redis on CI: ${missing}`);
const skip = missing ? `${missing}; set TEST_DATABASE_URL / TEST_REDIS_URL` : false;

/** A scratch PostgreSQL database: a clone of the run's template on PostgreSQL runs, a new migrated one otherwise. */
async function scratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const clone = await clonePostgresTemplate();
  if (clone) return clone;
  const name = `allmende_two_${randomBytes(5).toString('hex')}`;
  await withClient(ADMIN_URL, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = withDatabase(ADMIN_URL, name);
  const migrator = openPostgres(url, { max: 1 });
  await migrator.migrate();
  await migrator.close();
  return { url, drop: () => withClient(ADMIN_URL, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined) };
}

interface Instance {
  app: FastifyInstance;
  database: Database;
}

const instances: Instance[] = [];
let scratch: { url: string; drop(): Promise<void> } | null = null;
/** Unique per run, so runs sharing the Redis never share counters. */
const run = randomBytes(4).toString('hex');
const account = `two_${run}`;
/** The per-account login counter is keyed by the user id (F10): a fresh id per run, so runs sharing one Redis never meet. */
const accountId = 1000 + randomBytes(3).readUIntBE(0, 3);
const clientIp = `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0] % 250)}`;

before(async () => {
  if (skip) return;
  scratch = await scratchDatabase();
  for (let i = 0; i < 2; i++) {
    const database = openPostgres(scratch.url, { max: 5 });
    const config = testConfig({ redisUrl: REDIS_URL, loginFailureLimit: 3, loginFailureWindowSeconds: 120 });
    const app = await buildApp({ config, database });
    await app.ready();
    instances.push({ app, database });
  }
  const world = basicWorld();
  const rating = [{ type: 'a4_candy_ideas:rating', start_date: daysFromNow(-1), end_date: daysFromNow(10) }];
  await load(instances[0].database.db, {
    ...world,
    modules: (world.modules ?? []).map((module) => ({ ...module, phases: rating })),
    users: [...(world.users ?? []), { id: accountId, username: account, email: `${account}@example.org`, password: 'right-password', language: 'en' }],
    ideas: [{ id: 1, module: 1, creator: 6, name: 'Idea', description: 'x', category: 1 }],
  });
});

after(async () => {
  for (const { app, database } of instances) {
    await app.close();
    await database.close();
  }
  await scratch?.drop();
});

const send = (instance: number, options: InjectOptions) => instances[instance].app.inject({ remoteAddress: clientIp, ...options });
const login = (instance: number, username: string, password: string) =>
  send(instance, { method: 'POST', url: '/api/login/', payload: { username, password } });

test('failed logins counted on one instance count on the other: the account is throttled on both', { skip }, async () => {
  for (const instance of [0, 1, 0]) {
    const response = await login(instance, account, 'wrong-password');
    assert.notEqual(response.statusCode, 429, `failure on instance ${instance} is still under the limit`);
    assert.ok(response.statusCode >= 400 && response.statusCode < 500);
  }
  for (const instance of [1, 0]) {
    const response = await login(instance, account, 'right-password');
    assert.equal(response.statusCode, 429, `instance ${instance} knows about the other's failures`);
    assert.ok(Number(response.headers['retry-after']) > 0);
  }
});

test('failed logins for different accounts from one address are throttled across both instances', { skip }, async () => {
  const ip = `10.200.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0] % 250)}`;
  for (const [i, instance] of [0, 1, 0].entries()) {
    const response = await instances[instance].app.inject({ remoteAddress: ip, method: 'POST', url: '/api/login/', payload: { username: `nobody_${run}_${i}`, password: 'x' } });
    assert.notEqual(response.statusCode, 429);
  }
  const response = await instances[1].app.inject({ remoteAddress: ip, method: 'POST', url: '/api/login/', payload: { username: `nobody_${run}_last`, password: 'x' } });
  assert.equal(response.statusCode, 429);
});

test('concurrent ratings of one idea by one user through both instances leave exactly one rating', { skip }, async () => {
  const db = instances[0].database.db;
  const headers = await tokenHeader(db, 5);
  const types = JSON.parse((await send(0, { method: 'GET', url: '/api/contenttypes/' })).body) as { id: number; model: string }[];
  const idea = types.find((type) => type.model === 'idea');
  assert.ok(idea);
  const responses = await Promise.all(
    Array.from({ length: 10 }, (_, i) => send(i % 2, { method: 'POST', url: `/api/contenttypes/${idea.id}/objects/1/ratings/`, headers, payload: { value: 1 } })),
  );
  const statuses = responses.map((response) => response.statusCode);
  assert.equal(statuses.filter((status) => status === 201).length, 1, `one rating is created: ${statuses.join(', ')}`);
  assert.ok(statuses.every((status) => status < 500), `no server error: ${statuses.join(', ')}`);
  const rows = await db.select().from(ratings).where(and(eq(ratings.creatorId, 5), eq(ratings.objectPk, 1)));
  assert.equal(rows.length, 1);
});

test('concurrent follows of one project by one user through both instances leave exactly one follow', { skip }, async () => {
  const db = instances[1].database.db;
  const headers = await tokenHeader(db, 6);
  const responses = await Promise.all(
    Array.from({ length: 10 }, (_, i) => send(i % 2, { method: 'PUT', url: '/api/follows/project/', headers, payload: { enabled: true } })),
  );
  assert.deepEqual(
    responses.map((response) => response.statusCode),
    Array.from({ length: 10 }, () => 200),
  );
  const rows = await db.select().from(follows).where(and(eq(follows.creatorId, 6), eq(follows.projectId, 1)));
  assert.equal(rows.length, 1);
  assert.equal(rows[0].enabled, true);
});

test("a content page and the platform settings written on one instance show in the footer of the other's next page, kept or not", { skip }, async () => {
  const admin = new Browser(instances[0].app);
  assert.equal((await admin.login('admin', 'admin-password')).status, 302);
  const visitor = new Browser(instances[1].app);
  const pages = ['/', '/org/projects/project/', '/contact/'];
  for (const url of pages) assert.doesNotMatch((await visitor.get(url)).text, /\/pages\/help\//, `${url} before`);
  const page = { slug: 'help', title_en: 'Help', title_de: 'Hilfe', body_en: '<p>How it works</p>', body_de: '<p>So geht es</p>', placement: 'footer', weight: '1' };
  assert.equal((await admin.post('/backoffice/content/create/', page)).status, 302);
  for (const url of pages) assert.match((await visitor.get(url)).text, /<footer[\s\S]*<a href="\/pages\/help\/">Help<\/a>/, `${url}: the other instance links the new page at once`);
  const settings = { name: 'Mitmachen Musterstadt', address: '', contacts: '', facebook: '', twitter: '', github: '', share_description_en: '', share_description_de: '' };
  assert.equal((await admin.post('/backoffice/platform/', settings)).status, 302);
  for (const url of pages) assert.match((await visitor.get(url)).text, /<footer[\s\S]*<li>Mitmachen Musterstadt<\/li>/, `${url}: the other instance shows the platform's name at once`);
});
