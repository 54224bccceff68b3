import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { mapIdeas } from '../../../src/features/mapideas/schema.js';
import { basicWorldWith, daysFromNow, load } from '../../fixtures.js';
import { createTestApp, type TestApp } from '../../helpers.js';
import { assertAccessible, chromiumMissing, launchChromium, logInAs, newLocalePage } from '../../chromium.js';

// A citizen places a map idea by clicking on the map (Leaflet served by Allmende; the tiles answered locally, no network).
let t: TestApp;
let chromium: Browser;
let base: string;
const AREA = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[[13, 52], [14, 52], [14, 53], [13, 53], [13, 52]]] } }] };
const TILE = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

if (!chromiumMissing) {
  t = await createTestApp();
  await load(
    t.db,
    basicWorldWith({
      modules: [{ id: 2, slug: 'map-module', project: 1, name: 'Map ideas', blueprint_type: 'MBS', area: AREA, phases: [{ type: 'a4_candy_mapideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(10) }] }],
    }),
  );
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
}

before(async () => {
  if (!chromiumMissing) chromium = await launchChromium();
});

after(async () => {
  await chromium?.close();
});

test('a citizen clicks on the map to place an idea; the form, the item page and the module page are accessible', { skip: chromiumMissing }, async () => {
  const page = await newLocalePage(chromium);
  await page.route(/tile\.openstreetmap\.org/, (route) => route.fulfill({ status: 200, contentType: 'image/png', body: TILE }));
  await logInAs(page, base, 'user');
  await page.goto(`${base}/org/mapideas/create/module/map-module/`);
  await page.locator('.map.map-ready .leaflet-container, .map.leaflet-container').first().waitFor();
  await assertAccessible(page, 'the map idea form');
  await page.locator('.map.leaflet-container').scrollIntoViewIfNeeded();
  const box = await page.locator('.map.leaflet-container').boundingBox();
  assert.ok(box);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  const lat = Number(await page.getByLabel('Latitude').inputValue());
  const lng = Number(await page.getByLabel('Longitude').inputValue());
  assert.ok(lat > 52 && lat < 53 && lng > 13 && lng < 14, `the click set a point inside the area: ${lat}, ${lng}`);
  await page.getByLabel('Title').fill('Bench by the river');
  await page.locator('[contenteditable="true"]').first().fill('A place to rest');
  await page.getByLabel('Label of the place').fill('River bank');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { name: 'Bench by the river' }).waitFor();
  const [row] = await t.db.select().from(mapIdeas).where(eq(mapIdeas.name, 'Bench by the river'));
  assert.ok(Math.abs(row.point.geometry.coordinates[1] - lat) < 1e-5);
  await page.locator('.map-small.leaflet-container').waitFor();
  await assertAccessible(page, 'the map idea page');
  await page.goto(`${base}/org/projects/module/map-module/`);
  await page.locator('.leaflet-marker-icon').first().waitFor();
  await assertAccessible(page, 'the module page with the map');
});

test('without a reachable tile server the map still works: it says so, a click sets the place, the fields are there (issue 37.11)', { skip: chromiumMissing }, async () => {
  const page = await newLocalePage(chromium);
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort('connectionrefused'));
  await logInAs(page, base, 'user');
  await page.goto(`${base}/org/mapideas/create/module/map-module/`);
  const note = page.locator('.map-note[role="status"]');
  await note.waitFor();
  assert.match(await note.innerText(), /The map background cannot be loaded\. Clicking the map still sets the place/);
  await assertAccessible(page, 'the map idea form without tiles');
  await page.locator('.map.leaflet-container').scrollIntoViewIfNeeded();
  const box = await page.locator('.map.leaflet-container').boundingBox();
  assert.ok(box);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  const lat = Number(await page.getByLabel('Latitude').inputValue());
  const lng = Number(await page.getByLabel('Longitude').inputValue());
  assert.ok(lat > 52 && lat < 53 && lng > 13 && lng < 14, `the click set a point inside the area: ${lat}, ${lng}`);
  assert.equal(await note.count(), 1, 'said once, however many tiles fail');
  assert.ok(await page.getByLabel('Label of the place').isVisible(), 'the place is named (an address, a landmark) in a field of its own');
});
