import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { reports, users } from '../../../src/db/schema/index.js';
import { Browser } from '../../me/accounts/client.js';
import { basicWorldWith, daysFromNow, load } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';

const LIST = '/userdashboard/moderation/';
const DETAIL = '/userdashboard/moderation/detail/project/';
const FOREIGN = '/userdashboard/moderation/detail/foreign/';
const square = (x0: number, y0: number, x1: number, y1: number) => [[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]];
const AREA = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: square(13, 52, 14, 53) } }] };
const POINT = { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [13.5, 52.5] } };
const phase = (type: string) => [{ type, start_date: daysFromNow(-1), end_date: daysFromNow(10) }];

/**
 * basicWorld plus a map module and a budget module in the project (organisation 1), and a second
 * organisation's project `foreign` (moderator: user) with a map module; reports on a map idea, a
 * proposal, a comment on the map idea, and on the foreign map idea.
 */
async function world() {
  const t = await createTestApp();
  await load(
    t.db,
    basicWorldWith({
      organisations: [{ id: 2, slug: 'other-org', name: 'Other', initiators: [6] }],
      projects: [{ id: 2, slug: 'foreign', name: 'Foreign', organisation: 2, moderators: [5] }],
      modules: [
        { id: 2, slug: 'map-module', project: 1, name: 'Map ideas', blueprint_type: 'MBS', area: AREA, phases: phase('a4_candy_mapideas:collect') },
        { id: 3, slug: 'budget-module', project: 1, name: 'Budget', blueprint_type: 'PB', area: AREA, phases: phase('a4_candy_budgeting:request') },
        { id: 4, slug: 'foreign-map', project: 2, name: 'Foreign map', blueprint_type: 'MBS', area: AREA, phases: phase('a4_candy_mapideas:collect') },
      ],
      map_ideas: [
        { id: 1, module: 2, creator: 5, name: 'Bench by the river', description: 'x', point: POINT, created: '2024-03-05T14:07:00Z' },
        { id: 2, module: 4, creator: 6, name: 'Foreign bench', description: 'y', point: POINT },
      ],
      proposals: [{ id: 1, module: 3, creator: 5, name: 'New playground', description: 'z', point: POINT, budget: 100 }],
      comments: [{ id: 1, creator: 4, target: { type: 'mapidea', id: 1 }, comment: 'Rude words on a map' }],
      reports: [
        { creator: 4, target: { type: 'mapidea', id: 1 }, description: 'Advertising' },
        { creator: 6, target: { type: 'mapidea', id: 1 }, description: 'Spam' },
        { creator: 4, target: { type: 'proposal', id: 1 }, description: 'Off topic' },
        { creator: 4, target: { type: 'comment', id: 1 }, description: 'Insulting' },
        { creator: 4, target: { type: 'mapidea', id: 2 }, description: 'Elsewhere' },
      ],
    } as never),
  );
  const as = async (username: string) => {
    const browser = new Browser(t.app);
    assert.equal((await browser.login(username, `${username}-password`)).status, 302);
    return browser;
  };
  return { ...t, as };
}

const sectionOf = (html: string, kind: string) => new RegExp(`<section aria-labelledby="reported-${kind}s-heading">[\\s\\S]*?</section>`).exec(html)?.[0] ?? '';
const linkIn = (html: string, name: string) => new RegExp(`<a href="([^"]+)">${name}</a>`).exec(html)?.[1];

test('reports on map ideas and proposals reach the queue of the project’s moderator, linked to the item’s page, with counts and reasons', async () => {
  const { as } = await world();
  const moderator = await as('moderator');
  const list = (await moderator.get(LIST)).text;
  assert.match(list, /1 reported map idea/);
  assert.match(list, /1 reported proposal/);
  const page = await moderator.get(DETAIL);
  assert.equal(page.status, 200);

  const maps = sectionOf(page.text, 'mapidea');
  assert.match(maps, /<h2 id="reported-mapideas-heading">Reported map ideas<\/h2>/);
  assert.match(maps, /Bench by the river[\s\S]*2 reports[\s\S]*<strong>member<\/strong>: <span class="pre-line">Advertising<\/span>[\s\S]*<strong>other<\/strong>: <span class="pre-line">Spam<\/span>/);
  assert.doesNotMatch(maps, /Foreign bench/, "another organisation's map idea stays out");
  const mapPath = linkIn(maps, 'Bench by the river');
  assert.ok(mapPath);
  assert.match(maps, new RegExp(`href="${mapPath}moderate/"`), 'the moderator’s status and statement form');
  const item = await moderator.get(mapPath);
  assert.equal(item.status, 200);
  assert.match(item.text, /Bench by the river/);

  const proposalsSection = sectionOf(page.text, 'proposal');
  assert.match(proposalsSection, /Reported proposals[\s\S]*New playground[\s\S]*1 report\b[\s\S]*Off topic/);
  const proposalPath = linkIn(proposalsSection, 'New playground');
  assert.ok(proposalPath);
  assert.equal((await moderator.get(proposalPath)).status, 200);

  // The reported comment on the map idea links to its place on the map idea's page.
  assert.match(page.text, /Rude words on a map/);
  assert.ok(page.text.includes(`${mapPath}?comment=1`), 'the comment links to the map idea page');

  assert.match((await moderator.get(`${DETAIL}?filter=reported`)).text, /Reported map ideas[\s\S]*Reported proposals/);
  assert.doesNotMatch((await moderator.get(`${DETAIL}?filter=unread`)).text, /Reported map ideas/);
});

