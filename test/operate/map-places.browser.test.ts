import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { administrativeDistricts, modules, projects } from '../../src/db/schema/index.js';
import { basicWorldWith, daysFromNow, load } from '../fixtures.js';
import { createTestApp, type TestApp } from '../helpers.js';
import { assertAccessible, chromiumMissing, launchChromium, logInAs, newLocalePage, tabTo } from '../chromium.js';

// The operator's area presets and districts by clicking (issue 34.6): kept in the back-office, picked in the dashboard, filtered on the start page.
let t: TestApp;
let chromium: Browser;
let base: string;
const AREA = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[[13, 52], [14, 52], [14, 53], [13, 53], [13, 52]]] } }] };

if (!chromiumMissing) {
  t = await createTestApp();
  await load(
    t.db,
    basicWorldWith({
      administrative_districts: [{ id: 1, name: 'Mitte', short_code: 'mi' }, { id: 2, name: 'Nord' }],
      projects: [{ id: 2, slug: 'north', name: 'Playgrounds in the north', description: 'Where children play', organisation: 1, administrative_district: 2 }],
      modules: [{ id: 2, slug: 'map-module', project: 1, name: 'Map ideas', blueprint_type: 'MBS', phases: [{ type: 'a4_candy_mapideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(10) }] }],
    }),
  );
  await t.db.update(projects).set({ description: 'Benches for the market square' }).where(eq(projects.id, 1));
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
}

before(async () => {
  if (!chromiumMissing) chromium = await launchChromium();
});

after(async () => {
  await chromium?.close();
});

test('the operator adds an area preset, an initiator picks it for a map module and a district for the project, a visitor filters the projects by district; every page passes axe', { skip: chromiumMissing }, async () => {
  const page = await newLocalePage(chromium);
  await logInAs(page, base, 'admin');
  await page.goto(`${base}/backoffice/maps/`);
  await assertAccessible(page, 'the back-office maps page');
  await page.getByLabel('New category').fill('Districts');
  await page.getByRole('button', { name: 'Add category' }).click();
  await page.getByRole('link', { name: 'Rename: Districts' }).click();
  await assertAccessible(page, 'the form renaming a preset category');
  await page.getByLabel('Name').fill('City districts');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('link', { name: 'Add an area preset' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.locator('#id_name_errors').waitFor();
  await assertAccessible(page, 'the preset form with its errors');
  await page.getByLabel('Name').fill('Market quarter');
  await page.getByLabel('Category').selectOption({ label: 'City districts' });
  await page.getByLabel('Area (GeoJSON)').fill(JSON.stringify(AREA));
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('link', { name: 'Market quarter' }).waitFor();
  await page.goto(`${base}/backoffice/maps/districts/1/`);
  await assertAccessible(page, 'the form of a district');
  await page.context().close();

  const initiator = await newLocalePage(chromium, 'de-DE');
  await logInAs(initiator, base, 'initiator');
  await initiator.goto(`${base}/org/dashboard/modules/map-module/area_settings/`);
  await assertAccessible(initiator, 'the area form with the presets');
  // Choosing the preset draws its area on the map before saving; "no preset" takes it away again.
  await initiator.locator('.map-ready').waitFor();
  const drawn = initiator.locator('.leaflet-overlay-pane path[stroke="#2d40cc"]'); // the area's colour (the drawing line is red)
  assert.equal(await drawn.count(), 0, 'the module has no area yet');
  await initiator.locator('#id_preset').selectOption({ label: 'Market quarter' });
  await drawn.first().waitFor();
  assert.equal(await drawn.count(), 1);
  await initiator.locator('#id_preset').selectOption({ value: '' });
  await drawn.first().waitFor({ state: 'detached' });
  await initiator.locator('#id_preset').selectOption({ label: 'Market quarter' });
  await drawn.first().waitFor();
  await initiator.locator('form.dashboard-form button[type="submit"]').click();
  await initiator.waitForURL(/area_settings\/\?done=saved/);
  const [module] = await t.db.select({ area: modules.area }).from(modules).where(eq(modules.id, 2));
  assert.deepEqual(module.area, AREA);

  await initiator.goto(`${base}/org/dashboard/projects/project/basic/`);
  await initiator.locator('#id_administrative_district').selectOption({ label: 'Mitte' });
  await initiator.locator('form.dashboard-form button[type="submit"]').click();
  await initiator.waitForURL(/basic\/\?done=saved/);
  const [project] = await t.db.select({ district: projects.administrativeDistrictId }).from(projects).where(eq(projects.id, 1));
  assert.equal(project.district, 1);
  await initiator.context().close();

  await t.db.update(projects).set({ isDraft: false });
  const visitor = await newLocalePage(chromium);
  await visitor.goto(`${base}/`);
  assert.ok(await visitor.getByText('Playgrounds in the north').isVisible());
  // With the keyboard: the district chosen by typing its name, the filter sent with Enter.
  await tabTo(visitor, (f) => f.name === 'district', 'the district filter');
  await visitor.keyboard.type('Mitte');
  await tabTo(visitor, (f) => f.tag === 'button' && f.text === 'Filter', 'the filter button');
  await visitor.keyboard.press('Enter');
  await visitor.waitForURL(/district=1/);
  await visitor.getByText('1 project found').waitFor();
  assert.equal(await visitor.getByText('Playgrounds in the north').count(), 0);
  assert.ok(await visitor.getByRole('heading', { name: 'Project', exact: true }).isVisible());
  await assertAccessible(visitor, 'the start page filtered by district');
  assert.equal(await t.db.$count(administrativeDistricts), 2);
  await visitor.context().close();

  // The same pages in German (the operator's and initiator's language is English: the language chooser's cookie switches).
  for (const [login, paths] of [
    ['admin', ['/backoffice/maps/', '/backoffice/maps/presets/create/', '/backoffice/maps/districts/1/']],
    ['initiator', ['/org/dashboard/modules/map-module/area_settings/', '/org/dashboard/projects/project/basic/', '/?district=1']],
  ] as const) {
    const german = await newLocalePage(chromium, 'de-DE');
    await logInAs(german, base, login);
    await german.context().addCookies([{ name: 'language', value: 'de', url: base }]);
    for (const path of paths) {
      await german.goto(`${base}${path}`);
      assert.equal(await german.getAttribute('html', 'lang'), 'de');
      await assertAccessible(german, `de ${path}`);
    }
    await german.context().close();
  }
});
