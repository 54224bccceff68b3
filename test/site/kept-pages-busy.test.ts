import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'drizzle-orm';
import { basicWorldWith, daysFromNow, load, tokenHeader } from '../fixtures.js';
import { createTestApp } from '../helpers.js';
import { Browser } from '../me/accounts/client.js';
import { loadKeptFigures } from '../../src/core/modules/figures.js';
import { compactPageChanges, vacuumPageChanges } from '../../src/db/versions.js';

/**
 * A busy evening (issue 40): a write moves the versions of the pages that show it and no others.
 * A project with two idea modules and an Interactive Event; time frozen within one second, so only
 * the version can tell a kept page (one statement for a visitor) from a new one.
 */
const EVENT = 10;
const EVENT_PAGE = '/org/interactiveevents/town-hall/';
const EVENT_MODULE = '/org/projects/module/town-hall/';
const PROJECT = '/org/projects/project/';
const MODULE = '/org/projects/module/ideas-module/';
const OTHER_MODULE = '/org/projects/module/other-ideas/';
const IDEA = '/org/ideas/2024-00001/';
const NEIGHBOUR_IDEA = '/org/ideas/2024-00003/';
const PAGES = ['/', PROJECT, MODULE, OTHER_MODULE, IDEA, NEIGHBOUR_IDEA];

/** The world; `rating`: the ideas module's phase is a rating phase (its list shows the ratings). */
async function busyWorld({ rating = false } = {}) {
  const made = await createTestApp();
  // One start for every module: the project page lists its tiles by start, then as given (so the ideas module's tile comes first on a loaded machine too).
  const [start, end] = [daysFromNow(-1), daysFromNow(10)];
  const world = basicWorldWith({
    modules: [
      { id: 2, slug: 'other-ideas', project: 1, name: 'Other ideas', phases: [{ type: 'a4_candy_ideas:collect', start_date: start, end_date: end }] },
      { id: EVENT, slug: 'town-hall', project: 1, name: 'Town hall', blueprint_type: 'IE', phases: [{ type: 'a4_candy_interactive_events:issue', start_date: start, end_date: daysFromNow(1) }] },
    ],
    affiliations: [{ id: 11, module: EVENT, name: 'Residents' }],
    live_questions: [{ id: 1, module: EVENT, text: 'Will the park stay open?', affiliation: 11 }],
    ideas: [
      { id: 1, module: 1, creator: 5, name: 'Idea 1', description: 'x', created: '2024-03-01T10:00:00Z' },
      { id: 2, module: 2, creator: 5, name: 'Idea in the other module', description: 'y', created: '2024-03-02T10:00:00Z' },
      { id: 3, module: 1, creator: 6, name: 'A neighbouring idea', description: 'z', created: '2024-03-03T10:00:00Z' },
    ],
    comments: [{ id: 1, creator: 6, target: { type: 'idea', id: 1 }, comment: 'First comment' }],
  });
  const phases = [{ type: rating ? 'a4_candy_ideas:rating' : 'a4_candy_ideas:collect', start_date: start, end_date: end }];
  world.modules = (world.modules ?? []).map((module) => (module.id === 1 ? { ...module, slug: 'ideas-module', phases } : module));
  await load(made.db, world);
  return made;
}

/** A page without what is put in at sending for each request: the form token, and the bell's live position (a signed-in visitor's). */
const withoutTokens = (html: string) => html.replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, '').replace(/data-live-last="[^"]*"/g, '');

/** Each page as the visitor has it now, kept (read once). */
async function visit(visitor: Browser, urls: string[]): Promise<Map<string, string>> {
  const pages = new Map<string, string>();
  for (const url of urls) {
    const page = await visitor.get(url);
    assert.equal(page.status, 200, url);
    pages.set(url, withoutTokens(page.text));
  }
  return pages;
}

/** What a kept page whose figures moved costs: its head statement and one read of its figures (once per process and version). */
const FIGURES_MOVED = 2;

/** What the project page costs when a tile's module moved too: one count of those tiles more (once per process and module version; then kept for every process). */
const TILES_MOVED = 3;

/** Asserts that each page is still kept: its head statement alone (and the session's for a signed-in visitor: `statements` 2), and the same page. */
async function assertKept(visitor: Browser, database: { stats: { queries: number } }, before: Map<string, string>, urls: string[], statements = 1): Promise<void> {
  for (const url of urls) {
    const queries = database.stats.queries;
    const page = await visitor.get(url);
    assert.equal(database.stats.queries - queries, statements, `${url}: still kept (its version did not move)`);
    assert.equal(withoutTokens(page.text), before.get(url), url);
  }
}

