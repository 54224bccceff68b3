import assert from 'node:assert/strict';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { after, test } from 'node:test';
import { Redis } from 'ioredis';
import { buildApp } from '../../src/app.js';
import { testConfig, type Config } from '../../src/config.js';
import { load } from '../fixtures.js';
import { createTestDatabase } from '../database.js';
import { authWorld, json } from '../api/auth/world.js';

const REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/15';

/** A TCP relay to the test Redis that the test can cut and restore, as a network outage would. */
async function redisRelay() {
  const target = new URL(REDIS);
  const sockets = new Set<net.Socket>();
  let up = true;
  const server = net.createServer((client) => {
    if (!up) return void client.destroy();
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  after(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}${target.pathname}`,
    cut() {
      up = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      up = true;
    },
  };
}

/** The platform with its log lines captured. */
async function platform(overrides: Partial<Config>) {
  const database = await createTestDatabase();
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  const logStream = {
    write(line: string) {
      lines.push(line);
      for (const waiter of waiters.filter((w) => w.pattern.test(line))) waiter.resolve();
    },
  };
  try {
    const app = await buildApp({ config: testConfig({ logLevel: 'info', ...overrides }), database, logStream });
    after(async () => {
      await app.close();
      await database.close();
    });
    await load(database.db, authWorld());
    /** Resolves once a log line matches (the reconnect happens in the background). */
    const logged = (pattern: RegExp) =>
      lines.some((line) => pattern.test(line)) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ pattern, resolve }));
    return { app, lines, logged };
  } catch (error) {
    await database.close();
    throw error;
  }
}

async function redisAnswers(): Promise<boolean> {
  const client = new Redis(REDIS, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

test('F9: a REDIS_URL that does not answer stops the start with a clear error', async () => {
  await assert.rejects(platform({ redisUrl: 'redis://:secret@127.0.0.1:1/0' }), (error: unknown) => {
    assert.ok(error instanceof Error);
    assert.match(error.message, /^REDIS_URL redis:\/\/:\*\*\*@127\.0\.0\.1:1\/0 cannot be reached: /);
    assert.doesNotMatch(error.message, /secret/, 'the password is not shown');
    return true;
  });
});

test('F9: when Redis drops later, logins are throttled in memory with a warning, and Redis is used again once it is back', async (context) => {
  if (!(await redisAnswers())) return context.skip(`no Redis at ${REDIS} (set TEST_REDIS_URL)`);
  const relay = await redisRelay();
  const { app, lines, logged } = await platform({ redisUrl: relay.url, loginFailureLimit: 2 });
  const ip = `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
  const login = (username: string, password: string) => app.inject({ method: 'POST', url: '/api/token/', ...json({ username, password }), remoteAddress: ip });

  relay.cut();
  await logged(/Redis unavailable/);
  assert.equal((await login('alice', 'wrong')).statusCode, 401);
  assert.equal((await login('alice', 'wrong')).statusCode, 401);
  const throttled = await login('alice', 'alice-password');
  assert.equal(throttled.statusCode, 429, 'still throttled while Redis is away');
  assert.ok(Number(throttled.headers['retry-after']) > 0);
  assert.equal(lines.filter((line) => /Redis unavailable/.test(line)).length, 1, 'one warning, not one per login');

  relay.restore();
  await logged(/Redis is reachable again/);
  const name = `nobody-${randomBytes(6).toString('hex')}`;
  assert.equal((await app.inject({ method: 'POST', url: '/api/token/', ...json({ username: name, password: 'x' }), remoteAddress: `198.51.${randomBytes(1)[0]}.${randomBytes(1)[0]}` })).statusCode, 401);
  const direct = new Redis(REDIS);
  try {
    const keys = await direct.keys(`allmende:login-failures:*${name}*`);
    assert.equal(keys.length, 1, 'the failure was counted in Redis again');
    await direct.del(...keys);
  } finally {
    direct.disconnect();
  }
});

test('two installations on one Redis keep apart through REDIS_PREFIX: throttle keys and the live channel (issue 36.15)', async (context) => {
  if (!(await redisAnswers())) return context.skip(`no Redis at ${REDIS} (set TEST_REDIS_URL)`);
  const tag = randomBytes(4).toString('hex');
  const first = await platform({ redisUrl: REDIS, redisPrefix: `a${tag}:`, loginFailureLimit: 2 });
  const second = await platform({ redisUrl: REDIS, redisPrefix: `b${tag}:`, loginFailureLimit: 2 });
  const ip = `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
  const login = (app: typeof first.app, password: string) => app.inject({ method: 'POST', url: '/api/token/', ...json({ username: 'alice', password }), remoteAddress: ip });
  assert.equal((await login(first.app, 'wrong')).statusCode, 401);
  assert.equal((await login(first.app, 'wrong')).statusCode, 401);
  assert.equal((await login(first.app, 'alice-password')).statusCode, 429, 'the first installation throttles');
  assert.equal((await login(second.app, 'alice-password')).statusCode, 200, 'the second one counted nothing');
  const direct = new Redis(REDIS);
  try {
    const keys = await direct.keys(`a${tag}:login-failures:*`);
    assert.ok(keys.length > 0, 'the keys carry the prefix');
    assert.equal((await direct.keys(`b${tag}:login-failures:*`)).length, 0);
    assert.equal((await direct.keys(`allmende:login-failures:*${ip}*`)).length, 0);
    await first.app.ready();
    const channels = await direct.pubsub('CHANNELS', `*${tag}:live`);
    assert.deepEqual((channels as string[]).sort(), [`a${tag}:live`, `b${tag}:live`], 'each listens on its own channel');
    if (keys.length) await direct.del(...keys);
  } finally {
    direct.disconnect();
  }
});
