import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertShape, type Json, logIn, photo } from './client.js';
import { Idea, Rating } from './shapes.js';
import { appWorldApp } from './world.js';

const world = appWorldApp();

test('idea form, create: multipart with string values, repeated labels and a photo', async () => {
  const alice = await logIn(await world, 'alice', 'alice-password');
  const image = { filename: 'photo.jpg', type: 'image/jpeg', data: await photo(800, 600) };
  const response = await alice.sendForm('POST', '/api/modules/1/ideas/', [
    ['name', 'Fahrradbügel am Bahnhof'],
    ['description', 'Mehr Platz zum Anschließen'],
    ['category', '2'],
    ['labels', '1'],
    ['labels', '2'],
    ['image', image],
  ]);
  assert.equal(response.status, 201, response.text);
  assertShape(response.body, Idea, 'created idea');
  const idea = response.body as Json;
  assert.deepEqual(idea.category, { id: 2, name: 'Neue Wege' });
  assert.deepEqual((idea.labels as Json[]).map((l) => l.id), [1, 2]);
  const picture = await alice.fetchImage(String(idea.image));
  assert.equal(picture.status, 200);
  assert.deepEqual([idea.has_changing_permission, idea.has_deleting_permission], [true, true]);
});

test('idea form, create: the untouched category dropdown in a module with categories is a field error', async () => {
  const alice = await logIn(await world, 'alice', 'alice-password');
  const response = await alice.sendForm('POST', '/api/modules/1/ideas/', [
    ['name', 'Ohne Kategorie'],
    ['description', 'd'],
    ['category', ''],
  ]);
  assert.equal(response.status, 400);
  assert.ok(Array.isArray((response.body as Json).category), response.text);
});

test('idea form, edit: an untouched category keeps the idea\'s category; labels and a removed image as strings', async () => {
  const t = await world;
  const bob = await logIn(t, 'bob', 'bob-password');
  for (const method of ['PUT', 'PATCH'] as const) {
    const response = await bob.sendForm(method, '/api/modules/1/ideas/1/', [
      ['name', `Geschützter Radweg (${method})`],
      ['description', 'Poller an der Hauptstraße'],
      ['category', ''],
      ['labels', '2'],
      ['image_deleted', 'true'],
    ]);
    assert.equal(response.status, 200, `${method} ${response.text}`);
    assertShape(response.body, Idea, 'edited idea');
    const idea = response.body as Json;
    assert.deepEqual(idea.category, { id: 1, name: 'Sicherheit' }, method);
    assert.deepEqual(idea.labels, [{ id: 2, name: 'Teuer' }]);
    assert.equal(idea.image, null);
  }
  const alice = await logIn(t, 'alice', 'alice-password');
  assert.equal((await alice.sendForm('PATCH', '/api/modules/1/ideas/1/', [['name', 'Fremd']])).status, 403, 'not her idea');
});

test('idea rating: thumbs up, change, take back; the idea shows the user\'s rating', async () => {
  const alice = await logIn(await world, 'alice', 'alice-password');
  const idea = (await alice.get('/api/modules/1/ideas/1/')).body as Json;
  const ratings = `/api/contenttypes/${String(idea.content_type)}/objects/${String(idea.pk)}/ratings/`;
  // The collect phase does not allow rating ideas: the button is off and the API says 403.
  assert.equal(idea.has_rating_permission, false);
  assert.equal((await alice.send('POST', ratings, { value: 1 })).status, 403);
  const mona = await logIn(await world, 'mona', 'mona-password');
  const created = await mona.send('POST', ratings, { value: 1 });
  assert.equal(created.status, 201, created.text);
  assertShape(created.body, Rating, 'rating');
  const id = (created.body as Json).id as number;
  const changed = await mona.send('PATCH', `${ratings}${id}/`, { value: -1 });
  assert.equal(changed.status, 200);
  assertShape(changed.body, Rating, 'changed rating');
  assert.equal(((changed.body as Json).meta_info as Json).negative_ratings_on_same_object, 1);
  const after = (await mona.get('/api/modules/1/ideas/1')).body as Json;
  assert.deepEqual(after.user_rating, { id, value: -1 });
  const taken = await mona.delete(`${ratings}${id}/`);
  assert.equal(taken.status, 200, taken.text);
  assert.equal((taken.body as Json).value, 0);
});

test('idea delete: DELETE with the app\'s JSON headers and no body', async () => {
  const t = await world;
  const alice = await logIn(t, 'alice', 'alice-password');
  const created = await alice.sendForm('POST', '/api/modules/1/ideas/', [['name', 'Kurzlebig'], ['description', 'd'], ['category', '1']]);
  assert.equal(created.status, 201, created.text);
  const path = `/api/modules/1/ideas/${String((created.body as Json).pk)}/`;
  const bob = await logIn(t, 'bob', 'bob-password');
  assert.equal((await bob.delete(path)).status, 403);
  const deleted = await alice.delete(path);
  assert.equal(deleted.status, 204, deleted.text);
  assert.equal((await alice.get(path)).status, 404);
});