test('a like of a live question changes the count on the event page and no kept page\'s version', async (t) => {
  const { app, database } = await busyWorld();
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const visitor = new Browser(app);
  const before = await visit(visitor, PAGES);
  const participant = new Browser(app);
  assert.match((await participant.get(EVENT_PAGE)).text, /data-likes-for="1">0</);
  assert.equal((await participant.post(`${EVENT_PAGE}questions/1/like/`, { value: 'true' })).status, 303);
  assert.match((await new Browser(app).get(EVENT_PAGE)).text, /data-likes-for="1">1</, 'the event page shows the like');
  await assertKept(visitor, database, before, PAGES);
});

test('a comment changes its idea\'s page and the counts that show it, not another idea\'s page nor the other module\'s', async (t) => {
  const { app, database, db } = await busyWorld();
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const visitor = new Browser(app);
  const before = await visit(visitor, PAGES);
  const user = new Browser(app);
  assert.equal((await user.login('user', 'user-password')).status, 302);
  assert.equal((await user.post('/comments/on/idea/1/', { comment: 'A busy comment' })).status, 302);
  assert.match((await visitor.get(IDEA)).text, /A busy comment/, 'the idea page shows the comment');
  assert.match((await visitor.get(MODULE)).text, /2 comments/, "the module's idea list counts it");
  assert.notEqual(withoutTokens((await visitor.get(PROJECT)).text), before.get(PROJECT), "the project page's tiles count it");
  assert.match(withoutTokens((await visitor.get(PROJECT)).text), /2 comments/, "the project page's tiles count it");
  await assertKept(visitor, database, before, ['/', OTHER_MODULE, NEIGHBOUR_IDEA]);
  assert.equal((await read(visitor, database, MODULE)).statements, 1, "the module page's version did not move");
  // A reply (by plain SQL) reaches its idea's page through the comment it answers.
  await db.execute(sql`INSERT INTO comments (creator_id, content_type, object_pk, comment, project_id) VALUES (6, 'comment', 1, 'A plain reply', 1)`);
  assert.match((await visitor.get(IDEA)).text, /A plain reply/);
  await assertKept(visitor, database, before, [NEIGHBOUR_IDEA]);
});

/** Reads a page after a write: its statements and its text (without form tokens). */
async function read(visitor: Browser, database: { stats: { queries: number } }, url: string): Promise<{ statements: number; text: string }> {
  const queries = database.stats.queries;
  const page = await visitor.get(url);
  assert.equal(page.status, 200, url);
  return { statements: database.stats.queries - queries, text: withoutTokens(page.text) };
}

test('a comment changes its idea\'s page and the figures on the module page, whose version stays (filled in at sending, read once)', async (t) => {
  const { app, database, db } = await busyWorld();
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const visitor = new Browser(app);
  const before = await visit(visitor, PAGES);
  assert.match(before.get(MODULE) ?? '', /1 comment</);
  const posted = await app.inject({ method: 'POST', url: '/api/contenttypes/4/objects/1/comments/', headers: await tokenHeader(db, 5), payload: { comment: 'An app comment' } });
  assert.equal(posted.statusCode, 201, posted.body);
  assert.match((await read(visitor, database, IDEA)).text, /An app comment/, "the idea's page is made anew");
  const module = await read(visitor, database, MODULE);
  assert.equal(module.statements, FIGURES_MOVED, 'the module page is still kept: its version did not move, its figures are read');
  assert.match(module.text, /2 comments</, 'the figure read after the answer shows the comment');
  assert.equal(module.text.replace('2 comments<', '1 comment<'), before.get(MODULE), 'and nothing else changed');
  // A reply by plain SQL counts too (the figure counts direct replies), still without a new rendering.
  await db.execute(sql`INSERT INTO comments (creator_id, content_type, object_pk, comment, project_id) VALUES (6, 'comment', 1, 'A plain reply', 1)`);
  const again = await read(visitor, database, MODULE);
  assert.equal(again.statements, FIGURES_MOVED);
  assert.match(again.text, /3 comments</);
  // A new idea moves the page; two overlapping reads share one rendering, and the one that did not
  // render it reads the figures its head statement did not know (the new idea's) on its own.
  await db.execute(sql`INSERT INTO ideas (module_id, creator_id, name, description, created) VALUES (1, 6, 'A late idea', 'w', now())`);
  const overlapping = await Promise.all([visitor.get(MODULE), visitor.get(MODULE)]);
  for (const page of overlapping) {
    assert.match(page.text, /A late idea/);
    assert.match(page.text, /3 comments</);
    assert.equal((page.text.match(/0 comments</g) ?? []).length, 2, 'the late idea and the neighbouring one');
  }
  // In German too (each language has its own kept page; the figure is said in the page's language).
  const german = new Browser(app, { 'accept-language': 'de' });
  assert.match((await german.get(MODULE)).text, /3 Kommentare</);
});

