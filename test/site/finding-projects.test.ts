import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Fixture } from '../../src/cli/fixture-schema.js';
import { Browser } from '../me/accounts/client.js';
import { basicWorld, daysFromNow, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

const phase = (from: number, to: number) => [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(from), end_date: daysFromNow(to) }];

/** Two organisations; running, upcoming and finished projects with topics; a semi-public and a private one. */
function findingWorld(): Fixture {
  const world = basicWorld();
  return {
    ...world,
    organisations: [...(world.organisations ?? []), { id: 2, slug: 'stadtwerk', name: 'Stadtwerk' }],
    projects: [
      { id: 1, slug: 'project', name: 'Project', organisation: 1, moderators: [3], participants: [4] },
      { id: 2, slug: 'bike-lanes', name: 'Bike lanes for Grünau', description: 'Safer cycling to school', organisation: 1, topics: ['TRA'] },
      { id: 3, slug: 'pond-park', name: 'A park by the pond', organisation: 2, topics: ['ENV'] },
      { id: 4, slug: 'old-market', name: 'The old market', organisation: 2, topics: ['URB', 'TRA'] },
      { id: 5, slug: 'half-open', name: 'Semi-public budget', organisation: 1, access: 'SEMIPUBLIC' },
      { id: 6, slug: 'closed-circle', name: 'Closed circle', organisation: 2, access: 'PRIVATE', participants: [5] },
    ],
    modules: [
      ...(world.modules ?? []),
      { id: 2, project: 2, name: 'Ideas', phases: phase(-2, 5) },
      { id: 3, project: 3, name: 'Ideas', phases: phase(3, 9) },
      { id: 4, project: 4, name: 'Ideas', phases: phase(-9, -3) },
      { id: 5, project: 5, name: 'Ideas', phases: phase(-1, 4) },
      { id: 6, project: 6, name: 'Ideas', phases: phase(-1, 4) },
    ],
  };
}

const tileNames = (html: string) => [...html.matchAll(/<h2[^>]*>\s*<a [^>]*>([^<]+)<\/a>/g)].map((m) => m[1]).sort();

test('the start page lists public and semi-public projects and finds them by text, topic, organisation and status, all in the URL', async () => {
  const t = await createTestApp();
  await load(t.db, findingWorld());
  const visitor = new Browser(t.app);
  const home = await visitor.get('/');
  assert.deepEqual(tileNames(home.text), ['A park by the pond', 'Bike lanes for Grünau', 'Project', 'Semi-public budget', 'The old market']);
  assert.match(home.text, /<form method="get" action="\/" class="filter-form" role="search" aria-label="Find projects">/);
  assert.match(home.text, /<option value="stadtwerk">Stadtwerk<\/option>/);
  const find = async (query: string) => tileNames((await visitor.get(`/?${query}`)).text);
  assert.deepEqual(await find('search=cycling+SCHOOL'), ['Bike lanes for Grünau'], 'every word, in the description too, any case');
  assert.deepEqual(await find('search=stadtwerk'), ['A park by the pond', 'The old market'], 'the organisation name counts');
  assert.deepEqual(await find('topic=TRA'), ['Bike lanes for Grünau', 'The old market']);
  assert.deepEqual(await find('organisation=stadtwerk'), ['A park by the pond', 'The old market']);
  assert.deepEqual(await find('status=running'), ['Bike lanes for Grünau', 'Project', 'Semi-public budget']);
  assert.deepEqual(await find('status=upcoming'), ['A park by the pond']);
  assert.deepEqual(await find('status=finished'), ['The old market']);
  assert.deepEqual(await find('search=&topic=TRA&organisation=stadtwerk&status='), ['The old market'], 'empty fields are "all", the rest combine');
  const none = await visitor.get('/?search=nothing-like-this');
  assert.match(none.text, /<p role="status">0 projects found<\/p>/);
  assert.match(none.text, /No project matches this search\./);
  assert.match(none.text, /<a href="\/">Show all projects<\/a>/);
  const kept = (await visitor.get('/?search=pond&topic=ENV&status=upcoming')).text;
  assert.match(kept, /name="search" type="search" value="pond"/);
  assert.match(kept, /<option value="ENV" selected>/);
  assert.match(kept, /<option value="upcoming" selected>/);
  assert.match(kept, /<p role="status">1 project found<\/p>/);
  for (const bad of ['status=soon', 'topic=XYZ', 'organisation=%3Cb%3E']) assert.equal((await visitor.get(`/?${bad}`)).status, 400, bad);
  const german = await new Browser(t.app, { 'accept-language': 'de' }).get('/?topic=TRA');
  assert.match(german.text, /Projekte finden.*Thema.*Laufend.*Bevorstehend.*Abgeschlossen.*2 Projekte gefunden/s);
});

test('a participant finds her projects that are not public in her dashboard; others do not see them there', async () => {
  const t = await createTestApp();
  await load(t.db, findingWorld());
  const user = new Browser(t.app);
  await user.login('user', 'user-password');
  const overview = (await user.get('/userdashboard/overview/')).text;
  assert.match(overview, /<h2 id="participated-heading">Your projects that are not public<\/h2>/);
  assert.match(overview, /href="\/stadtwerk\/projects\/closed-circle\/"/);
  assert.doesNotMatch(overview, /half-open/, 'semi-public projects she does not take part in are not hers');
  const member = new Browser(t.app);
  await member.login('member', 'member-password');
  const memberOverview = (await member.get('/userdashboard/overview/')).text;
  assert.match(memberOverview, /href="\/org\/projects\/half-open\/"/, 'an organisation member takes part in its non-public projects');
  assert.doesNotMatch(memberOverview, /closed-circle/);
  const other = new Browser(t.app);
  await other.login('other', 'other-password');
  assert.doesNotMatch((await other.get('/userdashboard/overview/')).text, /participated-heading/);
});
