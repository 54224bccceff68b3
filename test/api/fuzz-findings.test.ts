import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApp } from '../helpers.js';
import { Browser } from '../me/accounts/client.js';
import { basicWorld, load, tokenHeader } from '../fixtures.js';

/** Found by the attack suite (npm run test:fuzz): URLs the router rejects before any route answered in Fastify's own shape. */
test('an API path segment that is not valid percent-encoding answers 400 with a JSON detail', async () => {
  const { request } = await createTestApp();
  for (const url of ['/api/modules/%ff/ideas/', '/api/contenttypes/1/objects/%c0%af/comments/', '/api/reports/%%/']) {
    const response = await request({ method: 'GET', url });
    assert.equal(response.status, 400, url);
    assert.deepEqual(response.body, { detail: 'The URL is not valid.' }, url);
  }
});

test('an API path segment longer than the router allows answers 414 with a JSON detail', async () => {
  const { request } = await createTestApp();
  const response = await request({ method: 'PUT', url: `/api/follows/${'a'.repeat(600)}/`, payload: { enabled: true } });
  assert.equal(response.status, 414);
  assert.deepEqual(response.body, { detail: 'A part of the URL is too long.' });
});

test('a page URL with broken encoding answers 400, also to a browser', async () => {
  const { db, request } = await createTestApp();
  await load(db, basicWorld());
  const response = await request({ method: 'GET', url: '/org/ideas/%ff/', headers: { accept: 'text/html' } });
  assert.equal(response.status, 400);
  assert.deepEqual(response.body, { detail: 'The URL is not valid.' });
});

test('an /api/ path that a page route also matches answers its error as JSON, not as "[object Object]"', async () => {
  const { request } = await createTestApp();
  // /api/ideas/2/ fits the page route /:org/ideas/:ref/ with org "api"; inject() resolves /api/modules/../ideas/2/ to it.
  for (const url of ['/api/ideas/2/', '/api/modules/../ideas/2/']) {
    const response = await request({ method: 'GET', url });
    assert.equal(response.status, 404, url);
    assert.deepEqual(response.body, { detail: 'Not found.' }, url);
  }
});

/** Ajv coerces "Infinity" and "1e400" to Infinity, which passes `type: integer` and skips maximum. */
test('an id of Infinity or 1e400 in the path is not found, not a server error', async () => {
  const { db, request } = await createTestApp();
  await load(db, basicWorld());
  const moderator = await tokenHeader(db, 3);
  for (const id of ['Infinity', '1e400', '-Infinity']) {
    for (const url of [`/api/app-modules/${id}/`, `/api/userdashboard/moderation/${id}/comments/`, `/api/userdashboard/moderation/1/comments/${id}/`]) {
      const response = await request({ method: 'GET', url, headers: moderator });
      assert.equal(response.status, 404, url);
      assert.deepEqual(response.body, { detail: 'Not found.' }, url);
    }
  }
});

test('a comment page of Infinity is refused with a JSON error, not a server error', async () => {
  const { db, request } = await createTestApp();
  await load(db, { ...basicWorld(), ideas: [{ id: 1, module: 1, creator: 6, name: 'Idea', description: 'x', category: 1 }] });
  const types = (await request({ method: 'GET', url: '/api/contenttypes/' })).body as { id: number; model: string }[];
  const idea = types.find((type) => type.model === 'idea');
  assert.ok(idea);
  for (const page of ['Infinity', '1e400']) {
    const response = await request({ method: 'GET', url: `/api/contenttypes/${idea.id}/objects/1/comments/?page=${page}` });
    assert.ok(response.status === 400 || response.status === 404, `page=${page}: ${response.status}`);
    assert.equal(typeof response.body, 'object', `page=${page}: ${response.text}`);
  }
});

test('a back-office page key or done notice named like an Object property ("constructor", "__proto__") is not found, not a server error', async () => {
  const { app, db } = await createTestApp();
  await load(db, basicWorld());
  const admin = new Browser(app);
  await admin.login('admin', 'admin-password');
  for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    assert.equal((await admin.get(`/backoffice/pages/${key}/`)).status, 404, key);
    assert.equal((await admin.post(`/backoffice/pages/${key}/`, { body_de: 'x', body_en: 'x' })).status, 404, key);
  }
  const initiator = new Browser(app);
  await initiator.login('initiator', 'initiator-password');
  assert.equal((await initiator.get('/org/dashboard/projects/?done=constructor')).status, 200);
});
