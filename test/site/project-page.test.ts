import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Fixture } from '../../src/cli/fixture-schema.js';
import { basicWorld, daysFromNow, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';
import { Browser } from '../me/accounts/client.js';

const PROJECT = '/org/projects/timeline/';
const collect = (from: number, to: number) => [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(from), end_date: daysFromNow(to) }];

/** basicWorld plus project "timeline": clusters [past] · [now-a, now-b] (overlapping, running) · [later]; ideas, comments and ratings in now-a. */
function timelineWorld(): Fixture {
  const world = basicWorld();
  return {
    ...world,
    projects: [...(world.projects ?? []), { id: 5, slug: 'timeline', name: 'Timeline project', organisation: 1 }],
    modules: [
      ...(world.modules ?? []),
      { id: 10, slug: 'past', project: 5, name: 'Past module', blueprint_type: 'BS', phases: collect(-20, -10) },
      { id: 11, slug: 'now-a', project: 5, name: 'Now A', blueprint_type: 'BS', phases: collect(-2, 5) },
      { id: 12, slug: 'now-b', project: 5, name: 'Now B', phases: collect(-1, 8) },
      { id: 13, slug: 'later', project: 5, name: 'Later module', phases: collect(20, 30) },
      { id: 14, slug: 'hidden', project: 5, name: 'Draft module', is_draft: true, phases: collect(-1, 8) },
    ],
    ideas: [
      { id: 1, module: 11, creator: 5, name: 'Idea one', description: 'one' },
      { id: 2, module: 11, creator: 6, name: 'Idea two', description: 'two' },
    ],
    comments: [
      { id: 1, creator: 4, target: { type: 'idea', id: 1 }, comment: 'First' },
      { id: 2, creator: 5, target: { type: 'comment', id: 1 }, comment: 'Reply' },
    ],
    ratings: [{ creator: 3, target: { type: 'idea', id: 2 }, value: 1 }],
  };
}

async function signedIn(app: Awaited<ReturnType<typeof createTestApp>>['app'], username: string) {
  const browser = new Browser(app);
  assert.equal((await browser.login(username, `${username}-password`)).status, 302);
  return browser;
}