test('an order by comments is kept per comment: a comment that changes the order shows at once', async (t) => {
  const { app, database, db } = await busyWorld();
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const visitor = new Browser(app);
  const ordered = `${MODULE}?ordering=-comment_count`;
  const first = await read(visitor, database, ordered);
  assert.ok(first.text.indexOf('Idea 1') < first.text.indexOf('A neighbouring idea'), 'the commented idea first');
  assert.equal((await read(visitor, database, ordered)).statements, 1, 'kept');
  await db.execute(sql`INSERT INTO comments (creator_id, content_type, object_pk, comment, project_id) VALUES (6, 'idea', 3, 'One', 1), (5, 'idea', 3, 'Two', 1)`);
  const after = await read(visitor, database, ordered);
  assert.ok(after.statements > 1, 'made anew');
  assert.ok(after.text.indexOf('A neighbouring idea') < after.text.indexOf('Idea 1'), 'the order read after the write shows it');
  assert.match(after.text, /2 comments</);
});

test("a one-module project's page fills its ideas' figures in and stays kept", async (t) => {
  const { app, database, db } = await createTestApp();
  await load(
    db,
    basicWorldWith({
      ideas: [{ id: 1, module: 1, creator: 5, name: 'Idea 1', description: 'x', created: '2024-03-01T10:00:00Z' }],
      comments: [{ id: 1, creator: 6, target: { type: 'idea', id: 1 }, comment: 'First comment' }],
    }),
  );
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const visitor = new Browser(app);
  const before = await read(visitor, database, PROJECT);
  assert.match(before.text, /1 comment</, 'the idea list in place');
  const posted = await app.inject({ method: 'POST', url: '/api/contenttypes/4/objects/1/comments/', headers: await tokenHeader(db, 5), payload: { comment: 'An app comment' } });
  assert.equal(posted.statusCode, 201, posted.body);
  const after = await read(visitor, database, PROJECT);
  assert.equal(after.statements, FIGURES_MOVED, 'still kept');
  assert.match(after.text, /2 comments</);
});

test('an app\'s comment (two round trips, its notice after the answer) moves the same pages and no others', async (t) => {
  const { app, database, db } = await busyWorld();
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const visitor = new Browser(app);
  const before = await visit(visitor, PAGES);
  const posted = await app.inject({ method: 'POST', url: '/api/contenttypes/4/objects/1/comments/', headers: await tokenHeader(db, 5), payload: { comment: 'An app comment' } });
  assert.equal(posted.statusCode, 201, posted.body);
  assert.match((await visitor.get(IDEA)).text, /An app comment/, 'the idea page read after the answer shows the comment');
  assert.match((await visitor.get(MODULE)).text, /2 comments/, "the module's idea list counts it");
  await assertKept(visitor, database, before, ['/', OTHER_MODULE, NEIGHBOUR_IDEA]);
});

