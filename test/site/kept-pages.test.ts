import assert from 'node:assert/strict';
import { test } from 'node:test';
import { count, eq, inArray, sql } from 'drizzle-orm';
import { comments, pageChangeSums, pageChanges } from '../../src/db/schema/index.js';
import { basicWorld, load, tokenHeader } from '../fixtures.js';
import { createTestApp } from '../helpers.js';
import { Browser } from '../me/accounts/client.js';
import { compactPageChanges } from '../../src/db/versions.js';
import { PAGE_CHANGES_COMPACT_INTERVAL_MS, PAGE_CHANGES_VACUUM_INTERVAL_MS } from '../../src/jobs/background.js';

/**
 * Kept pages (issue 23.1, web/page-keeping.ts): the start, project, module and idea pages are kept
 * per address, language and viewer under their page version. Time is frozen within one second, so
 * only the version can tell a kept page from a new one.
 */
const PAGES = ['/', '/org/projects/project/', '/org/projects/module/ideas-module/', '/org/ideas/2024-00001/'];
const IDEA = '/org/ideas/2024-00001/';

async function keptWorld() {
  const made = await createTestApp();
  const world = basicWorld();
  world.modules = (world.modules ?? []).map((module) => ({ ...module, slug: 'ideas-module' }));
  world.ideas = [{ id: 1, module: 1, creator: 5, name: 'Idea 1', description: 'x', created: '2024-03-01T10:00:00Z' }];
  world.comments = [{ id: 1, creator: 6, target: { type: 'idea', id: 1 }, comment: 'First comment' }];
  await load(made.db, world);
  return made;
}

