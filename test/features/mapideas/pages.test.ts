import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { modules } from '../../../src/db/schema/index.js';
import { proposals } from '../../../src/features/budgeting/schema.js';
import { mapIdeas } from '../../../src/features/mapideas/schema.js';
import { ideaPath } from '../../../src/core/urls.js';
import { loadFixture } from '../../../src/cli/loaddata.js';
import { Browser } from '../../me/accounts/client.js';
import { basicWorldWith, daysFromNow, load, tokenHeader } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';

const square = (x0: number, y0: number, x1: number, y1: number) => [[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]];
const AREA = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: square(13, 52, 14, 53) } }] };
const point = (lng: number, lat: number) => ({ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [lng, lat] } });
const MAPIDEA = 12;
const PROPOSAL = 13;

const t = await createTestApp();
await load(
  t.db,
  basicWorldWith({
    map_presets: [{ id: 4, name: 'Old town', area: AREA }],
    projects: [{ id: 2, slug: 'other-project', name: 'Other', organisation: 1 }],
    modules: [
      {
        id: 2,
        slug: 'map-module',
        project: 1,
        name: 'Map ideas',
        blueprint_type: 'MBS',
        area: AREA,
        phases: [{ type: 'a4_candy_mapideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(10) }],
        categories: [{ id: 3, name: 'Benches' }],
        labels: [{ id: 2, name: 'Quick' }],
      },
      {
        id: 3,
        slug: 'budget-module',
        project: 2,
        name: 'Budget',
        blueprint_type: 'PB',
        area: AREA,
        phases: [{ type: 'a4_candy_budgeting:request', start_date: daysFromNow(-1), end_date: daysFromNow(10) }],
      },
    ],
  }),
);

async function as(username: string) {
  const browser = new Browser(t.app);
  assert.equal((await browser.login(username, `${username}-password`)).status, 302);
  return browser;
}

test('a citizen places a map idea: outside the area the form comes back with the message beside the field; inside it is saved', async () => {
  const user = await as('user');
  const form = await user.get('/org/mapideas/create/module/map-module/');
  assert.equal(form.status, 200);
  assert.match(form.text, /id="id_lat"/);
  assert.match(form.text, /id="id_lng"/);
  assert.match(form.text, /data-map=/);
  const base = { name: 'A bench', description: 'By the river', category: '3', labels: '2', point_label: 'River bank' };
  const outside = await user.postMultipart('/org/mapideas/create/module/map-module/', { ...base, lat: '48.1', lng: '11.5' });
  assert.equal(outside.status, 400);
  assert.match(outside.text, /id="id_point_errors"[^>]*><li>The point is outside the area of this module\./);
  assert.match(outside.text, /value="48.1"/);
  const invalid = await user.postMultipart('/org/mapideas/create/module/map-module/', { ...base, lat: '95', lng: 'x' });
  assert.equal(invalid.status, 400);
  assert.match(invalid.text, /id="id_point_errors"[^>]*><li>This is not a valid point/);
  const created = await user.postMultipart('/org/mapideas/create/module/map-module/', { ...base, lat: '52.5', lng: '13.4' });
  assert.equal(created.status, 302);
  const [row] = await t.db.select().from(mapIdeas).where(eq(mapIdeas.name, 'A bench'));
  assert.deepEqual(row.point.geometry.coordinates, [13.4, 52.5]);
  assert.equal(row.pointLabel, 'River bank');
  assert.equal(created.location, ideaPath('org', row.created, row.id, 'mapideas'));
  const page = await user.get(created.location ?? '');
  assert.equal(page.status, 200);
  assert.match(page.text, /River bank/);
  assert.match(page.text, /class="map map-small"/);
  assert.match(page.text, new RegExp(`action="/comments/on/mapidea/${row.id}/"`));
  const posted = await user.post(`/comments/on/mapidea/${row.id}/`, { comment: 'Good spot' });
  assert.equal(posted.status, 302);
  assert.match(posted.location ?? '', new RegExp(`^${created.location}\\?comment=\\d+`));
  assert.equal((await user.post('/comments/on/comment/1/', { comment: 'x' })).status, 404);

  const module = await user.get('/org/projects/module/map-module/');
  assert.match(module.text, new RegExp(`<a href="${created.location}">A bench</a>`));
  assert.match(module.text, /Map of the ideas/);
  assert.match(module.text, /13.4/);
  const filtered = await user.get('/org/projects/module/map-module/?category=3&label=2&ordering=-comment_count');
  assert.equal(filtered.status, 200);
  assert.match(filtered.text, /A bench/);

  // The owner edits the place: outside the area is refused again, inside it moves.
  const edit = await user.get(`${created.location}update/`);
  assert.match(edit.text, /value="52.5"/);
  const moved = await user.postMultipart(`${created.location}update/`, { ...base, lat: '52.6', lng: '13.5', right_of_use: '' });
  assert.equal(moved.status, 302);
  const [after] = await t.db.select().from(mapIdeas).where(eq(mapIdeas.id, row.id));
  assert.deepEqual(after.point.geometry.coordinates, [13.5, 52.6]);
});

test('the content-type API lists mapidea and proposal; comments on map ideas and ratings of proposals go through it', async () => {
  const types = await t.request({ method: 'GET', url: '/api/contenttypes/' });
  const list = types.body as { id: number; model: string; app_label: string }[];
  assert.deepEqual(list.find((ct) => ct.model === 'mapidea'), { id: MAPIDEA, app_label: 'a4_candy_mapideas', model: 'mapidea' });
  assert.deepEqual(list.find((ct) => ct.model === 'proposal'), { id: PROPOSAL, app_label: 'a4_candy_budgeting', model: 'proposal' });
  const [idea] = await t.db.insert(mapIdeas).values({ moduleId: 2, creatorId: 5, name: 'API idea', description: 'x', point: point(13.5, 52.5) as never }).returning();
  const comment = await t.request({ method: 'POST', url: `/api/contenttypes/${MAPIDEA}/objects/${idea.id}/comments/`, headers: await tokenHeader(t.db, 4), payload: { comment: 'Nice place' } });
  assert.equal(comment.status, 201);
  const [proposal] = await t.db.insert(proposals).values({ moduleId: 3, creatorId: 5, name: 'A playground', description: 'x', point: point(13.5, 52.5) as never, budget: 5000 }).returning();
  const rating = await t.request({ method: 'POST', url: `/api/contenttypes/${PROPOSAL}/objects/${proposal.id}/ratings/`, headers: await tokenHeader(t.db, 6), payload: { value: 1 } });
  assert.equal(rating.status, 201);
  const notRateable = await t.request({ method: 'POST', url: `/api/contenttypes/${MAPIDEA}/objects/${idea.id}/ratings/`, headers: await tokenHeader(t.db, 4), payload: { value: 1 } });
  assert.equal(notRateable.status, 403, 'the collect phase has no rating');
});

test('a proposal needs a budget of whole euros; the budgeting export has budget, longitude and latitude', async () => {
  const user = await as('other');
  const base = { name: 'Skate park', description: 'For the kids', lat: '52.2', lng: '13.2', point_label: 'Old yard' };
  const refused = await user.postMultipart('/org/budgeting/create/module/budget-module/', { ...base, budget: '-5' });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /id="id_budget_errors"/);
  const created = await user.postMultipart('/org/budgeting/create/module/budget-module/', { ...base, budget: '12.500' });
  assert.equal(created.status, 302);
  const [row] = await t.db.select().from(proposals).where(eq(proposals.name, 'Skate park'));
  assert.equal(row.budget, 12500);
  const page = await user.get(created.location ?? '');
  assert.match(page.text, /12,500 €/);
  const module = await user.get('/org/projects/module/budget-module/');
  assert.match(module.text, /Skate park/);
  assert.match(module.text, /id="id_is_archived_filter"/);

  // The moderator archives it: hidden from the list by default, shown with the filter.
  const moderator = await as('admin');
  const moderated = await moderator.post(`${created.location}moderate/`, { moderator_status: 'ACCEPTED', moderator_feedback_text: 'Good', is_archived: 'on' });
  assert.equal(moderated.status, 302);
  const [archived] = await t.db.select().from(proposals).where(eq(proposals.id, row.id));
  assert.equal(archived.isArchived, true);
  assert.doesNotMatch((await user.get('/org/projects/module/budget-module/')).text, /Skate park/);
  assert.match((await user.get('/org/projects/module/budget-module/?is_archived=true')).text, /Skate park/);

  const initiator = await as('initiator');
  const csv = await initiator.download('/org/dashboard/modules/budget-module/export/proposals.csv');
  assert.equal(csv.status, 200);
  const text = csv.body.toString('utf8');
  assert.match(text, /Longitude/);
  assert.match(text, /Latitude/);
  assert.match(text, /Budget/);
  assert.match(text, /13\.2.*52\.2.*Old yard.*12500/s);
});

test('the area: a map module without one cannot be published; the dashboard saves a valid area or a preset and refuses invalid GeoJSON', async () => {
  await t.db.update(modules).set({ area: null, isDraft: true }).where(eq(modules.id, 2));
  const initiator = await as('initiator');
  const component = await initiator.get('/org/dashboard/modules/map-module/area_settings/');
  assert.equal(component.status, 200);
  assert.match(component.text, /id="id_area"/);
  const bad = await initiator.post('/org/dashboard/modules/map-module/area_settings/', { area: '{"type":"FeatureCollection","features":[]}', preset: '' });
  assert.equal(bad.status, 400);
  assert.match(bad.text, /This is not a valid area/);
  const missingArea = /map-module\/area_settings\/"[^>]*>Area<\/a><span class="missing"/;
  const refused = await initiator.post('/org/dashboard/modules/map-module/state/', { action: 'add' });
  assert.equal(refused.status, 400, 'a map module without an area cannot be added to the project');
  assert.match(refused.text, /Module cannot be added. Required fields are missing./);
  assert.match(refused.text, missingArea);
  const preset = await initiator.post('/org/dashboard/modules/map-module/area_settings/', { area: '', preset: '4' });
  assert.equal(preset.status, 302);
  const [stored] = await t.db.select({ area: modules.area }).from(modules).where(eq(modules.id, 2));
  assert.equal(stored.area?.features[0].geometry.type, 'Polygon');
  const drawn = await initiator.post('/org/dashboard/modules/map-module/area_settings/', { area: JSON.stringify(AREA), preset: '' });
  assert.equal(drawn.status, 302);
  assert.doesNotMatch((await initiator.get('/org/dashboard/modules/map-module/area_settings/')).text, missingArea);
  await t.db.update(modules).set({ isDraft: false }).where(eq(modules.id, 2));
});

test('loaddata takes map ideas and proposals with their ids, and refuses a point outside the area naming the record', async () => {
  const other = await createTestApp();
  const world = basicWorldWith({
    modules: [{ id: 5, project: 1, name: 'Map', blueprint_type: 'MIC', area: AREA, phases: [{ type: 'a4_candy_mapideas:collect', start_date: null, end_date: null }] }],
  });
  await load(other.db, {
    ...world,
    map_ideas: [{ id: 1, module: 5, creator: 5, name: 'Inside', description: 'x', point: point(13.5, 52.5), point_label: 'Here' }],
    ideas: [{ id: 1, module: 1, creator: 5, name: 'Plain idea', description: 'x' }],
    comments: [{ id: 1, creator: 4, target: { type: 'mapidea', id: 1 }, comment: 'Yes' }],
  } as never);
  const [row] = await other.db.select().from(mapIdeas).where(eq(mapIdeas.id, 1));
  assert.equal(row.pointLabel, 'Here');
  await assert.rejects(
    loadFixture(other.db, { map_ideas: [{ id: 2, module: 5, creator: 5, name: 'Outside', description: 'x', point: point(11, 48) }] }, { baseDir: '.' }),
    /map_ideas\[0\]\.point: The point is outside the area of this module\./,
  );
  await assert.rejects(
    loadFixture(other.db, { modules: [{ id: 6, project: 1, name: 'Bad', blueprint_type: 'PB', area: { type: 'Polygon' }, phases: [] }] }, { baseDir: '.' }),
    /modules\[0\]\.area: This is not a valid area/,
  );
});