test("a new question shows on the event page and in the event tile's count on the project page, which stays kept (filled in at sending), in English and German", async (t) => {
  const { app, database } = await busyWorld();
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const visitor = new Browser(app);
  const german = new Browser(app, { 'accept-language': 'de' });
  const before = await visit(visitor, [...PAGES, EVENT_MODULE]);
  const germanBefore = await visit(german, [PROJECT]);
  const counts = tiles(before.get(PROJECT) ?? '').counts;
  assert.deepEqual(counts, ['2 ideas 1 comment 2 participants', '1 idea 0 comments 1 participant', '1 question 0 comments 0 participants'], "each type's tile says its count in its own words");
  assert.match(germanBefore.get(PROJECT) ?? '', /<li>1 Frage<\/li>/);
  const asked = await app.inject({ method: 'POST', url: `/api/modules/${EVENT}/interactiveevents/livequestions/`, payload: { text: 'Where will the bus stop?', category: 11 } });
  assert.equal(asked.statusCode, 201);
  assert.match((await new Browser(app).get(EVENT_PAGE)).text, /Where will the bus stop\?/);
  const project = await read(visitor, database, PROJECT);
  assert.equal(project.statements, TILES_MOVED, "the project page's version did not move: the tiles' counts are read");
  assert.deepEqual(tiles(project.text).counts, [counts[0], counts[1], '2 questions 0 comments 0 participants'], "the event's tile counts the question, the others stay");
  assert.equal(tiles(project.text).rest, tiles(before.get(PROJECT) ?? '').rest, 'and nothing else changed');
  const germanProject = await read(german, database, PROJECT);
  assert.equal(germanProject.statements, FIGURES_MOVED);
  assert.equal(germanProject.text, germanBefore.get(PROJECT)?.replace('<li>1 Frage</li>', '<li>2 Fragen</li>'), "said in the type's German words");
  await assertKept(visitor, database, before, ['/', MODULE, OTHER_MODULE, IDEA, NEIGHBOUR_IDEA, EVENT_MODULE]);
});

test("an event's questions leave one row of the change log after the merge, not one per question, and no page moves with the merge", async (t) => {
  const { app, database, db } = await busyWorld();
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  for (const text of ['Where will the bus stop?', 'When does it open?', 'Who pays?']) {
    const asked = await app.inject({ method: 'POST', url: `/api/modules/${EVENT}/interactiveevents/livequestions/`, payload: { text, category: 11 } });
    assert.equal(asked.statusCode, 201);
  }
  const visitor = new Browser(app);
  const before = await visit(visitor, [...PAGES, EVENT_PAGE, EVENT_MODULE]);
  await compactPageChanges(db);
  const rows = (await db.execute(sql`SELECT (SELECT count(*)::int FROM page_change_sums WHERE scope = 0 AND module_id = ${EVENT}) AS n, (SELECT count(*)::int FROM page_changes) AS fresh`)) as unknown as { rows: { n: number; fresh: number }[] };
  assert.deepEqual(rows.rows[0], { n: 1, fresh: 0 }, "the questions' rows (the fixture's one and three asked) merged into one");
  await assertKept(visitor, database, before, [...PAGES, EVENT_MODULE]);
  const event = await read(visitor, database, EVENT_PAGE);
  assert.equal(event.statements, 1, "the event page's version did not move with the merge");
});

test('answering and hiding a question change the event page that shows it; the project page, its tiles and the event\'s module page stay kept', async (t) => {
  const { app, database, db } = await busyWorld();
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const visitor = new Browser(app);
  const asked = await app.inject({ method: 'POST', url: `/api/modules/${EVENT}/interactiveevents/livequestions/`, payload: { text: 'Where will the bus stop?', category: 11 } });
  assert.equal(asked.statusCode, 201);
  const question = (JSON.parse(asked.body) as { id: number }).id;
  const before = await visit(visitor, [...PAGES, EVENT_MODULE]);
  // The event page gives its reader a browser session (for their likes): a participant of their own.
  const participant = new Browser(app);
  const event = await read(participant, database, EVENT_PAGE);
  assert.match(event.text, /Will the park stay open\?/);
  assert.equal((await read(participant, database, EVENT_PAGE)).text, event.text, 'read twice, the same page (kept or not)');
  const moderator = await tokenHeader(db, 3);
  const answered = await app.inject({ method: 'PATCH', url: `/api/modules/${EVENT}/interactiveevents/livequestions/1/`, headers: moderator, payload: { is_answered: true } });
  assert.equal(answered.statusCode, 200, answered.body);
  const open = await read(participant, database, EVENT_PAGE);
  assert.doesNotMatch(open.text, /Will the park stay open\?/, 'the answered question leaves the open list');
  assert.match(open.text, /Where will the bus stop\?/);
  assert.match((await read(participant, database, `${EVENT_PAGE}?answered=1`)).text, /Will the park stay open\?/, 'and is among the answered ones');
  const hidden = await app.inject({ method: 'PATCH', url: `/api/modules/${EVENT}/interactiveevents/livequestions/${question}/`, headers: moderator, payload: { is_hidden: true } });
  assert.equal(hidden.statusCode, 200, hidden.body);
  assert.doesNotMatch((await read(participant, database, EVENT_PAGE)).text, /Where will the bus stop\?/, 'a hidden question leaves the page');
  // The tile counts every question asked (answered and hidden ones too), the module page shows none of them.
  await assertKept(visitor, database, before, ['/', MODULE, OTHER_MODULE, IDEA, NEIGHBOUR_IDEA, EVENT_MODULE]);
  await assertKept(visitor, database, before, [PROJECT], TILES_MOVED);
});

