import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appClient, assertDrawablePng, assertEach, assertShape, type Json, logIn, photo } from './client.js';
import { Account, PublicUser } from './shapes.js';
import { appWorldApp } from './world.js';

const world = appWorldApp();

test('account: the signed-in user with a PNG fallback avatar the app can draw', async () => {
  const alice = await logIn(await world, 'alice', 'alice-password');
  const response = await alice.get('/api/account/');
  assert.equal(response.status, 200);
  assertShape(response.body, Account, 'account');
  const account = response.body as Json;
  assert.deepEqual([account.username, account.language, account.user_image], ['alice', 'de', null]);
  await assertDrawablePng(alice, account.user_image_fallback);
  assert.equal((await alice.get('/api/account')).status, 200);
});

test('profile: GET /api/users/<pk>/ for the own and another user\'s pk', async () => {
  const t = await world;
  const alice = await logIn(t, 'alice', 'alice-password');
  const own = await alice.get('/api/users/1/');
  assert.equal(own.status, 200);
  assertShape(own.body, PublicUser, 'own profile');
  assert.deepEqual([(own.body as Json).pk, (own.body as Json).username, (own.body as Json).is_self], [1, 'alice', true]);
  const other = await alice.get('/api/users/2');
  assert.equal(other.status, 200);
  assertShape(other.body, PublicUser, 'other profile');
  assert.deepEqual([(other.body as Json).username, (other.body as Json).is_self], ['bob', false]);
  await assertDrawablePng(alice, (other.body as Json).user_image_fallback);
  const all = await alice.get('/api/users/');
  assertEach(all.body, PublicUser, 'users');
  assert.deepEqual((all.body as Json[]).map((u) => u.username), ['alice', 'bob', 'mona']);
  assert.equal((await alice.get('/api/users/99/')).status, 404);
  assert.equal((await alice.get('/api/users/abc/')).status, 404);
  assert.equal((await appClient(t).get('/api/users/1/')).status, 401);
  assert.equal((await appClient(t).get('/api/users/')).status, 401);
  for (const method of ['POST', 'PUT', 'PATCH'] as const) assert.equal((await alice.send(method, '/api/users/1/', { username: 'x' })).status, 405, method);
  assert.equal((await alice.delete('/api/users/1/')).status, 405);
});

test('settings: username and language as JSON, the avatar as multipart; the profile shows them', async () => {
  const t = await world;
  const bob = await logIn(t, 'bob', 'bob-password');
  const renamed = await bob.send('PATCH', '/api/account/', { username: 'bob_b' });
  assert.equal(renamed.status, 200, renamed.text);
  assertShape(renamed.body, Account, 'renamed');
  assert.equal((renamed.body as Json).username, 'bob_b');
  const language = await bob.send('PUT', '/api/account/', { username: 'bob_b', language: 'en' });
  assert.equal(language.status, 200, language.text);
  assert.equal((language.body as Json).language, 'en');
  const taken = await bob.send('PATCH', '/api/account/', { username: 'alice' });
  assert.equal(taken.status, 400);
  assert.ok(Array.isArray((taken.body as Json).username));
  const avatar = await bob.sendForm('PATCH', '/api/account/', [
    ['username', 'bob_b'],
    ['user_image', { filename: 'me.png', type: 'image/png', data: await photo(300, 300, 'png') }],
  ]);
  assert.equal(avatar.status, 200, avatar.text);
  assertShape(avatar.body, Account, 'with avatar');
  const image = await bob.fetchImage(String((avatar.body as Json).user_image));
  assert.equal(image.status, 200);
  const alice = await logIn(t, 'alice', 'alice-password');
  const profile = (await alice.get('/api/users/2/')).body as Json;
  assert.equal(profile.username, 'bob_b');
  assert.equal(profile.user_image, (avatar.body as Json).user_image);
  const comments = (await alice.get('/api/contenttypes/4/objects/1/comments/')).body as { results: Json[] };
  const byBob = comments.results.find((c) => c.user_name === 'bob_b');
  assert.ok(byBob, 'bob\'s comment under his new name');
  assert.match(String(byBob.user_image), /^http:\/\/[^/]+\/media\//);
  await assertDrawablePng(alice, byBob.user_image);
});
