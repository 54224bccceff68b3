import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { modules, phases } from '../../../src/db/schema/index.js';
import { proposals } from '../../../src/features/budgeting/schema.js';
import { toLocalInput } from '../../../src/i18n/dates.js';
import { budgetBrowser } from './browser.js';
import { assertAccessible, chromiumMissing, logInAs, newLocalePage } from '../../chromium.js';

/**
 * The whole participatory budget in Chromium (issue 24): an initiator sets up a budget with an
 * area and three phases (request, support, vote) in the dashboard; citizens submit proposals by
 * clicking on the map, support them and vote with the ballot; a code voter votes without an
 * account; the result page shows the winners. Time passes between the phases by moving the phases'
 * dates in the database (no waiting in a test).
 */
const world = await budgetBrowser();
const { t, base } = world;

const DAY = 24 * 3600_000;
const local = (days: number) => toLocalInput(new Date(Date.now() + days * DAY), t.config.timeZone);
const AREA = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[[13.3, 52.45], [13.5, 52.45], [13.5, 52.55], [13.3, 52.55], [13.3, 52.45]]] } }] };

/** A window of a signed-in user (or a visitor), whose map tiles are not fetched (no network in tests). */
async function windowOf(login: string | null, locale = 'en-US'): Promise<Page> {
  const page = await newLocalePage(world.chromium, locale);
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort());
  if (login) await logInAs(page, base, login);
  return page;
}

/** Moves the module's phases so that the one of `running` runs now (request, support, voting: days from now). */
async function timePasses(moduleId: number, running: 'support' | 'voting' | 'over') {
  const days = { support: [[-10, -5], [-5, 3], [3, 9]], voting: [[-10, -5], [-5, -1], [-1, 9]], over: [[-20, -15], [-15, -10], [-10, -1]] }[running];
  for (const [i, type] of ['a4_candy_budgeting:request', 'a4_candy_budgeting:support', 'a4_candy_budgeting:voting'].entries()) {
    await t.db
      .update(phases)
      .set({ startDate: new Date(Date.now() + days[i][0] * DAY), endDate: new Date(Date.now() + days[i][1] * DAY) })
      .where(and(eq(phases.moduleId, moduleId), eq(phases.type, type)));
  }
}

let moduleSlug = '';
let moduleId = 0;

