import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compilePendingSchemas } from '../../src/http/schema-compilers.js';
import { createTestApp } from '../helpers.js';

// Route schemas are compiled on a route's first request, not at the start: this proves that each
// one compiles, so a broken schema fails here and not at its route's first request in production.
// test: own process (in a process where other files' apps ran, their routes' schemas are compiled already)
test("every route's validation and serialisation schemas compile", async () => {
  const { request } = await createTestApp();
  assert.equal((await request({ method: 'GET', url: '/healthz' })).status, 200);
  const compiled = compilePendingSchemas();
  assert.ok(compiled > 100, `the app hands out its routes' schemas uncompiled (${compiled})`);
  assert.equal(compilePendingSchemas(), 0, 'each schema is compiled once');
});

test("a schema compiled at its route's first request refuses that request and the next alike, with the field's error", async () => {
  const { request } = await createTestApp();
  const withoutPassword = { method: 'POST' as const, url: '/api/login/', headers: { 'content-type': 'application/json' }, payload: '{"username": "alice"}' };
  for (const attempt of ['first', 'second']) {
    const answer = await request(withoutPassword);
    assert.equal(answer.status, 400, attempt);
    assert.deepEqual(answer.body, { password: ['This field is required.'] }, attempt);
  }
});