test('project page: timeline of module clusters, tiles with counts, entry choice, k of n and the Edit button', async () => {
  const { app, db } = await createTestApp();
  await load(db, timelineWorld());
  const visitor = new Browser(app);

  // Three clusters; the running one (the second) is chosen and marked; its two modules are tiles with their counts.
  const page = await visitor.get(PROJECT);
  assert.equal(page.status, 200);
  assert.match(page.text, /1\. Online Participation/);
  assert.match(page.text, /3\. Online Participation/);
  assert.match(page.text, /href="\/org\/projects\/timeline\/\?initialSlide=1" aria-current="true"/);
  assert.match(page.text, /running now/);
  assert.match(page.text, /Now A/);
  assert.match(page.text, /Now B/);
  assert.doesNotMatch(page.text, /Past module|Later module|Draft module/);
  assert.match(page.text, /2 ideas<\/li><li>2 comments<\/li><li>4 participants<\/li>/);
  assert.match(page.text, /0 ideas<\/li><li>0 comments<\/li><li>0 participants<\/li>/);
  assert.match(page.text, /Brainstorming/);
  assert.doesNotMatch(page.text, /\/dashboard\//);

  // initialSlide picks an entry; a one-module entry shows that module in place, its list links to the module page.
  const past = await visitor.get(`${PROJECT}?initialSlide=0`);
  assert.match(past.text, /href="\/org\/projects\/timeline\/\?initialSlide=0" aria-current="true"/);
  assert.match(past.text, /<a href="\/org\/projects\/module\/past\/">Past module<\/a>/);
  assert.match(past.text, /action="\/org\/projects\/module\/past\/#index"/);
  assert.equal((await visitor.get(`${PROJECT}?initialSlide=x`)).status, 400);
  // Out of range: the default entry.
  assert.match((await visitor.get(`${PROJECT}?initialSlide=99`)).text, /initialSlide=1" aria-current="true"/);

  // German.
  const german = await new Browser(app, { 'accept-language': 'de' }).get(PROJECT);
  assert.match(german.text, /2 Ideen<\/li><li>2 Kommentare<\/li><li>4 Beteiligte<\/li>/);
  assert.match(german.text, /1\. Online-Beteiligung/);

  // The module page: k of n inside its cluster, and the breadcrumb back to its entry.
  const moduleA = await visitor.get('/org/projects/module/now-a/');
  assert.match(moduleA.text, /1 of 2/);
  assert.match(moduleA.text, /href="\/org\/projects\/module\/now-b\/" rel="next"/);
  assert.doesNotMatch(moduleA.text, /rel="prev"/);
  assert.match(moduleA.text, /href="\/org\/projects\/timeline\/\?initialSlide=1"/);
  const moduleB = await visitor.get('/org/projects/module/now-b/');
  assert.match(moduleB.text, /2 of 2/);
  assert.match(moduleB.text, /href="\/org\/projects\/module\/now-a\/" rel="prev"/);
  assert.doesNotMatch((await visitor.get('/org/projects/module/later/')).text, / of 1/);

  // Edit: initiators and superusers (the project dashboard's rule), not moderators; moderators see draft modules as tiles.
  const edit = /<a class="btn btn-secondary" href="\/org\/dashboard\/projects\/timeline\/basic\/">Edit<\/a>/;
  for (const name of ['initiator', 'admin']) assert.match((await (await signedIn(app, name)).get(PROJECT)).text, edit, name);
  const moderator = await (await signedIn(app, 'moderator')).get('/org/projects/project/');
  assert.doesNotMatch(moderator.text, /\/dashboard\/projects\//);
  const initiator = await signedIn(app, 'initiator');
  assert.match((await initiator.get(PROJECT)).text, /Draft module/);
  assert.equal((await initiator.get('/org/dashboard/projects/timeline/basic/')).status, 200);
});

test('module tiles count what each type holds in its words, with the right plural: ballots, subjects, questions, proposals; a text review its comments (en, de)', async () => {
  const { app, db } = await createTestApp();
  const world = basicWorld();
  const running = (type: string) => [{ type, start_date: daysFromNow(-1), end_date: daysFromNow(5) }];
  await load(db, {
    ...world,
    projects: [...(world.projects ?? []), { id: 6, slug: 'kinds', name: 'Kinds project', organisation: 1 }],
    modules: [
      ...(world.modules ?? []),
      { id: 20, slug: 'poll', project: 6, name: 'Poll module', blueprint_type: 'PO', phases: running('a4polls:voting') },
      { id: 21, slug: 'debate', project: 6, name: 'Debate module', blueprint_type: 'DB', phases: running('a4_candy_debate:debate') },
      { id: 22, slug: 'event', project: 6, name: 'Event module', blueprint_type: 'IE', phases: running('a4_candy_interactive_events:issue') },
      { id: 23, slug: 'text', project: 6, name: 'Text module', blueprint_type: 'TR', phases: running('a4_candy_documents:comment') },
      { id: 24, slug: 'budget', project: 6, name: 'Budget module', blueprint_type: 'PB', phases: running('a4_candy_budgeting:request') },
    ],
    polls: [{ id: 1, module: 20 }],
    questions: [
      { id: 1, poll: 1, label: 'Colour?' },
      { id: 2, poll: 1, label: 'Size?' },
    ],
    choices: [
      { id: 1, question: 1, label: 'Red' },
      { id: 2, question: 2, label: 'Big' },
    ],
    // One voter on both questions is one ballot.
    votes: [
      { choice: 1, creator: 5 },
      { choice: 2, creator: 5 },
    ],
    subjects: [
      { id: 1, module: 21, creator: 2, name: 'Traffic' },
      { id: 2, module: 21, creator: 2, name: 'Parks' },
    ],
    live_questions: [{ id: 1, module: 22, text: 'When?', affiliation: null }],
  });
  const tiles = (html: string) => Object.fromEntries([...html.matchAll(/<a href="\/org\/projects\/module\/([a-z]+)\/">[^]*?<ul class="tile-counts">([^]*?)<\/ul>/g)].map((m) => [m[1], m[2].replace(/<[^>]+>/g, '|').replace(/\|+/g, '|')]));
  const en = tiles((await new Browser(app).get('/org/projects/kinds/')).text);
  assert.deepEqual(en, {
    poll: '|1 ballot|0 comments|1 participant|',
    debate: '|2 subjects|0 comments|1 participant|',
    event: '|1 question|0 comments|0 participants|',
    text: '|0 comments|0 participants|',
    budget: '|0 proposals|0 comments|0 participants|',
  });
  const de = tiles((await new Browser(app, { 'accept-language': 'de' }).get('/org/projects/kinds/')).text);
  assert.deepEqual(de, {
    poll: '|1 Stimmabgabe|0 Kommentare|1 Beteiligte:r|',
    debate: '|2 Themen|0 Kommentare|1 Beteiligte:r|',
    event: '|1 Frage|0 Kommentare|0 Beteiligte|',
    text: '|0 Kommentare|0 Beteiligte|',
    budget: '|0 Vorschläge|0 Kommentare|0 Beteiligte|',
  });
});
