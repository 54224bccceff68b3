import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertEach, assertShape, appClient, type Json, logIn } from './client.js';
import { AppModule, AppProject, Idea } from './shapes.js';
import { appWorldApp } from './world.js';

const world = appWorldApp();

test('login: the app posts JSON with its headers and keeps the key; a wrong password is a 400 with non_field_errors', async () => {
  const t = await world;
  const wrong = await appClient(t).send('POST', '/api/login/', { username: 'alice', password: 'nope' });
  assert.equal(wrong.status, 400);
  assert.ok(Array.isArray((wrong.body as Json).non_field_errors));
  const alice = await logIn(t, 'alice', 'alice-password');
  assert.match(String(alice.token), /^[0-9a-f]{40}$/);
  assert.equal((await appClient(t).get('/api/app-projects/')).status, 401, 'anonymous explore');
});

test('explore: the project list with every field its cards read', async () => {
  const alice = await logIn(await world, 'alice', 'alice-password');
  const response = await alice.get('/api/app-projects/');
  assert.equal(response.status, 200);
  assertEach(response.body, AppProject, 'projects');
  const [project] = response.body as Json[];
  assert.equal(project.slug, 'radwege');
  assert.deepEqual((project.point as { geometry: { coordinates: number[] } }).geometry.coordinates, [13.405, 52.52]);
  assert.equal(project.single_idea_collection_module, 1);
  assert.deepEqual(project.published_modules, [1]);
});

test('project: a deep link without the trailing slash opens the project; an unknown slug is 404', async () => {
  const alice = await logIn(await world, 'alice', 'alice-password');
  for (const path of ['/api/app-projects/radwege', '/api/app-projects/radwege/']) {
    const response = await alice.get(path);
    assert.equal(response.status, 200, path);
    assertShape(response.body, AppProject, path);
    assert.match(String((response.body as Json).participation_time_display), /verbleibend/, 'German, as alice reads it');
  }
  assert.equal((await alice.get('/api/app-projects/nirgendwo')).status, 404);
});

test('module: phases, categories, labels and whether the user may add an idea', async () => {
  const alice = await logIn(await world, 'alice', 'alice-password');
  const response = await alice.get('/api/app-modules/1/');
  assert.equal(response.status, 200);
  assertShape(response.body, AppModule, 'module');
  const module = response.body as Json;
  assert.equal((module.active_phase as Json).type, 'a4_candy_ideas:collect');
  assert.equal((module.future_phases as unknown[]).length, 1);
  assert.equal(module.past_phases, null);
  assert.deepEqual(module.categories, [{ id: 1, name: 'Sicherheit' }, { id: 2, name: 'Neue Wege' }]);
  assert.equal(module.has_idea_adding_permission, true);
  assert.equal((await alice.get('/api/app-modules/1')).status, 200);
});

test('ideas list and idea screen: every field, the content type for comments and ratings, the permissions', async () => {
  const alice = await logIn(await world, 'alice', 'alice-password');
  const bob = await logIn(await world, 'bob', 'bob-password');
  const list = await alice.get('/api/modules/1/ideas/');
  assert.equal(list.status, 200);
  assertEach(list.body, Idea, 'ideas');
  const detail = await alice.get('/api/modules/1/ideas/1/');
  assertShape(detail.body, Idea, 'idea');
  const idea = detail.body as Json;
  assert.equal(idea.description, 'Poller an der Hauptstraße');
  assert.equal(idea.comment_count, 2);
  assert.deepEqual(idea.category, { id: 1, name: 'Sicherheit' });
  assert.equal(idea.has_commenting_permission, true);
  assert.deepEqual([idea.has_changing_permission, idea.has_deleting_permission], [false, false], 'not her idea');
  const own = (await bob.get('/api/modules/1/ideas/1')).body as Json;
  assert.deepEqual([own.has_changing_permission, own.has_deleting_permission], [true, true], 'bob\'s own idea');
  const types = (await alice.get('/api/contenttypes/')).body as { id: number; model: string }[];
  assert.equal(idea.content_type, types.find((ct) => ct.model === 'idea')?.id);
});
