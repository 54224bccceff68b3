import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { administrativeDistricts, modules, projects, users } from '../../src/db/schema/index.js';
import { mapPresetCategories, mapPresets } from '../../src/features/places/schema.js';
import { basicWorldWith, daysFromNow, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';
import { Browser } from '../me/accounts/client.js';

/*
 * Map presets and administrative districts (issue 34.6, 37.11): the operator keeps them in the
 * back-office, an initiator takes a preset as a map module's area and a district for a project, the
 * start page filters by district.
 */

const AREA = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[[13, 52], [14, 52], [14, 53], [13, 53], [13, 52]]] } }] };
const geojson = (data: unknown) => ({ name: 'area_file', filename: 'area.geojson', type: 'application/geo+json', data: Buffer.from(typeof data === 'string' ? data : JSON.stringify(data)) });

async function world() {
  const t = await createTestApp();
  await load(
    t.db,
    basicWorldWith({
      projects: [{ id: 2, slug: 'second', name: 'Second project', description: 'Another one', organisation: 1 }],
      modules: [{ id: 2, slug: 'map-module', project: 1, name: 'Map ideas', blueprint_type: 'MBS', phases: [{ type: 'a4_candy_mapideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(10) }] }],
    }),
  );
  const as = async (username: string, lang = 'en') => {
    const browser = new Browser(t.app, { 'accept-language': lang });
    assert.equal((await browser.login(username, `${username}-password`)).status, 302);
    return browser;
  };
  return { ...t, as };
}

/** The error list beside a field: its id is the field's, and the field points at it. */
const errorBeside = (html: string, field: string) => new RegExp(`aria-describedby="[^"]*id_${field}_errors[^"]*"[^]*?<ul class="errorlist" id="id_${field}_errors"><li>([^<]*)</li>`).exec(html)?.[1];

test('the operator keeps area presets: a category, a preset from an uploaded GeoJSON file; bad input comes back beside its field, nothing saved', async () => {
  const { db, as } = await world();
  const admin = await as('admin');
  const list = await admin.get('/backoffice/maps/');
  assert.equal(list.status, 200);
  assert.match(list.text, /<h2>Area presets<\/h2>/);

  assert.equal((await admin.post('/backoffice/maps/categories/', { name: '  ' })).status, 400);
  assert.equal(await db.$count(mapPresetCategories), 0);
  assert.equal((await admin.post('/backoffice/maps/categories/', { name: 'Districts' })).status, 302);
  const [category] = await db.select().from(mapPresetCategories);

  const empty = await admin.postMultipart('/backoffice/maps/presets/create/', { name: '', category: String(category.id), area: '' });
  assert.equal(empty.status, 400);
  assert.equal(errorBeside(empty.text, 'name'), 'This field is required.');
  assert.equal(errorBeside(empty.text, 'area'), 'This field is required.');
  const broken = await admin.postMultipart('/backoffice/maps/presets/create/', { name: 'Old town', category: '', area: '' }, geojson('{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [13, 52]}}]}'));
  assert.equal(broken.status, 400);
  assert.match(errorBeside(broken.text, 'area_file') ?? '', /This is not a valid area/);
  const notJson = await admin.postMultipart('/backoffice/maps/presets/create/', { name: 'Old town', category: '', area: '' }, geojson('\u0000\u00ff not json'));
  assert.equal(notJson.status, 400);
  const strayCategory = await admin.postMultipart('/backoffice/maps/presets/create/', { name: 'Old town', category: '999', area: JSON.stringify(AREA) });
  assert.equal(strayCategory.status, 400);
  assert.equal(errorBeside(strayCategory.text, 'category'), 'Select a valid choice.');
  assert.equal(await db.$count(mapPresets), 0, 'nothing half-saved');

  assert.equal((await admin.postMultipart('/backoffice/maps/presets/create/', { name: 'Old town', category: String(category.id), area: '' }, geojson(AREA))).status, 302);
  const [preset] = await db.select().from(mapPresets);
  assert.deepEqual([preset.name, preset.categoryId, preset.area], ['Old town', category.id, AREA]);
  const edit = await admin.get(`/backoffice/maps/presets/${preset.id}/`);
  assert.equal(edit.status, 200);
  assert.match(edit.text, /Edit area preset/);
  assert.equal((await admin.postMultipart(`/backoffice/maps/presets/${preset.id}/`, { name: 'Old town centre', category: '', area: JSON.stringify(AREA) })).status, 302);
  assert.equal((await db.select().from(mapPresets))[0].name, 'Old town centre');

  // Deleting the category keeps its presets (a+'s SET_NULL); unknown ids are 404.
  assert.equal((await admin.post(`/backoffice/maps/categories/${category.id}/delete/`, {})).status, 302);
  assert.equal((await db.select().from(mapPresets))[0].categoryId, null);
  assert.equal((await admin.get('/backoffice/maps/presets/999/')).status, 404);
  assert.equal((await admin.post('/backoffice/maps/presets/999/delete/', {})).status, 404);
  assert.equal((await admin.get('/backoffice/maps/elsewhere/create/')).status, 404);
  assert.equal((await admin.post(`/backoffice/maps/presets/${preset.id}/delete/`, {})).status, 302);
  assert.equal(await db.$count(mapPresets), 0);
});

test('only superusers reach the back-office’s map pages; an initiator gets 403, a visitor the login page', async () => {
  const { as, app } = await world();
  const initiator = await as('initiator');
  assert.equal((await initiator.get('/backoffice/maps/')).status, 403);
  assert.equal((await initiator.postMultipart('/backoffice/maps/districts/create/', { name: 'Mitte', short_code: '', area: '' })).status, 403);
  const visitor = new Browser(app);
  assert.equal((await visitor.get('/backoffice/maps/districts/create/')).status, 302);
});

test('an initiator takes one of the operator’s presets as a map module’s area; the choice lists them by category, in German too', async () => {
  const { db, as } = await world();
  const [category] = await db.insert(mapPresetCategories).values({ name: 'Stadtteile' }).returning();
  const [preset] = await db.insert(mapPresets).values({ name: 'Altstadt', categoryId: category.id, area: AREA as never }).returning();
  await db.insert(mapPresets).values({ name: 'Ohne Gruppe', area: AREA as never });
  await db.update(users).set({ language: 'de' }).where(eq(users.username, 'initiator'));
  const initiator = await as('initiator', 'de');
  const form = await initiator.get('/org/dashboard/modules/map-module/area_settings/');
  assert.equal(form.status, 200);
  assert.match(form.text, /<option value(="")?>Keine Vorlage<\/option><option value="\d+">Ohne Gruppe<\/option><optgroup label="Stadtteile"><option value="\d+">Altstadt<\/option><\/optgroup>/);
  const stray = await initiator.post('/org/dashboard/modules/map-module/area_settings/', { area: '', preset: '999' });
  assert.equal(stray.status, 400);
  assert.equal(errorBeside(stray.text, 'preset'), 'Bitte wählen Sie eine gültige Option.');
  assert.equal((await initiator.post('/org/dashboard/modules/map-module/area_settings/', { area: '', preset: String(preset.id) })).status, 302);
  const [module] = await db.select({ area: modules.area }).from(modules).where(eq(modules.id, 2));
  assert.deepEqual(module.area, AREA);
});

test('districts: the operator adds them, an initiator picks one in the basic settings, the start page filters by it; deleting one clears it', async () => {
  const { db, as, app } = await world();
  const admin = await as('admin');
  const longCode = await admin.postMultipart('/backoffice/maps/districts/create/', { name: 'Mitte', short_code: 'mit', area: '' });
  assert.equal(longCode.status, 400);
  assert.equal(errorBeside(longCode.text, 'short_code'), 'Ensure this field has no more than 2 characters.');
  assert.equal((await admin.postMultipart('/backoffice/maps/districts/create/', { name: 'Mitte', short_code: 'mi', area: '' })).status, 302, 'the area is optional');
  assert.equal((await admin.postMultipart('/backoffice/maps/districts/create/', { name: 'Nord', short_code: '', area: JSON.stringify(AREA) })).status, 302);
  const [mitte, nord] = await db.select().from(administrativeDistricts).orderBy(administrativeDistricts.name);
  assert.deepEqual([mitte.name, mitte.area, nord.area], ['Mitte', null, AREA]);

  const initiator = await as('initiator');
  const basic = await initiator.get('/org/dashboard/projects/project/basic/');
  assert.match(basic.text, /<select id="id_administrative_district" name="administrative_district"[^>]*><option value(="")? selected>No district<\/option><option value="\d+">Mitte<\/option>/);
  const fields = { name: 'Project', description: 'About the project', access: 'PUBLIC' };
  const stray = await initiator.post('/org/dashboard/projects/project/basic/', { ...fields, administrative_district: '999' });
  assert.equal(stray.status, 400);
  assert.equal(errorBeside(stray.text, 'administrative_district'), 'Select a valid choice.');
  assert.equal((await initiator.post('/org/dashboard/projects/project/basic/', { ...fields, administrative_district: String(mitte.id) })).status, 302);
  assert.equal((await db.select().from(projects).where(eq(projects.id, 1)))[0].administrativeDistrictId, mitte.id);
  await db.update(projects).set({ isDraft: false });

  const visitor = new Browser(app);
  const all = await visitor.get('/');
  assert.match(all.text, /<label for="id_district">District<\/label>/);
  assert.match(all.text, /Second project/);
  const filtered = await visitor.get(`/?district=${mitte.id}`);
  assert.match(filtered.text, /1 project found/);
  assert.doesNotMatch(filtered.text, /Second project/);
  assert.match((await visitor.get(`/?district=${nord.id}`)).text, /No project matches this search/);
  assert.equal((await visitor.get('/?district=x')).status, 400);

  assert.equal((await admin.post(`/backoffice/maps/districts/${mitte.id}/delete/`, {})).status, 302);
  assert.equal((await db.select().from(projects).where(eq(projects.id, 1)))[0].administrativeDistrictId, null, 'the project keeps no district');
  assert.match((await visitor.get(`/?district=${mitte.id}`)).text, /No project matches this search/, 'the kept start page follows the change');
});

test('the example presets (the three German bounding boxes) are a loaddata file, not code', async () => {
  const { db } = await createTestApp();
  await load(db, JSON.parse(readFileSync(new URL('../../docs/examples/map-presets.json', import.meta.url), 'utf8')));
  const names = (await db.select({ name: mapPresets.name }).from(mapPresets).orderBy(mapPresets.id)).map((p) => p.name);
  assert.deepEqual(names, ['Germany (bounding box)', 'Berlin (bounding box)', 'Hamburg (bounding box)']);
});
