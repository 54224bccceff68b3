import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { Redis } from 'ioredis';
import { ApiError } from '../../../src/http/errors.js';
import { checkLoginThrottle, closeLoginThrottle, loginThrottleWait, recordLoginFailure } from '../../../src/http/throttle.js';
import { testConfig } from '../../../src/config.js';
import { load } from '../../fixtures.js';
import { createTestApp, type TestApp } from '../../helpers.js';
import { authWorld, json } from './world.js';

async function world(overrides: Parameters<typeof createTestApp>[0] = {}): Promise<TestApp> {
  const t = await createTestApp(overrides);
  await load(t.db, authWorld());
  return t;
}

const jwtLogin = (t: TestApp, username: string, password: string, ip = '192.0.2.1') =>
  t.request({ method: 'POST', url: '/api/token/', ...json({ username, password }), remoteAddress: ip });
const keyLogin = (t: TestApp, username: string, password: string, ip = '192.0.2.1') =>
  t.request({ method: 'POST', url: '/api/login/', ...json({ username, password }), remoteAddress: ip });

async function fail(t: TestApp, times: number, username = 'alice', ip = '192.0.2.1') {
  for (let i = 0; i < times; i++) assert.equal((await jwtLogin(t, username, 'wrong', ip)).status, 401);
}

function assertThrottled(response: { status: number; headers: Record<string, unknown>; body: unknown }, message = '', window = 300) {
  assert.equal(response.status, 429, message);
  const retryAfter = Number(response.headers['retry-after']);
  assert.ok(retryAfter >= 1 && retryAfter <= window, `Retry-After ${String(response.headers['retry-after'])}`);
  assert.match((response.body as { detail: string }).detail, /^Request was throttled\. Expected available in \d+ seconds\.$/);
}

test('after 10 failed logins for an account, the next attempt is a 429 with Retry-After, even with the right password', async () => {
  const t = await world();
  await fail(t, 10);
  assertThrottled(await jwtLogin(t, 'alice', 'alice-password'));
  assertThrottled(await keyLogin(t, 'ALICE', 'alice-password', '198.51.100.7'));
  assert.equal((await jwtLogin(t, 'bob', 'bob-password', '198.51.100.7')).status, 200, 'other accounts and IPs go on');
});

test('failures are counted per account across IPs', async () => {
  const t = await world();
  for (let i = 0; i < 10; i++) assert.equal((await keyLogin(t, 'alice', 'wrong', `203.0.113.${i + 1}`)).status, 400);
  assertThrottled(await jwtLogin(t, 'alice', 'alice-password', '203.0.113.200'));
});

test('failures are counted per IP across accounts', async () => {
  const t = await world();
  for (let i = 0; i < 10; i++) assert.equal((await jwtLogin(t, `nobody${i}`, 'wrong', '203.0.113.9')).status, 401);
  assertThrottled(await jwtLogin(t, 'bob', 'bob-password', '203.0.113.9'));
  assert.equal((await jwtLogin(t, 'bob', 'bob-password', '203.0.113.10')).status, 200);
});

test('/api/token/ and /api/login/ share the counters', async () => {
  const t = await world();
  await fail(t, 5);
  for (let i = 0; i < 5; i++) assert.equal((await keyLogin(t, 'alice', 'wrong')).status, 400);
  assertThrottled(await keyLogin(t, 'alice', 'alice-password'));
});

test('the limit and window are configurable, and the counters end with the window', async (context) => {
  const t = await world({ loginFailureLimit: 2, loginFailureWindowSeconds: 1 });
  context.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  await fail(t, 2);
  assertThrottled(await jwtLogin(t, 'alice', 'alice-password'), 'limit 2', 1);
  context.mock.timers.tick(1100);
  assert.equal((await jwtLogin(t, 'alice', 'alice-password')).status, 200);
});

test("a successful login forgets the account's failures but not the IP's", async () => {
  const t = await world({ loginFailureLimit: 3 });
  await fail(t, 2, 'alice', '192.0.2.50');
  assert.equal((await jwtLogin(t, 'alice', 'alice-password', '192.0.2.51')).status, 200);
  await fail(t, 2, 'alice', '192.0.2.52');
  assert.equal((await jwtLogin(t, 'alice', 'alice-password', '192.0.2.53')).status, 200, 'the account count restarted');
  await fail(t, 1, 'bob', '192.0.2.50');
  assertThrottled(await jwtLogin(t, 'bob', 'bob-password', '192.0.2.50'));
});

test('the throttle functions the browser login calls: wait, record, check', async () => {
  const ctx = { config: testConfig({ loginFailureLimit: 2 }) };
  try {
    assert.equal(await loginThrottleWait(ctx, '192.0.2.1', 'Someone'), 0);
    await recordLoginFailure(ctx, '192.0.2.1', 'Someone');
    await checkLoginThrottle(ctx, '192.0.2.1', 'someone');
    await recordLoginFailure(ctx, '192.0.2.2', ' someone ');
    assert.ok((await loginThrottleWait(ctx, '192.0.2.3', 'SOMEONE')) > 0);
    await assert.rejects(checkLoginThrottle(ctx, '192.0.2.3', 'someone'), (error: unknown) => error instanceof ApiError && error.statusCode === 429);
  } finally {
    await closeLoginThrottle(ctx);
  }
});

/** A Redis to test against: TEST_REDIS_URL, else a local one if it answers. */
async function reachableRedis(): Promise<string | null> {
  const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/15';
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return url;
  } catch {
    return null;
  } finally {
    client.disconnect();
  }
}

test('with REDIS_URL the counters are shared by every server instance', async (context) => {
  const redisUrl = await reachableRedis();
  if (!redisUrl) {
    context.skip('no Redis reachable (set TEST_REDIS_URL)');
    return;
  }
  const first = await world({ redisUrl, loginFailureLimit: 3 });
  const second = await world({ redisUrl, loginFailureLimit: 3 });
  const ip = `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
  const name = `nobody-${randomBytes(6).toString('hex')}`;
  await fail(first, 2, name, ip);
  await fail(second, 1, name, ip);
  assertThrottled(await jwtLogin(second, name, 'x', '198.51.100.99'), 'the account count is shared');
  assertThrottled(await jwtLogin(first, 'bob', 'bob-password', ip), 'the IP count is shared');
});

// An unreachable Redis: see test/security/redis-throttle.test.ts (refused at start, memory fallback later).
