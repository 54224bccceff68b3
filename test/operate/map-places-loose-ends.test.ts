import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import type { Db } from '../../src/db/client.js';
import { administrativeDistricts, modules, projects, users } from '../../src/db/schema/index.js';
import { mapPresetCategories, mapPresets } from '../../src/features/places/schema.js';
import { basicWorldWith, daysFromNow, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';
import { Browser } from '../me/accounts/client.js';

/*
 * The loose ends of map places (issues 34.6, 35): a district, a preset or a preset category deleted
 * by someone else between a form's check and its save gives the form again with the message beside
 * the field (400), never a 500; the operator renames preset categories.
 */

const AREA = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[[13, 52], [14, 52], [14, 53], [13, 53], [13, 52]]] } }] };

async function world() {
  const t = await createTestApp();
  await load(
    t.db,
    basicWorldWith({ modules: [{ id: 2, slug: 'map-module', project: 1, name: 'Map ideas', blueprint_type: 'MBS', phases: [{ type: 'a4_candy_mapideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(10) }] }] }),
  );
  const as = async (username: string, lang = 'en') => {
    const browser = new Browser(t.app, { 'accept-language': lang });
    assert.equal((await browser.login(username, `${username}-password`)).status, 302);
    return browser;
  };
  return { ...t, as };
}

/**
 * Runs `meanwhile` before every transaction `request` opens: what another request did after the
 * form's checks and before its save (idempotent, as a delete is).
 */
async function withDeletionMeanwhile<T>(db: Db, meanwhile: () => Promise<unknown>, request: () => Promise<T>): Promise<T> {
  const original = db.transaction;
  db.transaction = (async (...args: Parameters<typeof original>) => {
    await meanwhile();
    return original.apply(db, args);
  }) as typeof original;
  try {
    return await request();
  } finally {
    db.transaction = original;
  }
}

const errorBeside = (html: string, field: string) => new RegExp(`<ul class="errorlist" id="id_${field}_errors"><li>([^<]*)</li>`).exec(html)?.[1];

test('a district deleted between the check and the save of the basic settings: the form again, the message beside the district (400), nothing saved', async () => {
  const { db, as } = await world();
  const [mitte] = await db.insert(administrativeDistricts).values({ name: 'Mitte', shortCode: 'mi' }).returning();
  await db.update(users).set({ language: 'de' }).where(eq(users.username, 'initiator'));
  const initiator = await as('initiator', 'de');
  const fields = { name: 'Renamed project', description: 'About the project', access: 'PUBLIC', administrative_district: String(mitte.id) };
  const answer = await withDeletionMeanwhile(
    db,
    () => db.delete(administrativeDistricts).where(eq(administrativeDistricts.id, mitte.id)),
    () => initiator.post('/org/dashboard/projects/project/basic/', fields),
  );
  assert.equal(answer.status, 400);
  assert.equal(errorBeside(answer.text, 'administrative_district'), 'Bitte wählen Sie eine gültige Option.', 'shown although no district is left');
  const [project] = await db.select().from(projects).where(eq(projects.id, 1));
  assert.notEqual(project.name, 'Renamed project', 'nothing half-saved');
  assert.equal(project.administrativeDistrictId, null);
});

test('a preset category deleted between the check and the save of a preset: the form again, the message beside the category (400)', async () => {
  const { db, as } = await world();
  const [category] = await db.insert(mapPresetCategories).values({ name: 'Stadtteile' }).returning();
  const admin = await as('admin');
  const answer = await withDeletionMeanwhile(
    db,
    () => db.delete(mapPresetCategories).where(eq(mapPresetCategories.id, category.id)),
    () => admin.postMultipart('/backoffice/maps/presets/create/', { name: 'Altstadt', category: String(category.id), area: JSON.stringify(AREA) }),
  );
  assert.equal(answer.status, 400);
  assert.equal(errorBeside(answer.text, 'category'), 'Select a valid choice.');
  assert.equal(await db.$count(mapPresets), 0);
});

test('a preset deleted after the Area form was shown: its choice is refused beside the field; deleted during the save, the area it gave is kept (a copy)', async () => {
  const { db, as } = await world();
  const [preset] = await db.insert(mapPresets).values({ name: 'Altstadt', area: AREA as never }).returning();
  const initiator = await as('initiator');
  const url = '/org/dashboard/modules/map-module/area_settings/';
  const during = await withDeletionMeanwhile(
    db,
    () => db.delete(mapPresets).where(eq(mapPresets.id, preset.id)),
    () => initiator.post(url, { area: '', preset: String(preset.id) }),
  );
  assert.equal(during.status, 302);
  assert.deepEqual((await db.select({ area: modules.area }).from(modules).where(eq(modules.id, 2)))[0].area, AREA);
  const after = await initiator.post(url, { area: '', preset: String(preset.id) });
  assert.equal(after.status, 400);
  assert.equal(errorBeside(after.text, 'preset'), 'Select a valid choice.');
});

test('the operator renames a preset category; an empty name comes back beside the field; unknown ids are 404; others get 403', async () => {
  const { db, as } = await world();
  const [category] = await db.insert(mapPresetCategories).values({ name: 'Stadtteile' }).returning();
  await db.insert(mapPresets).values({ name: 'Altstadt', categoryId: category.id, area: AREA as never });
  const admin = await as('admin');
  const list = await admin.get('/backoffice/maps/');
  assert.match(list.text, new RegExp(`<a href="/backoffice/maps/categories/${category.id}/" aria-label="Rename: Stadtteile">Rename</a>`));
  const form = await admin.get(`/backoffice/maps/categories/${category.id}/`);
  assert.equal(form.status, 200);
  assert.match(form.text, /<h1>Rename preset category<\/h1>/);
  assert.match(form.text, /value="Stadtteile"/);
  const empty = await admin.post(`/backoffice/maps/categories/${category.id}/`, { name: ' ' });
  assert.equal(empty.status, 400);
  assert.ok(errorBeside(empty.text, 'name'));
  assert.equal((await admin.post(`/backoffice/maps/categories/${category.id}/`, { name: ' Bezirke ' })).status, 302);
  assert.equal((await db.select().from(mapPresetCategories))[0].name, 'Bezirke');
  assert.match((await admin.get('/backoffice/maps/')).text, /<td>Bezirke<\/td>/);
  assert.equal((await admin.get('/backoffice/maps/categories/999/')).status, 404);
  assert.equal((await admin.post('/backoffice/maps/categories/999/', { name: 'X' })).status, 404);
  const initiator = await as('initiator');
  assert.equal((await initiator.post(`/backoffice/maps/categories/${category.id}/`, { name: 'Mine' })).status, 403);
  assert.equal((await db.select().from(mapPresetCategories))[0].name, 'Bezirke');
});

test("the project page shows the project's district (en, de); renamed, the page follows; without one, nothing", async () => {
  const { db, app } = await world();
  await db.update(projects).set({ isDraft: false }).where(eq(projects.id, 1));
  const visitor = new Browser(app);
  assert.doesNotMatch((await visitor.get('/org/projects/project/')).text, /class="project-district"/);
  const [mitte] = await db.insert(administrativeDistricts).values({ name: 'Mitte', shortCode: 'mi' }).returning();
  await db.update(projects).set({ administrativeDistrictId: mitte.id }).where(eq(projects.id, 1));
  assert.match((await visitor.get('/org/projects/project/')).text, /<p class="project-district">District: Mitte<\/p>/);
  assert.match((await new Browser(app, { 'accept-language': 'de' }).get('/org/projects/project/')).text, /<p class="project-district">Stadtteil: Mitte<\/p>/);
  const admin = new Browser(app);
  assert.equal((await admin.login('admin', 'admin-password')).status, 302);
  assert.equal((await admin.postMultipart(`/backoffice/maps/districts/${mitte.id}/`, { name: 'Mitte-Nord', short_code: 'mi', area: '' })).status, 302);
  assert.match((await visitor.get('/org/projects/project/')).text, /<p class="project-district">District: Mitte-Nord<\/p>/, 'a kept page follows the rename');
});
