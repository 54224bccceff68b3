import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Fixture } from '../../../src/cli/fixture-schema.js';
import { daysFromNow, load, tokenHeader } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';

type Json = Record<string, unknown>;

const collect = (start: string | null, end: string | null, name = 'Collect') => ({ type: 'a4_candy_ideas:collect', name, description: `${name} phase`, start_date: start, end_date: end });

function world(): Fixture {
  return {
    users: [
      { id: 1, username: 'user', email: 'user@example.org', language: 'en' },
      { id: 2, username: 'initiator', email: 'initiator@example.org', language: 'en' },
      { id: 3, username: 'leserin', email: 'leserin@example.org', language: 'de' },
    ],
    organisations: [{ id: 1, slug: 'org', name: 'Org', enable_geolocation: true, initiators: [2] }],
    projects: [
      { id: 1, slug: 'app', name: 'App project', organisation: 1, is_app_accessible: true },
      { id: 2, slug: 'web', name: 'Web only', organisation: 1, is_app_accessible: false },
    ],
    modules: [
      {
        id: 1,
        project: 1,
        name: 'Timeline',
        phases: [
          collect('2022-07-01T15:00:00Z', '2022-07-02T15:00:00Z', 'Past'),
          collect(daysFromNow(-1), daysFromNow(5), 'Active'),
          collect(null, null, 'Undated'),
          { type: 'a4_candy_ideas:rating', name: 'Later', description: '', start_date: '2099-01-01T11:00:00Z', end_date: '2099-02-01T11:00:00Z' },
        ],
        categories: [
          { id: 1, name: 'Traffic' },
          { id: 2, name: 'Parks' },
        ],
        labels: [{ id: 1, name: 'Urgent' }],
      },
      { id: 2, project: 1, name: 'Rating', phases: [{ type: 'a4_candy_ideas:rating', start_date: daysFromNow(-1), end_date: daysFromNow(5) }] },
      { id: 3, project: 1, name: 'Poll', blueprint_type: 'PO', phases: [{ type: 'a4polls:voting', start_date: daysFromNow(-1), end_date: daysFromNow(5) }] },
      { id: 4, project: 1, name: 'Draft', is_draft: true, phases: [collect(daysFromNow(-1), daysFromNow(5))] },
      { id: 5, project: 2, name: 'Web', phases: [collect(daysFromNow(-1), daysFromNow(5))] },
      { id: 6, project: 1, name: 'Over', phases: [collect(daysFromNow(-5), daysFromNow(-1))] },
    ],
  };
}

test('GET /api/app-modules/', async (t) => {
  const { db, request } = await createTestApp();
  await load(db, world());
  const user = await tokenHeader(db, 1);
  const initiator = await tokenHeader(db, 2);
  const get = async (url: string, headers: Record<string, string> = user) => request({ method: 'GET', url, headers });

  await t.test('anonymous callers get 401', async () => {
    assert.equal((await get('/api/app-modules/', {})).status, 401);
    assert.equal((await get('/api/app-modules/1/', {})).status, 401);
  });

  await t.test('only published modules of app-accessible projects; others and bad ids are 404', async () => {
    const list = (await get('/api/app-modules/')).body as Json[];
    assert.deepEqual(
      list.map((m) => m.pk),
      [1, 2, 3, 6],
    );
    for (const url of ['/api/app-modules/4/', '/api/app-modules/5/', '/api/app-modules/999/', '/api/app-modules/abc/', '/api/app-modules/4294967296/']) {
      assert.equal((await get(url)).status, 404, url);
    }
  });

  await t.test('every AppModuleSerializer field: active, future (undated last) and past phases with datetime displays', async () => {
    const module = (await get('/api/app-modules/1/')).body as Json;
    assert.deepEqual(Object.keys(module), ['pk', 'active_phase', 'future_phases', 'past_phases', 'labels', 'categories', 'has_idea_adding_permission']);
    assert.equal((module.active_phase as Json).name, 'Active');
    assert.deepEqual(Object.keys(module.active_phase as Json), ['name', 'description', 'type', 'start_date', 'end_date']);
    assert.deepEqual(
      (module.future_phases as Json[]).map((p) => [p.name, p.start_date]),
      [
        ['Later', 'Jan. 1, 2099, noon'],
        ['Undated', null],
      ],
    );
    assert.deepEqual(module.past_phases, [
      { name: 'Past', description: 'Past phase', type: 'a4_candy_ideas:collect', start_date: 'July 1, 2022, 5 p.m.', end_date: 'July 2, 2022, 5 p.m.' },
    ]);
    assert.deepEqual(module.labels, [{ id: 1, name: 'Urgent' }]);
    assert.deepEqual(module.categories, [
      { id: 1, name: 'Traffic' },
      { id: 2, name: 'Parks' },
    ]);
    const german = (await get('/api/app-modules/1/', await tokenHeader(db, 3))).body as Json;
    assert.equal((german.past_phases as Json[])[0].start_date, '1. Juli 2022, 17:00');
  });

  await t.test('labels and categories are false, phase lists null when there are none', async () => {
    const module = (await get('/api/app-modules/2/')).body as Json;
    assert.deepEqual([module.labels, module.categories, module.future_phases, module.past_phases], [false, false, null, null]);
    const over = (await get('/api/app-modules/6/')).body as Json;
    assert.equal(over.active_phase, null);
    assert.equal((over.past_phases as Json[]).length, 1);
  });

  await t.test('has_idea_adding_permission: a user during a collect phase only; the initiator always', async () => {
    const flags = async (headers: Record<string, string>) =>
      Object.fromEntries(((await get('/api/app-modules/', headers)).body as Json[]).map((m) => [m.pk, m.has_idea_adding_permission]));
    assert.deepEqual(await flags(user), { 1: true, 2: false, 3: false, 6: false });
    assert.deepEqual(await flags(initiator), { 1: true, 2: true, 3: true, 6: true });
  });
});

test('app-modules: the number of SQL statements does not grow with the number of modules', async () => {
  const { db, request, database } = await createTestApp();
  const base = world();
  await load(db, { ...base, modules: [] });
  const module = (id: number) => ({
    id,
    project: 1,
    name: `m${id}`,
    phases: [collect(daysFromNow(-1), daysFromNow(5)), collect(daysFromNow(5), daysFromNow(9))],
    categories: [{ id, name: 'c' }],
    labels: [{ id, name: 'l' }],
  });
  const headers = await tokenHeader(db, 1);
  const statements = async () => {
    const before = database.stats.queries;
    const response = await request({ method: 'GET', url: '/api/app-modules/', headers });
    return { count: database.stats.queries - before, items: (response.body as Json[]).length };
  };
  await load(db, { modules: [module(1)] });
  const one = await statements();
  await load(db, { modules: Array.from({ length: 49 }, (_, i) => module(i + 2)) });
  const fifty = await statements();
  assert.deepEqual([one.items, fifty.items], [1, 50]);
  assert.equal(fifty.count, one.count);
});
