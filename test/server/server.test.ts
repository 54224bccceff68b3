import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { createTestDatabase } from '../database.js';
import { createTestApp } from '../helpers.js';

test('GET /healthz answers ok while the database answers', async () => {
  const { request } = await createTestApp();
  const response = await request({ method: 'GET', url: '/healthz' });
  assert.equal(response.status, 200);
  assert.deepEqual(response.body, { status: 'ok' });
});

test('GET /healthz answers 503 when the database is gone', async () => {
  const { request, database } = await createTestApp();
  database.ping = async () => false;
  const response = await request({ method: 'GET', url: '/healthz' });
  assert.equal(response.status, 503);
});

test('an unknown path is a JSON 404', async () => {
  const { request } = await createTestApp();
  const response = await request({ method: 'GET', url: '/api/no-such-thing/' });
  assert.equal(response.status, 404);
  assert.deepEqual(response.body, { detail: 'Not found.' });
});

test('the OpenAPI document is served at /api/schema/', async () => {
  const { request } = await createTestApp();
  const response = await request({ method: 'GET', url: '/api/schema/' });
  assert.equal(response.status, 200);
  assert.equal((response.body as { openapi: string }).openapi, '3.1.0');
});

test('request logs carry method and path but never credentials, cookies or query strings', async () => {
  const lines: string[] = [];
  const database = await createTestDatabase();
  const app = await buildApp({ config: testConfig({ logLevel: 'info' }), database, logStream: { write: (line) => void lines.push(line) } });
  try {
    await app.inject({
      method: 'GET',
      url: '/session/secret-session-token?token=secret-query',
      headers: { authorization: 'Token secret-api-key', cookie: 'sessionid=secret-cookie', 'x-thentos-password': 'secret-pw' },
    });
    const log = lines.join('\n');
    assert.match(log, /"method":"GET"/);
    assert.match(log, /\/session\/\[redacted\]/);
    for (const secret of ['secret-session-token', 'secret-query', 'secret-api-key', 'secret-cookie', 'secret-pw']) {
      assert.ok(!log.includes(secret), `${secret} must not be logged`);
    }
  } finally {
    await app.close();
    await database.close();
  }
});