/** The page without its form tokens (each visitor's own). */
const withoutTokens = (html: string) => html.replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, '');
const tokensOf = (html: string) => new Set([...html.matchAll(/name="csrfmiddlewaretoken" value="([^"]*)"/g)].map((m) => m[1]));

test('a kept page costs only its head statement, is the same page, and carries each visitor its own form token', async (t) => {
  const { app, database } = await keptWorld();
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const first = new Browser(app);
  const second = new Browser(app);
  for (const url of PAGES) {
    const fresh = await first.get(url);
    assert.equal(fresh.status, 200, url);
    const before = database.stats.queries;
    const kept = await second.get(url);
    assert.equal(kept.status, 200, url);
    assert.equal(database.stats.queries - before, 1, `${url}: a kept page reads its version with its head, nothing else`);
    assert.equal(withoutTokens(kept.text), withoutTokens(fresh.text), url);
    assert.deepEqual(tokensOf(fresh.text), new Set([first.csrf]), `${url}: the first visitor's token`);
    assert.deepEqual(tokensOf(kept.text), new Set([second.csrf]), `${url}: the second visitor's own token`);
    assert.notEqual(first.csrf, second.csrf);
  }
  // The token in a kept page works: the language switcher's form is accepted.
  const switched = await second.post('/i18n/setlang/', { language: 'de', next: IDEA });
  assert.equal(switched.status, 302);
  assert.match((await second.get(IDEA)).text, /<html lang="de"/, 'each language has its own page');
  assert.match((await first.get(IDEA)).text, /<html lang="en"/);
});

test('the next request after a write shows it: a comment, a rating, a block, a renamed author, a write by plain SQL', async (t) => {
  const { app, db } = await keptWorld();
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const visitor = new Browser(app);
  const user = new Browser(app);
  assert.equal((await user.login('user', 'user-password')).status, 302);
  for (const url of PAGES) await visitor.get(url);

  // A new comment through the page form: the idea page and the counts of the lists show it.
  assert.equal((await user.post('/comments/on/idea/1/', { comment: 'A second comment' })).status, 302);
  assert.match((await visitor.get(IDEA)).text, /A second comment/);
  assert.match((await visitor.get('/org/projects/project/')).text, /2 comments/);

  // A rating of the first comment (by plain SQL: the idea module's phase takes no ratings of ideas).
  const [comment] = await db.select({ id: comments.id }).from(comments).where(eq(comments.comment, 'First comment'));
  const unrated = withoutTokens((await visitor.get(IDEA)).text);
  await db.execute(sql`INSERT INTO ratings (content_type, object_pk, creator_id, value) VALUES ('comment', ${comment.id}, 5, 1)`);
  assert.notEqual(withoutTokens((await visitor.get(IDEA)).text), unrated, 'the rating shows');

  // A moderator blocks the first comment (the moderation API).
  assert.match((await visitor.get(IDEA)).text, /First comment/);
  const blocked = await app.inject({ method: 'PATCH', url: `/api/userdashboard/moderation/1/comments/${comment.id}/`, headers: await tokenHeader(db, 3), payload: { is_blocked: true } });
  assert.equal(blocked.statusCode, 200);
  assert.doesNotMatch((await visitor.get(IDEA)).text, /First comment/, 'a blocked comment is no longer shown');

  // The idea's author is renamed (the idea page names them).
  assert.match((await visitor.get(IDEA)).text, />user</);
  await db.execute(sql`UPDATE users SET username = 'renamed' WHERE username = 'user'`);
  assert.match((await visitor.get(IDEA)).text, />renamed</);

  // A write by plain SQL (another instance, manage, psql) to an idea.
  await db.execute(sql`UPDATE ideas SET name = 'Renamed idea' WHERE id = 1`);
  for (const url of PAGES.slice(1)) assert.match((await visitor.get(url)).text, /Renamed idea/, url);

  // A write to another project's content leaves these pages kept: nothing of it shows here.
  // (The start page shows no project's content and is kept under the four rarely written tables.)
  await db.execute(sql`UPDATE projects SET name = 'Renamed project' WHERE id = 1`);
  assert.match((await visitor.get('/')).text, /Renamed project/);
});

test('the footer\'s links and the platform settings written elsewhere (another instance, plain SQL) show on the next page, kept or not, and a kept page moves with them', async (t) => {
  const { app, db, database } = await keptWorld();
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const visitor = new Browser(app);
  const pages = [...PAGES, '/contact/'];
  for (const url of pages) assert.doesNotMatch((await visitor.get(url)).text, /\/pages\/help\//, url);
  // Time stands still: only the data can tell the pages that the frame changed.
  await db.execute(sql`INSERT INTO content_pages (slug, title_en, title_de, placement) VALUES ('help', 'Help', 'Hilfe', 'footer')`);
  for (const url of pages) assert.match((await visitor.get(url)).text, /<footer[\s\S]*<a href="\/pages\/help\/">Help<\/a>/, `${url}: the new content page is linked at once`);
  await db.execute(sql`INSERT INTO platform_settings (id, name) VALUES (1, 'Mitmachen Musterstadt')`);
  for (const url of pages) assert.match((await visitor.get(url)).text, /<footer[\s\S]*<li>Mitmachen Musterstadt<\/li>/, `${url}: the platform's name at once`);
  for (const url of PAGES) {
    const before = database.stats.queries;
    assert.match((await visitor.get(url)).text, /Mitmachen Musterstadt/);
    assert.equal(database.stats.queries - before, 1, `${url}: kept again with its frame, one statement`);
  }
});

test('a signed-in user gets their own page, never another user\'s or a visitor\'s', async (t) => {
  const { app } = await keptWorld();
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const visitor = new Browser(app);
  const moderator = new Browser(app);
  assert.equal((await moderator.login('moderator', 'moderator-password')).status, 302);
  const user = new Browser(app);
  assert.equal((await user.login('user', 'user-password')).status, 302);
  for (const url of PAGES) {
    const moderatorPage = await moderator.get(url);
    const userPage = await user.get(url);
    const visitorPage = await visitor.get(url);
    assert.match(moderatorPage.text, /href="\/userdashboard\/moderation\/"/, `${url}: the moderator's navigation`);
    assert.doesNotMatch(userPage.text, /href="\/userdashboard\/moderation\/"/, `${url}: not the moderator's page`);
    assert.match(userPage.text, /Logout/, url);
    assert.doesNotMatch(visitorPage.text, /Logout/, `${url}: a visitor gets a visitor's page`);
    assert.match((await moderator.get(url)).text, /href="\/userdashboard\/moderation\/"/, `${url}: kept for the moderator`);
  }
  // The follow button is the user's own: the administrator follows, another user's button stays as it was.
  const admin = new Browser(app);
  assert.equal((await admin.login('admin', 'admin-password')).status, 302);
  const followButton = (html: string) => /name="follow" value="(true|false)"/.exec(html)?.[1];
  assert.equal(followButton((await admin.get('/org/projects/project/')).text), 'true', 'not following yet');
  const others = followButton((await user.get('/org/projects/project/')).text);
  assert.equal((await admin.post('/org/projects/project/follow/', { follow: 'true', next: '/org/projects/project/' })).status, 302);
  assert.equal(followButton((await admin.get('/org/projects/project/')).text), 'false', 'following now');
  assert.equal(followButton((await user.get('/org/projects/project/')).text), others, "another user's button is their own");
});

test('merging the change log keeps every page version', async (t) => {
  // The app's intervals mocked too (an app of its own): its background merge runs only when this test merges.
  t.mock.timers.enable({ apis: ['Date', 'setInterval'], now: Date.now() });
  const { app, db, database } = await keptWorld();
  const visitor = new Browser(app);
  await db.execute(sql`UPDATE ideas SET name = 'Once more' WHERE id = 1`);
  await db.execute(sql`UPDATE ideas SET name = 'Idea 1' WHERE id = 1`);
  // Two comments on the idea: thread rows, which the module's and project's versions leave out; the merge keeps them apart.
  await db.execute(sql`INSERT INTO comments (creator_id, content_type, object_pk, comment, project_id) VALUES (6, 'idea', 1, 'Second', 1)`);
  await db.execute(sql`INSERT INTO comments (creator_id, content_type, object_pk, comment, project_id) VALUES (6, 'idea', 1, 'Third', 1)`);
  for (const url of PAGES) await visitor.get(url);
  const fresh = async () => (await db.select({ n: count() }).from(pageChanges))[0].n;
  assert.ok((await fresh()) > 0);
  await compactPageChanges(db);
  assert.equal(await fresh(), 0, 'the rows are moved into the sums');
  for (const url of PAGES) {
    const queries = database.stats.queries;
    assert.equal((await visitor.get(url)).status, 200);
    assert.equal(database.stats.queries - queries, 1, `${url}: still kept after the merge`);
  }
  // A write after the merge moves the pages it shows on, as before it.
  const showing = [];
  for (const url of PAGES) if ((await visitor.get(url)).text.includes('Idea 1')) showing.push(url);
  assert.ok(showing.length > 1);
  await db.execute(sql`UPDATE ideas SET name = 'Renamed' WHERE id = 1`);
  for (const url of showing) assert.match((await visitor.get(url)).text, /Renamed/, `${url}: shows the write after the merge`);
});

test('the background work moves the change log into its sums every few seconds, uncounted, and vacuums it', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const { app, db, database } = await createTestApp();
  await load(db, basicWorld());
  await db.insert(pageChanges).values([{ projectId: 7 }, { projectId: 7, n: 2 }, { projectId: 8, moduleId: 3, itemId: 4, thread: true }]);
  const fresh = async () => (await db.select({ n: count() }).from(pageChanges).where(inArray(pageChanges.projectId, [7, 8])))[0].n;
  const sums = async () =>
    db
      .select({ scope: pageChangeSums.scope, projectId: pageChangeSums.projectId, moduleId: pageChangeSums.moduleId, itemId: pageChangeSums.itemId, thread: pageChangeSums.thread, n: pageChangeSums.n })
      .from(pageChangeSums)
      .where(inArray(pageChangeSums.projectId, [7, 8]))
      .orderBy(pageChangeSums.projectId, pageChangeSums.scope);
  t.mock.timers.tick(PAGE_CHANGES_COMPACT_INTERVAL_MS - 1);
  assert.equal(await fresh(), 3, 'nothing merged before the interval is up');
  const errors: unknown[] = [];
  t.mock.method(app.log, 'error', (...args: unknown[]) => void errors.push(args));
  const counted = database.stats.queries;
  // The merge's first run, then the vacuum's (a failed run is logged as an error).
  t.mock.timers.tick(1);
  t.mock.timers.tick(PAGE_CHANGES_VACUUM_INTERVAL_MS - PAGE_CHANGES_COMPACT_INTERVAL_MS);
  // Closing the app waits for the runs going on.
  await app.close();
  assert.equal(database.stats.queries - counted, 0, 'the background work is not counted');
  assert.deepEqual(errors, []);
  assert.equal(await fresh(), 0, 'the rows are moved');
  assert.deepEqual(await sums(), [
    { scope: 0, projectId: 7, moduleId: 0, itemId: 0, thread: false, n: 3 },
    { scope: 1, projectId: 7, moduleId: 0, itemId: 0, thread: false, n: 3 },
    { scope: 2, projectId: 7, moduleId: 0, itemId: 0, thread: false, n: 3 },
    { scope: 0, projectId: 8, moduleId: 3, itemId: 4, thread: true, n: 1 },
    { scope: 1, projectId: 8, moduleId: 3, itemId: 0, thread: true, n: 1 },
    { scope: 2, projectId: 8, moduleId: 0, itemId: 0, thread: true, n: 1 },
  ]);
});