const followButton = (html: string) => /<button type="submit" aria-pressed="(?:true|false)">\s*(Follow|Unfollow)\s*<\/button>/.exec(html)?.[1];

test("a follow — through the page's form, through the API, or a first comment's own — shows on the follower's pages at once and moves nobody else's", async (t) => {
  const { app, database, db } = await busyWorld();
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const visitor = new Browser(app);
  const other = new Browser(app);
  assert.equal((await other.login('other', 'other-password')).status, 302);
  const followers = { form: new Browser(app), api: new Browser(app), comment: new Browser(app) };
  assert.equal((await followers.form.login('member', 'member-password')).status, 302);
  assert.equal((await followers.api.login('initiator', 'initiator-password')).status, 302);
  assert.equal((await followers.comment.login('admin', 'admin-password')).status, 302);
  const urls = [PROJECT, MODULE, IDEA, NEIGHBOUR_IDEA];
  let visitorBefore = await visit(visitor, urls);
  let otherBefore = await visit(other, urls);
  const ownPages = [PROJECT, NEIGHBOUR_IDEA];
  for (const follower of Object.values(followers)) for (const url of ownPages) assert.equal(followButton((await follower.get(url)).text), 'Follow', `${url}: not following yet`);
  const assertFollowing = async (follower: Browser, how: string) => {
    for (const url of ownPages) {
      // The first read after the form's answer shows its message (rendered for it alone), the next is kept for the follower.
      for (const nth of ['first', 'second']) assert.equal(followButton((await follower.get(url)).text), 'Unfollow', `${how}: ${url} read ${nth} after the answer`);
      const kept = await read(follower, database, url);
      assert.equal(kept.statements, 2, `${how}: ${url} is kept for the follower as following`);
      assert.equal(followButton(kept.text), 'Unfollow');
    }
  };
  // Another user's pages (their own button as it was) and a visitor's (no button) stay kept.
  const othersKept = async (pages: string[]) => {
    await assertKept(visitor, database, visitorBefore, pages);
    await assertKept(other, database, otherBefore, pages, 2);
  };
  // The page's form (its answer leaves a message: the page read next is rendered for it alone).
  assert.equal((await followers.form.post(`${PROJECT}follow/`, { follow: 'true', next: PROJECT })).status, 302);
  await assertFollowing(followers.form, 'the form');
  await othersKept(urls);
  // The API.
  const followed = await app.inject({ method: 'PUT', url: '/api/follows/project/', headers: await tokenHeader(db, 2), payload: { enabled: true } });
  assert.equal(followed.statusCode, 200, followed.body);
  await assertFollowing(followers.api, 'the API');
  await othersKept(urls);
  // A first comment (through the API) follows the project: it moves its idea's page, and only that.
  const posted = await app.inject({ method: 'POST', url: '/api/contenttypes/4/objects/1/comments/', headers: await tokenHeader(db, 1), payload: { comment: 'My first word' } });
  assert.equal(posted.statusCode, 201, posted.body);
  await assertFollowing(followers.comment, 'a first comment');
  assert.equal(followButton((await followers.comment.get(IDEA)).text), 'Unfollow');
  assert.match((await visitor.get(IDEA)).text, /My first word/);
  await othersKept([NEIGHBOUR_IDEA]);
  for (const [reader, before, statements] of [[visitor, visitorBefore, FIGURES_MOVED], [other, otherBefore, FIGURES_MOVED + 1]] as const) {
    const project = await read(reader, database, PROJECT);
    assert.equal(project.statements, statements, 'the project page stays kept: its tiles count the comment and its author');
    assert.equal(tiles(project.text).rest, tiles(before.get(PROJECT) ?? '').rest);
  }
  // Unfollowing through the form shows at once too.
  [visitorBefore, otherBefore] = [await visit(visitor, urls), await visit(other, urls)];
  assert.equal((await followers.form.post(`${PROJECT}follow/`, { follow: 'false', next: PROJECT })).status, 302);
  await followers.form.get(PROJECT);
  assert.equal(followButton((await followers.form.get(PROJECT)).text), 'Follow');
  assert.equal(followButton((await followers.form.get(NEIGHBOUR_IDEA)).text), 'Follow');
  await othersKept(urls);
});

