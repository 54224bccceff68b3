import assert from 'node:assert/strict';
import { test } from 'node:test';
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