test('the journey of a participatory budget: setup, proposals on the map, supports, ballots, a code voter, the result', { skip: chromiumMissing }, async () => {
  // The initiator adds the budget to the running project, with its area, three phases and rules.
  const ines = await windowOf('initiator');
  await ines.goto(`${base}/org/dashboard/projects/project/blueprints/`);
  await ines.getByRole('button', { name: 'Add module: Participatory budgeting with support and vote' }).click();
  await ines.waitForURL(/module_basic/);
  [, moduleSlug] = /\/dashboard\/modules\/([^/]+)\//.exec(ines.url()) ?? [];
  [{ id: moduleId }] = await t.db.select({ id: modules.id }).from(modules).where(eq(modules.slug, moduleSlug));
  await ines.getByLabel('Module description').fill('How should we spend 100,000 € in the park?');
  await ines.getByRole('button', { name: 'Save', exact: true }).click();
  await ines.getByText('Your changes have been saved.').waitFor();

  await ines.goto(`${base}/org/dashboard/modules/${moduleSlug}/phases/`);
  const dates: [number, number][] = [[-1, 3], [3, 6], [6, 9]];
  for (const [i, [start, end]] of dates.entries()) {
    const group = ines.getByRole('group', { name: `Phase ${i + 1}` });
    await group.getByLabel('Start').fill(local(start));
    await group.getByLabel('End').fill(local(end));
  }
  await ines.getByRole('button', { name: 'Save', exact: true }).click();
  await ines.getByText('Your changes have been saved.').waitFor();

  await ines.goto(`${base}/org/dashboard/modules/${moduleSlug}/area_settings/`);
  await ines.locator('#id_area').fill(JSON.stringify(AREA));
  await ines.getByRole('button', { name: 'Save', exact: true }).click();
  await ines.getByText('Your changes have been saved.').waitFor();

  await ines.goto(`${base}/org/dashboard/modules/${moduleSlug}/support_settings/`);
  await ines.getByLabel('Supports per participant').fill('2');
  await ines.getByLabel('Supports needed for the vote').fill('1');
  await ines.getByRole('button', { name: 'Save', exact: true }).click();
  await ines.getByText('Your changes have been saved.').waitFor();

  await ines.goto(`${base}/org/dashboard/modules/${moduleSlug}/voting_settings/`);
  await ines.getByLabel('Total budget (euros)').fill('100000');
  await ines.getByLabel('Minimum share of the budget (%)').fill('50');
  await ines.getByRole('button', { name: 'Save', exact: true }).click();
  await ines.getByText('Your changes have been saved.').waitFor();

  await ines.goto(`${base}/org/dashboard/modules/${moduleSlug}/vote_codes/`);
  await ines.getByLabel('Number of new codes').fill('1');
  await assertAccessible(ines, 'dashboard: vote codes');
  await ines.getByLabel('Show the printable sheet').check();
  await ines.getByRole('button', { name: 'Save', exact: true }).click();
  const code = await ines.locator('.code').first().innerText(); // shown this once (issue 36.9)

  await ines.goto(`${base}/org/dashboard/modules/${moduleSlug}/module_basic/`);
  await ines.getByRole('button', { name: 'Add to project' }).click();
  await ines.getByText('The module is displayed in the project.').waitFor();

  // Citizens submit proposals by clicking on the map.
  const proposalsOf: [string, string, string][] = [
    ['member', 'Trees along the path', '60000'],
    ['user', 'A new playground', '50000'],
    ['member', 'Benches by the pond', '20000'],
  ];
  for (const [login, title, budget] of proposalsOf) {
    const citizen = await windowOf(login);
    await citizen.goto(`${base}/org/projects/module/${moduleSlug}/`);
    await citizen.getByRole('link', { name: /^Submit/ }).first().click();
    await citizen.getByLabel('Title').fill(title);
    await citizen.locator('#id_description_editor').fill(`${title}, please.`);
    await citizen.getByLabel('Budget (whole euros)').fill(budget);
    const map = citizen.getByRole('region', { name: 'Map: click to set the place' });
    await citizen.locator('.leaflet-container').first().waitFor();
    await map.click();
    assert.notEqual(await citizen.getByLabel('Latitude').inputValue(), '', 'the click on the map set the place');
    await citizen.getByRole('button', { name: 'Save' }).click();
    await citizen.waitForURL(/\/org\/budgeting\/\d{4}-\d{5}\//);
    await citizen.close();
  }
  const ids = new Map((await t.db.select({ id: proposals.id, name: proposals.name }).from(proposals).where(eq(proposals.moduleId, moduleId))).map((p) => [p.name, p.id]));
  assert.equal(ids.size, 3);

  // The support phase: the playground and the trees get supports; the benches none (threshold 1).
  await timePasses(moduleId, 'support');
  for (const [login, supported] of [['member', ['Trees along the path', 'A new playground']], ['user', ['A new playground']]] as const) {
    const citizen = await windowOf(login);
    await citizen.goto(`${base}/org/projects/module/${moduleSlug}/`);
    await citizen.getByRole('link', { name: 'Support proposals now' }).click();
    for (const name of supported) {
      await citizen.getByRole('button', { name: `Support ${name}` }).click();
      await citizen.getByText('Thank you for your support.').waitFor();
    }
    await citizen.close();
  }

  // The voting phase: only the supported proposals are on the ballot.
  await timePasses(moduleId, 'voting');
  const member = await windowOf('member');
  await member.goto(`${base}/org/projects/module/${moduleSlug}/`);
  await member.getByRole('link', { name: 'Vote now' }).click();
  assert.equal(await member.getByLabel(/^Benches by the pond/).count(), 0, 'not supported enough');
  await member.getByLabel(/^A new playground/).check();
  await member.getByLabel(/^Trees along the path/).check();
  await member.getByRole('button', { name: 'Cast my ballot' }).click();
  await member.getByText(/more than the budget/).waitFor();
  await assertAccessible(member, 'the ballot with its error');
  await member.getByLabel(/^Trees along the path/).uncheck();
  await member.getByRole('button', { name: 'Cast my ballot' }).click();
  await member.getByText('Your ballot has been cast.').waitFor();
  // The member changes their mind: only the last ballot counts.
  await member.getByLabel(/^A new playground/).uncheck();
  await member.getByLabel(/^Trees along the path/).check();
  await member.getByRole('button', { name: 'Change my ballot' }).click();
  await member.getByText('Your ballot has been changed.').waitFor();

  const user = await windowOf('user');
  await user.goto(`${base}/org/budgeting/module/${moduleSlug}/ballot/`);
  await user.getByLabel(/^A new playground/).check();
  await user.getByRole('button', { name: 'Cast my ballot' }).click();
  await user.getByText('Your ballot has been cast.').waitFor();

  const voter = await windowOf(null);
  await voter.goto(`${base}/org/projects/module/${moduleSlug}/`);
  await voter.getByRole('link', { name: 'Vote with a vote code' }).click();
  await voter.getByLabel('Vote code').fill(code);
  await voter.getByRole('button', { name: 'Continue' }).click();
  await voter.getByLabel(/^A new playground/).check();
  await voter.getByRole('button', { name: 'Cast my ballot' }).click();
  await voter.getByText('Thank you. Your ballot has been cast and your code is now spent.').waitFor();

  // After the vote: the playground has two votes (a user, the code) and wins; the trees (one vote) no longer fit into the rest of the budget.
  await timePasses(moduleId, 'over');
  const visitor = await windowOf(null);
  await visitor.goto(`${base}/org/projects/module/${moduleSlug}/`);
  await visitor.getByRole('link', { name: 'Result of the vote' }).click();
  await visitor.locator('svg[role="img"]').waitFor();
  assert.deepEqual(await visitor.locator('tr.winner th').allInnerTexts(), ['A new playground']);
  assert.match(await visitor.locator(`#result-${ids.get('Trees along the path')}`).innerText(), /Not funded/);
  await assertAccessible(visitor, 'the result');
});