test('the initiator sees them in German; another organisation’s moderator and initiator do not', async () => {
  const { as, db } = await world();
  await db.update(users).set({ language: 'de' }).where(eq(users.id, 2));
  const initiator = await as('initiator');
  assert.match((await initiator.get(DETAIL)).text, /Gemeldete Kartenideen[\s\S]*Bench by the river[\s\S]*Gemeldete Vorschläge[\s\S]*New playground/);

  const foreignModerator = await as('user');
  assert.equal((await foreignModerator.get(DETAIL)).status, 403);
  const own = await foreignModerator.get(FOREIGN);
  assert.equal(own.status, 200);
  assert.match(own.text, /Foreign bench/);
  assert.doesNotMatch(own.text, /Bench by the river|New playground/);
  const list = (await foreignModerator.get(LIST)).text;
  assert.match(list, /1 reported map idea/);
  assert.doesNotMatch(list, /reported proposal/);

  const foreignInitiator = await as('other');
  assert.equal((await foreignInitiator.get(DETAIL)).status, 403);
  assert.equal((await foreignInitiator.post(`${DETAIL}reports/`, { kind: 'mapidea', id: '1' })).status, 403);
});

test('a moderator marks the reports of a map idea and a proposal as handled; another project’s item is a 404', async () => {
  const { as, db } = await world();
  const moderator = await as('moderator');
  const handle = `${DETAIL}reports/`;
  assert.equal((await moderator.post(handle, { kind: 'mapidea', id: '2' })).status, 404, "another organisation's map idea");
  assert.equal((await moderator.post(handle, { kind: 'topic', id: '1' })).status, 400, 'not a reportable kind');
  const done = await moderator.post(handle, { kind: 'mapidea', id: '1', filter: 'reported', page: '1' });
  assert.equal(done.location, `${DETAIL}?filter=reported#mapidea-1`);
  assert.equal((await moderator.post(handle, { kind: 'proposal', id: '1' })).location, `${DETAIL}#proposal-1`);
  const after = await moderator.get(`${DETAIL}?filter=reported`);
  assert.match(after.text, /The reports were marked as handled./);
  assert.doesNotMatch(after.text, /Reported map ideas|Reported proposals/);
  assert.doesNotMatch((await moderator.get(LIST)).text, /reported map idea|reported proposal/);
  const open = await db.select({ kind: reports.contentType, handled: reports.handledAt }).from(reports);
  assert.deepEqual(open.filter((r) => r.handled === null).map((r) => r.kind).sort(), ['comment', 'mapidea']);
});

test('the queue takes a constant number of statements, however many reported items of each kind', async () => {
  const t = await world();
  const moderator = await t.as('moderator');
  const count = async () => {
    const before = t.database.stats.queries;
    assert.equal((await moderator.get(DETAIL)).status, 200);
    assert.equal((await moderator.get(LIST)).status, 200);
    return t.database.stats.queries - before;
  };
  const few = await count();
  await load(t.db, {
    map_ideas: Array.from({ length: 8 }, (_, i) => ({ id: 10 + i, module: 2, creator: 5, name: `Map idea ${i}`, description: 'x', point: POINT })),
    proposals: Array.from({ length: 8 }, (_, i) => ({ id: 10 + i, module: 3, creator: 5, name: `Proposal ${i}`, description: 'x', point: POINT, budget: 10 })),
    reports: Array.from({ length: 8 }, (_, i) => [
      { creator: 4, target: { type: 'mapidea', id: 10 + i }, description: `m${i}` },
      { creator: 6, target: { type: 'proposal', id: 10 + i }, description: `p${i}` },
    ]).flat(),
  } as never);
  const many = await count();
  assert.match((await moderator.get(DETAIL)).text, /Map idea 7[\s\S]*Proposal 7/);
  assert.equal(many, few);
});

test('the back-office lists reported map ideas and proposals with their project and organisation, and marks them handled', async () => {
  const { as } = await world();
  const admin = await as('admin');
  const list = await admin.get('/backoffice/reports/');
  assert.match(list.text, /4 reported items/);
  assert.match(list.text, /Reported map idea: <a href="(\/org\/[^"]+)">Bench by the river<\/a>[\s\S]*href="\/org\/projects\/project\/"[\s\S]*Organisation<\/a>[\s\S]*\/moderate\/">Moderate/);
  assert.match(list.text, /Reported proposal: <a href="\/org\/[^"]+">New playground<\/a>/);
  assert.match(list.text, /Foreign bench[\s\S]*Other<\/a>/);
  assert.equal((await admin.post('/backoffice/reports/', { kind: 'topic', id: '1' })).status, 400);
  assert.equal((await admin.post('/backoffice/reports/', { kind: 'mapidea', id: '2' })).location, '/backoffice/reports/');
  const after = await admin.get('/backoffice/reports/');
  assert.match(after.text, /3 reported items/);
  assert.doesNotMatch(after.text, /Foreign bench/);
});