test('a statement of many rows (an import) moves all its project\'s pages, as before', async (t) => {
  const { app, database, db } = await busyWorld();
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const visitor = new Browser(app);
  const before = await visit(visitor, PAGES);
  await db.execute(sql`INSERT INTO comments (creator_id, content_type, object_pk, comment, project_id) SELECT 6, 'idea', 1, 'Imported ' || n, 1 FROM generate_series(1, 1001) AS n`);
  assert.match((await visitor.get(IDEA)).text, /Imported/);
  for (const url of [MODULE, OTHER_MODULE, NEIGHBOUR_IDEA]) {
    const queries = database.stats.queries;
    await visitor.get(url);
    assert.ok(database.stats.queries - queries > 1, `${url} is made anew`);
  }
  await assertKept(visitor, database, before, ['/']);
});

/** The project page without its module tiles' counts, and the counts of each tile, in order. */
function tiles(html: string): { rest: string; counts: string[] } {
  const counts = [...html.matchAll(/<ul class="tile-counts">([\s\S]*?)<\/ul>/g)].map(([, list]) => (list ?? '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim());
  return { rest: html.replace(/<ul class="tile-counts">[\s\S]*?<\/ul>/g, ''), counts };
}

test("a comment on an idea moves only its idea's page: the project page's tiles and the module page's figures read after it show it, each read once", async (t) => {
  const { app, database, db } = await busyWorld();
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const visitor = new Browser(app);
  const before = await visit(visitor, PAGES);
  const counts = tiles(before.get(PROJECT) ?? '').counts;
  assert.match(counts[0] ?? '', /1 comment 2 participants/, "the ideas module's tile first");
  // The member (user 4) has not taken part yet (busyWorld): the tile's participants grow too (and the follow their comment makes moves no page).
  const posted = await app.inject({ method: 'POST', url: '/api/contenttypes/4/objects/1/comments/', headers: await tokenHeader(db, 4), payload: { comment: 'A first word' } });
  assert.equal(posted.statusCode, 201, posted.body);
  const idea = await read(visitor, database, IDEA);
  assert.ok(idea.statements > 1, "the idea's page is made anew");
  assert.match(idea.text, /A first word/);
  const project = await read(visitor, database, PROJECT);
  assert.equal(project.statements, TILES_MOVED, "the project page's version did not move: the tiles' counts are read");
  const after = tiles(project.text);
  const expected = counts.map((tile, i) => (i === 0 ? tile.replace('1 comment 2 participants', '2 comments 3 participants') : tile));
  assert.deepEqual(after.counts, expected, "the tile of the idea's module counts the comment and its author, the others stay");
  assert.equal(after.rest, tiles(before.get(PROJECT) ?? '').rest, 'and nothing else changed');
  const module = await read(visitor, database, MODULE);
  assert.equal(module.statements, FIGURES_MOVED);
  assert.equal(module.text, before.get(MODULE)?.replace('1 comment<', '2 comments<'));
  await assertKept(visitor, database, before, ['/', OTHER_MODULE, NEIGHBOUR_IDEA]);
  // Read again, nothing changed: one statement, which reads no figures (this process holds them for the version).
  assert.equal((await read(visitor, database, PROJECT)).text, project.text);
  // In German, the figures are said in the page's language.
  const german = await new Browser(app, { 'accept-language': 'de' }).get(PROJECT);
  assert.match(german.text, /2 Kommentare/);
  assert.match(german.text, /3 Beteiligte</);
});

test("a rating changes only what shows it: its idea's page, and the figures on the module and project pages, read once; so does a moderator's feedback on a comment", async (t) => {
  const { app, database, db } = await busyWorld({ rating: true });
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const visitor = new Browser(app);
  const before = await visit(visitor, PAGES);
  assert.match(before.get(MODULE) ?? '', /0 agree</);
  const rated = await app.inject({ method: 'POST', url: '/api/contenttypes/4/objects/1/ratings/', headers: await tokenHeader(db, 4), payload: { value: 1 } });
  assert.equal(rated.statusCode, 201, rated.body);
  const idea = await read(visitor, database, IDEA);
  assert.ok(idea.statements > 1, "the idea's page is made anew");
  assert.notEqual(idea.text, before.get(IDEA));
  const module = await read(visitor, database, MODULE);
  assert.equal(module.statements, FIGURES_MOVED, "the module page's version did not move");
  const figuresOf = (agrees: string) => `<span>${agrees}</span><span>0 disagree</span><span>1 comment</span>`;
  assert.equal(module.text, before.get(MODULE)?.replace(figuresOf('0 agree'), figuresOf('1 agrees')), "its idea list shows the rating, the neighbour's figures stay");
  const project = await read(visitor, database, PROJECT);
  assert.equal(project.statements, TILES_MOVED);
  assert.match(tiles(project.text).counts[0] ?? '', /3 participants/, 'the rater takes part');
  await assertKept(visitor, database, before, ['/', OTHER_MODULE, NEIGHBOUR_IDEA]);
  // Withdrawn (a delete), the figure goes back, still without a new rendering.
  await db.execute(sql`DELETE FROM ratings WHERE creator_id = 4`);
  const withdrawn = await read(visitor, database, MODULE);
  assert.equal(withdrawn.statements, FIGURES_MOVED);
  assert.equal(withdrawn.text, before.get(MODULE));
  // A moderator's feedback on the idea's comment shows in its thread, on the idea's page only.
  await db.execute(sql`INSERT INTO comment_feedback (comment_id, creator_id, feedback_text) VALUES (1, 3, 'Thank you for this')`);
  assert.match((await read(visitor, database, IDEA)).text, /Thank you for this/);
  await assertKept(visitor, database, new Map([...before, [MODULE, withdrawn.text]]), [MODULE], FIGURES_MOVED);
  await assertKept(visitor, database, before, ['/', OTHER_MODULE, NEIGHBOUR_IDEA]);
});

test("comments and ratings on topics, subjects, chapters and paragraphs fill their module page's figures in: its version stays", async (t) => {
  const { app, database, db } = await createTestApp();
  const running = { start_date: daysFromNow(-1), end_date: daysFromNow(10) };
  await load(
    db,
    basicWorldWith({
      modules: [
        { id: 6, slug: 'prio', project: 1, name: 'Prio', blueprint_type: 'TP', phases: [{ type: 'a4_candy_topicprio:prioritize', ...running }] },
        { id: 7, slug: 'text', project: 1, name: 'Text', blueprint_type: 'TR', phases: [{ type: 'a4_candy_documents:comment', ...running }] },
        { id: 8, slug: 'debate', project: 1, name: 'Debate', blueprint_type: 'DB', phases: [{ type: 'a4_candy_debate:debate', ...running }] },
      ],
      topics: [{ id: 1, module: 6, creator: 3, name: 'Bike lanes' }],
      chapters: [{ id: 1, module: 7, creator: 2, name: 'Preamble' }],
      paragraphs: [{ id: 1, chapter: 1, name: '§ 1 Purpose', text: '<p>The purpose.</p>' }],
      subjects: [{ id: 1, module: 8, creator: 2, name: 'Opening hours' }],
    }),
  );
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const visitor = new Browser(app);
  const urls = { prio: '/org/projects/module/prio/', text: '/org/projects/module/text/', debate: '/org/projects/module/debate/' };
  const before = await visit(visitor, [...Object.values(urls), PROJECT]);
  await db.execute(sql`INSERT INTO comments (creator_id, content_type, object_pk, comment, project_id) VALUES (5, 'topic', 1, 'On the topic', 1), (5, 'paragraph', 1, 'On the paragraph', 1), (5, 'chapter', 1, 'On the chapter', 1), (5, 'subject', 1, 'On the subject', 1)`);
  await db.execute(sql`INSERT INTO ratings (creator_id, content_type, object_pk, value) VALUES (6, 'topic', 1, -1)`);
  const expected = {
    prio: before.get(urls.prio)?.replace('0 disagree, 0 comments', '1 disagrees, 1 comment'),
    text: before.get(urls.text)?.replace(/No comments yet/g, '1 comment').replace('Purpose”: 0)', 'Purpose”: 1)'),
    debate: before.get(urls.debate)?.replace('0 contributions', '1 contribution'),
  };
  for (const [name, url] of Object.entries(urls)) {
    const page = await read(visitor, database, url);
    assert.equal(page.statements, FIGURES_MOVED, `${url}: its version did not move`);
    assert.notEqual(page.text, before.get(url), `${url} shows the figures`);
    assert.equal(page.text, expected[name as keyof typeof expected], url);
  }
  assert.equal((await read(visitor, database, PROJECT)).statements, TILES_MOVED, 'the project page too');
});

test("a kept page's figures are read once per process and version: overlapping requests share the read, and it is not read again while the version stays", async (t) => {
  const { app, db, database } = await busyWorld();
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  assert.deepEqual(
    await loadKeptFigures(db, ['c/idea:1', 'a/idea:1', 'd/idea:3', 'c/module:1', 'p/module:1', 'i/module:1', 'i/module:10', 'c/module:2', 'x/idea:1']),
    { 'c/idea:1': 1, 'a/idea:1': 0, 'd/idea:3': 0, 'c/module:1': 1, 'p/module:1': 2, 'i/module:1': 2, 'i/module:10': 1, 'c/module:2': 0 },
    "an item's comments and ratings, a module tile's items (ideas, questions), comments and participants (an unknown letter: none)",
  );
  const visitor = new Browser(app);
  await visit(visitor, [MODULE, PROJECT]);
  for (const url of [MODULE, PROJECT]) assert.equal((await read(visitor, database, url)).statements, 1, `${url}: kept, its figures held`);
  await db.execute(sql`INSERT INTO comments (creator_id, content_type, object_pk, comment, project_id) VALUES (6, 'idea', 1, 'Second', 1)`);
  for (const url of [MODULE, PROJECT]) {
    // Ten requests at once after the comment: ten head statements and one read of the figures (on the project page, one count of the tile).
    const queries = database.stats.queries;
    const pages = await Promise.all(Array.from({ length: 10 }, () => visitor.get(url)));
    assert.equal(database.stats.queries - queries, url === PROJECT ? 12 : 11, `${url}: the figures read once`);
    assert.equal(new Set(pages.map((page) => page.text.replace(/csrfmiddlewaretoken" value="[^"]+"/g, ''))).size, 1, `${url}: the same page to all`);
    assert.equal((await read(visitor, database, url)).statements, 1, `${url}: then held`);
  }
  assert.match((await visitor.get(MODULE)).text, /2 comments</, 'the new figure shows');
});

test("a module tile's figures are counted once per version: kept in the database under the version they were counted at for every process, counted anew when a write moves it", async (t) => {
  const { app, db, database } = await busyWorld();
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  type Kept = { module_id: number; items: number; comments: number; participants: number };
  const kept = async () => ((await db.execute(sql`SELECT module_id, items, comments, participants FROM module_figures ORDER BY module_id`)) as unknown as { rows: Kept[] }).rows.map((row) => ({ ...row }));
  const tile = ['i/module:1', 'c/module:1', 'p/module:1'];
  assert.deepEqual(await kept(), [], 'nothing counted yet');
  assert.deepEqual(await loadKeptFigures(db, tile), { 'i/module:1': 2, 'c/module:1': 1, 'p/module:1': 2 });
  assert.deepEqual(await kept(), [{ module_id: 1, items: 2, comments: 1, participants: 2 }], 'counted once and kept');
  // What another process finds: the row kept at the same version is taken as it stands, in one statement.
  await db.execute(sql`UPDATE module_figures SET comments = 41 WHERE module_id = 1`);
  const queries = database.stats.queries;
  assert.equal((await loadKeptFigures(db, tile))['c/module:1'], 41, 'the kept figures are read, not counted');
  assert.equal(database.stats.queries - queries, 1);
  // Overlapping reads after a comment (which moves the module's version) count the module once, and the project page shows it.
  await db.execute(sql`INSERT INTO comments (creator_id, content_type, object_pk, comment, project_id) VALUES (4, 'idea', 3, 'Another view', 1)`);
  const before = database.stats.queries;
  const reads = await Promise.all(Array.from({ length: 5 }, () => loadKeptFigures(db, tile)));
  assert.equal(database.stats.queries - before, 6, 'five reads, one count');
  for (const figures of reads) assert.deepEqual(figures, { 'i/module:1': 2, 'c/module:1': 2, 'p/module:1': 3 });
  assert.match((await new Browser(app).get(PROJECT)).text, /2 comments[\s\S]*3 participants/, "the project page's tile");
  assert.deepEqual((await kept()).map((row) => row.module_id), [1, 2, EVENT], "the project page's read kept its other tiles too");
  // The figures of a deleted module go with the background work's vacuum.
  await db.execute(sql`DELETE FROM modules WHERE id = 2`);
  await vacuumPageChanges(db);
  assert.deepEqual((await kept()).map((row) => row.module_id), [1, EVENT]);
});
