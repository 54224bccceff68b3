import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from '../../../src/app.js';
import { testConfig } from '../../../src/config.js';
import type { Database } from '../../../src/db/client.js';
import { LiveHub, publishLive } from '../../../src/http/live.js';
import { createTestDatabase } from '../../database.js';
import { load } from '../../fixtures.js';
import { openStream } from './sse.js';
import { EVENT, eventWorld } from './world.js';

/**
 * The live channel across app instances through Redis pub/sub (REDIS_URL): two apps on one
 * database, each with its own hub, as two server processes are. Every run has its own channel, so
 * runs (and other tests) sharing the Redis never meet.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const channel = `allmende:live:test:${randomBytes(6).toString('hex')}`;
const streamPath = `/api/modules/${EVENT}/interactiveevents/live/`;

async function redisMissing(): Promise<string | false> {
  const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return false;
  } catch (error) {
    return `Redis at ${REDIS_URL} is not reachable (${error instanceof Error ? error.message : String(error)}); set TEST_REDIS_URL`;
  } finally {
    client.disconnect();
  }
}

const missing = await redisMissing();
if (missing && process.env.CI === 'true') throw new Error(`the Redis live-channel test needs Redis on CI: ${missing}`);
const skip = missing;

/** Two apps with REDIS_URL on one database (the first loads the event world); closed after the file. */
async function twoInstances(prepare: (app: FastifyInstance) => void = () => undefined): Promise<{ database: Database; a: FastifyInstance; b: FastifyInstance; port: number }> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'allmende-live-redis-'));
  const apps: FastifyInstance[] = [];
  for (let i = 0; i < 2; i++) {
    const app = await buildApp({ config: testConfig({ dataDir, redisUrl: REDIS_URL }), database, liveChannel: channel });
    prepare(app);
    await app.ready();
    apps.push(app);
  }
  after(async () => {
    for (const app of apps) await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  await load(database.db, eventWorld());
  const [a, b] = apps;
  await b.listen({ host: '127.0.0.1', port: 0 });
  return { database, a, b, port: (b.server.address() as AddressInfo).port };
}

test('with REDIS_URL a question asked on one instance reaches an event stream held by another', { skip }, async () => {
  const { a, b, port } = await twoInstances();
  assert.equal(a.ctx.live.transport, 'redis');
  assert.equal(b.ctx.live.transport, 'redis');
  const stream = await openStream(port, streamPath);
  assert.equal(stream.response.statusCode, 200);
  await stream.next((e) => e.id !== undefined); // the stream's position: it is open
  const asked = await a.inject({ method: 'POST', url: `/api/modules/${EVENT}/interactiveevents/livequestions/`, payload: { text: 'Asked on instance A', category: 11 } });
  assert.equal(asked.statusCode, 201);
  const question = await stream.next((e) => e.event === 'question');
  assert.equal((JSON.parse(question.data ?? '{}') as { text: string }).text, 'Asked on instance A');
  // A like counts for the session of a page view (issue 36.3).
  const pairs = ([] as string[]).concat((await a.inject({ method: 'GET', url: '/org/interactiveevents/town-hall/' })).headers['set-cookie'] ?? []).map((c) => c.split(';')[0]);
  const csrf = pairs.find((p) => p.startsWith('csrftoken='))?.split('=')[1] ?? '';
  const liked = await a.inject({ method: 'POST', url: '/api/livequestions/1/likes/', headers: { cookie: pairs.join('; '), 'x-csrftoken': csrf }, payload: { value: true } });
  assert.equal(liked.statusCode, 201);
  const likes = await stream.next((e) => e.event === 'likes');
  assert.deepEqual(JSON.parse(likes.data ?? '{}'), { id: 1, count: 1 });
  assert.notEqual(likes.id, question.id);
  // Each event once, though both instances received every publish.
  assert.deepEqual(
    stream.events.filter((e) => e.event).map((e) => e.event),
    ['question', 'likes'],
  );
  stream.close();
});

test('an event that was never published (written outside a request) comes along with the next one, in order', { skip }, async () => {
  const { database, a, port } = await twoInstances();
  const stream = await openStream(port, streamPath);
  await stream.next((e) => e.id !== undefined);
  // A write outside any request (as the CLI makes) wakes nobody; the next wake-up brings it along.
  await a.inject({ method: 'POST', url: `/api/modules/${EVENT}/interactiveevents/livequestions/`, payload: { text: 'First', category: 11 } });
  await stream.next((e) => e.event === 'question');
  await database.db.transaction((tx) => publishLive(tx, `ie:${EVENT}`, 'likes', { id: 1, count: 7 }));
  await a.inject({ method: 'POST', url: `/api/modules/${EVENT}/interactiveevents/livequestions/`, payload: { text: 'Second', category: 11 } });
  await stream.next((e) => e.event === 'question' && (e.data ?? '').includes('Second'));
  const shown = stream.events.filter((e) => e.event).map((e) => `${e.event}:${e.event === 'likes' ? e.data : (JSON.parse(e.data ?? '{}') as { text: string }).text}`);
  assert.deepEqual(shown, ['question:First', 'likes:{"id":1,"count":7}', 'question:Second']);
  stream.close();
});

test('an event of a rolled-back transaction is not published', { skip }, async () => {
  // A request whose transaction publishes and then fails, as a write refused half-way does.
  const { a, port } = await twoInstances((app) =>
    app.post('/test-rollback', async (_request, reply) => {
      await app.ctx.db
        .transaction(async (tx) => {
          await publishLive(tx, `ie:${EVENT}`, 'likes', { id: 1, count: 99 });
          throw new Error('refused half-way');
        })
        .catch(() => undefined);
      return reply.status(409).send({ detail: 'rolled back' });
    }),
  );
  const stream = await openStream(port, streamPath);
  await stream.next((e) => e.id !== undefined);
  const ask = (text: string) => a.inject({ method: 'POST', url: `/api/modules/${EVENT}/interactiveevents/livequestions/`, payload: { text, category: 11 } });
  await ask('Before');
  await stream.next((e) => e.event === 'question');
  assert.equal((await a.inject({ method: 'POST', url: '/test-rollback' })).statusCode, 409);
  await ask('After');
  await stream.next((e) => e.event === 'question' && (e.data ?? '').includes('After'));
  assert.deepEqual(
    stream.events.filter((e) => e.event).map((e) => e.event),
    ['question', 'question'],
  );
  stream.close();
});

test('the hub carries events between processes through Redis when configured, PostgreSQL NOTIFY otherwise: never both', { skip }, async () => {
  const database = await createTestDatabase();
  after(() => database.close());
  const listened: string[] = [];
  const recording: Pick<Database, 'db' | 'listen'> = {
    db: database.db,
    listen: (name, onPayload, onReconnect) => {
      listened.push(name);
      return database.listen(name, onPayload, onReconnect);
    },
  };
  const plain = new LiveHub(recording, { streamsPerIp: 0 });
  await plain.start();
  assert.equal(plain.transport, 'postgres');
  assert.deepEqual(listened, ['allmende_live']);
  await plain.close();
  const withRedis = new LiveHub(recording, { streamsPerIp: 0, redis: { url: REDIS_URL, channel } });
  await withRedis.start();
  assert.equal(withRedis.transport, 'redis');
  assert.deepEqual(listened, ['allmende_live'], 'with Redis the hub does not LISTEN on PostgreSQL');
  await withRedis.close();
});

test('wake-ups that come twice, late or for a topic nobody holds deliver each event once, in order', { skip }, async () => {
  const { database, port } = await twoInstances();
  const stream = await openStream(port, streamPath);
  await stream.next((e) => e.id !== undefined);
  // Two committed events that no request announced (as the CLI writes), then wake-ups for them from "another process": twice, and one for a stranger topic first.
  await database.db.transaction((tx) => publishLive(tx, `ie:${EVENT}`, 'likes', { id: 1, count: 1 }));
  await database.db.transaction((tx) => publishLive(tx, `ie:${EVENT}`, 'likes', { id: 1, count: 2 }));
  const publisher = new Redis(REDIS_URL);
  try {
    await publisher.publish(channel, 'ie:999999');
    await publisher.publish(channel, `ie:${EVENT}`);
    await publisher.publish(channel, `ie:${EVENT}`);
  } finally {
    publisher.disconnect();
  }
  await stream.next((e) => e.event === 'likes' && (e.data ?? '').includes('"count":2'));
  assert.deepEqual(
    stream.events.filter((e) => e.event).map((e) => JSON.parse(e.data ?? '{}')),
    [
      { id: 1, count: 1 },
      { id: 1, count: 2 },
    ],
  );
  stream.close();
});

test('with REDIS_URL a client that reconnects to another instance with Last-Event-ID gets what it missed, nothing twice', { skip }, async () => {
  const { a, port } = await twoInstances();
  const ask = (text: string) => a.inject({ method: 'POST', url: `/api/modules/${EVENT}/interactiveevents/livequestions/`, payload: { text, category: 11 } });
  const first = await openStream(port, streamPath);
  await first.next((e) => e.id !== undefined);
  await ask('First');
  const seen = await first.next((e) => e.event === 'question');
  first.close();
  await ask('Second, while away');
  await ask('Third, while away');
  const again = await openStream(port, streamPath, { 'last-event-id': seen.id ?? '' });
  await again.next((e) => e.event === 'question' && (e.data ?? '').includes('Third'));
  await ask('Fourth, live');
  await again.next((e) => e.event === 'question' && (e.data ?? '').includes('Fourth'));
  const texts = again.events.filter((e) => e.event === 'question').map((e) => (JSON.parse(e.data ?? '{}') as { text: string }).text);
  assert.deepEqual(texts, ['Second, while away', 'Third, while away', 'Fourth, live']);
  again.close();
});
