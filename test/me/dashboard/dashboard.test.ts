import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import type { Fixture } from '../../../src/cli/fixture-schema.js';
import { actions, comments, users } from '../../../src/db/schema/index.js';
import { createComment } from '../../../src/features/comments/services.js';
import { carousel } from '../../../src/me/dashboard/rules.js';
import { updateCommentFeedback } from '../../../src/features/comments/feedback-services.js';
import { basicWorld, daysFromNow, load } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { Browser } from '../accounts/client.js';

/** basicWorld plus: user 5 wrote idea 1 and poll 1; others react to them. */
function feedWorld(extra: Partial<Fixture> = {}): Fixture {
  const world = basicWorld();
  return {
    ...world,
    polls: [{ id: 1, module: 1, creator: 5 }],
    ideas: [{ id: 1, module: 1, creator: 5, name: 'More trees', description: 'Plant them', created: '2024-03-05T14:07:00Z' }],
    ...extra,
  };
}

async function signedIn(fixture: Fixture, username = 'user', headers: Record<string, string> = {}) {
  const t = await createTestApp();
  await load(t.db, fixture);
  const browser = new Browser(t.app, headers);
  const login = await browser.login(username, `${username}-password`);
  assert.equal(login.status, 302);
  return { ...t, browser };
}

const feedItems = (html: string) => [...html.matchAll(/<ul class="feed">([\s\S]*?)<\/ul>/g)].flatMap((m) => m[1].split('<li>').slice(1));

test('anonymous visitors are sent to the login page with next', async () => {
  const t = await createTestApp();
  const browser = new Browser(t.app);
  for (const path of ['/userdashboard/overview/', '/userdashboard/overview/activities/', '/userdashboard/overview/following/']) {
    const response = await browser.get(path);
    assert.equal(response.status, 302);
    assert.equal(response.location, `/accounts/login/?next=${path}`);
  }
});

test('a fresh user sees empty following, feed and organisations', async () => {
  const { browser } = await signedIn(basicWorld());
  const page = await browser.get('/userdashboard/overview/');
  assert.equal(page.status, 200);
  assert.match(page.text, /You are not active in any projects yet\./);
  assert.match(page.text, /No activity yet\./);
  assert.match(page.text, /<h2>Organisations<\/h2><p>You do not follow projects of any organisation yet\.<\/p>/);
});

test('a comment by another user on my idea shows in My Feed, with the project followed and its organisation', async () => {
  const { browser } = await signedIn(feedWorld({ comments: [{ id: 1, creator: 6, target: { type: 'idea', id: 1 }, comment: 'Good idea!' }] }));
  const page = await browser.get('/userdashboard/overview/');
  const items = feedItems(page.text);
  assert.equal(items.length, 1);
  assert.match(items[0], /<a href="\/profile\/other\/">other<\/a> left a <a href="\/org\/ideas\/2024-00001\/\?comment=1#comment-1">comment<\/a> on your <a href="\/org\/ideas\/2024-00001\/">contribution<\/a>/);
  assert.match(items[0], /on <a href="\/org\/projects\/project\/">Project<\/a>/);
  assert.match(items[0], /<time class="relative" datetime="[^"]+" title="[^"]+">[A-Z][a-z]+\.? \d{1,2}, \d{4}<\/time>/, 'one date format on English pages');
  assert.match(page.text, /<a href="\/org\/projects\/project\/">Project<\/a><\/h3>/); // the carousel tile (auto-follow)
  assert.match(page.text, /<a href="\/org\/">Organisation<\/a>/);
  const activities = await browser.get('/userdashboard/overview/activities/');
  assert.equal(feedItems(activities.text).length, 1);
  assert.match(activities.text, /Back to overview/);
});

test('the feed leaves out own actions, blocked comments and comments on polls, but keeps replies and feedback', async () => {
  const { browser, db } = await signedIn(
    feedWorld({
      comments: [
        { id: 1, creator: 5, target: { type: 'idea', id: 1 }, comment: 'my own comment', created: '2024-01-01T10:00:00Z' },
        { id: 2, creator: 6, target: { type: 'idea', id: 1 }, comment: 'blocked one', is_blocked: true, created: '2024-01-02T10:00:00Z' },
        { id: 3, creator: 6, target: { type: 'poll', id: 1 }, comment: 'on the poll', created: '2024-01-03T10:00:00Z' },
        { id: 4, creator: 5, target: { type: 'poll', id: 1 }, comment: 'my poll comment', created: '2024-01-04T10:00:00Z' },
        { id: 5, creator: 6, target: { type: 'comment', id: 4 }, comment: 'a reply to you', created: '2024-01-05T10:00:00Z' },
        { id: 6, creator: 5, target: { type: 'comment', id: 1 }, comment: 'replying to myself', created: '2024-01-06T10:00:00Z' },
      ],
      comment_feedback: [
        { id: 1, comment: 1, creator: 3, feedback_text: 'Thanks', created: '2024-01-07T10:00:00Z' },
        { id: 2, comment: 4, creator: 5, feedback_text: 'self', created: '2024-01-08T10:00:00Z' },
      ],
    }),
  );
  await db.transaction(async (tx) => updateCommentFeedback(tx, 1, 3, 'Thanks again'));
  const page = await browser.get('/userdashboard/overview/activities/');
  const items = feedItems(page.text);
  assert.equal(items.length, 3, items.join('\n---\n'));
  assert.match(items[0], /Moderation updated feedback on your <a href="\/org\/ideas\/2024-00001\/\?comment=1#comment-1">comment<\/a>/);
  assert.match(items[1], /Your <a href="\/org\/ideas\/2024-00001\/\?comment=1#comment-1">comment<\/a> received feedback from moderation/);
  assert.match(items[2], /other<\/a> left a <a href="\/org\/projects\/module\/module-1\/\?comment=5#comment-5">reply<\/a> to your <a href="\/org\/projects\/module\/module-1\/\?comment=4#comment-4">comment<\/a>/);
  assert.doesNotMatch(page.text, /blocked one|on the poll/);
});

test('the activities page pages newest first with a constant number of statements', async () => {
  const many = Array.from({ length: 25 }, (_, i) => ({
    id: i + 1,
    creator: 6,
    target: { type: 'idea' as const, id: 1 },
    comment: `comment number ${i + 1}`,
    created: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString(),
  }));
  const { browser, database } = await signedIn(feedWorld({ comments: many }));
  const before = database.stats.queries;
  const first = await browser.get('/userdashboard/overview/activities/');
  const firstCount = database.stats.queries - before;
  const items = feedItems(first.text);
  assert.equal(items.length, 20);
  assert.match(items[0], /comment number 25/);
  assert.match(items[19], /comment number 6</);
  const older = /href="(\/userdashboard\/overview\/activities\/\?before=\d+)"/.exec(first.text);
  assert.ok(older);
  const second = await browser.get(older[1].replace(/&amp;/g, '&'));
  const rest = feedItems(second.text);
  assert.equal(rest.length, 5);
  assert.match(rest[0], /comment number 5</);
  assert.match(rest[4], /comment number 1</);
  assert.doesNotMatch(second.text, /href="[^"]*\?before=/);

  const small = await signedIn(feedWorld({ comments: many.slice(0, 3) }));
  const mark = small.database.stats.queries;
  await small.browser.get('/userdashboard/overview/activities/');
  assert.equal(small.database.stats.queries - mark, firstCount);
  assert.equal((await browser.get('/userdashboard/overview/activities/?before=abc')).status, 400);
  assert.equal((await browser.get('/userdashboard/overview/activities/?before=99999999999')).status, 400);
});

test('the overview shows the 5 newest activities and a link to all of them', async () => {
  const six = Array.from({ length: 6 }, (_, i) => ({ id: i + 1, creator: 6, target: { type: 'idea' as const, id: 1 }, comment: `c${i + 1}`, created: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString() }));
  const { browser } = await signedIn(feedWorld({ comments: six }));
  const page = await browser.get('/userdashboard/overview/');
  assert.equal(feedItems(page.text).length, 5);
  assert.match(page.text, /href="\/userdashboard\/overview\/activities\/">View more/);
});

test('a comment containing an encoded script tag shows its words and no script', async () => {
  const { browser, db } = await signedIn(feedWorld());
  await db.transaction(async (tx) => createComment(tx, { creatorId: 6, target: { type: 'idea', id: 1 }, comment: '&lt;script&gt;alert(1)&lt;/script&gt;Harmless words' }));
  const page = await browser.get('/userdashboard/overview/');
  assert.match(page.text, /Harmless words/);
  assert.doesNotMatch(page.text, /alert\(1\)/);
  assert.doesNotMatch(page.text, /<script>/);
});

test('the feed and tiles speak German for a German user', async () => {
  const fixture = feedWorld({ comments: [{ id: 1, creator: 6, target: { type: 'idea', id: 1 }, comment: 'Gut!', created: '2024-03-05T14:07:00Z' }] });
  const t = await createTestApp();
  await load(t.db, fixture);
  await t.db.update(users).set({ language: 'de' }).where(eq(users.id, 5));
  const browser = new Browser(t.app);
  await browser.login('user', 'user-password');
  const page = await browser.get('/userdashboard/overview/');
  assert.match(page.text, /Mein Feed/);
  assert.match(page.text, /other<\/a> hat einen <a [^>]+>Kommentar<\/a> zu Ihrem <a [^>]+>Beitrag<\/a> hinterlassen/);
  assert.match(page.text, /auf <a href="\/org\/projects\/project\/">Project<\/a>/);
  assert.match(page.text, /title="5\. März 2024, 15:07">5\. März 2024<\/time>/);
  assert.match(page.text, /verbleibend/);
  assert.match(page.text, /MITMACHEN/);
});

test('following lists all followed projects; the carousel keeps D6 order and at most 8', async () => {
  const world = basicWorld();
  const project = (id: number, start: string | null, end: string | null, extra: Record<string, unknown> = {}) => ({
    project: { id, slug: `p${id}`, name: `P${id}`, organisation: 1, ...extra },
    module: { id, project: id, name: `M${id}`, phases: [{ type: 'a4_candy_ideas:collect', start_date: start, end_date: end }] },
  });
  const list = [
    project(2, daysFromNow(-10), daysFromNow(-1)), // past, ended recently
    project(3, daysFromNow(-20), daysFromNow(-15)), // past, ended earlier
    project(4, daysFromNow(-1), daysFromNow(5)), // active, ends later
    project(5, daysFromNow(-1), daysFromNow(2)), // active, ends sooner
    project(6, daysFromNow(3), daysFromNow(9)), // future, starts later
    project(7, daysFromNow(1), daysFromNow(9)), // future, starts sooner
    project(8, null, null), // future, no dates
    project(9, daysFromNow(-1), daysFromNow(2), { is_draft: true }), // draft: not in the carousel
    project(10, daysFromNow(-30), daysFromNow(-29)),
    project(11, daysFromNow(-40), daysFromNow(-39)),
  ];
  const fixture: Fixture = {
    ...world,
    projects: [...(world.projects ?? []), ...list.map((p) => p.project)],
    modules: [...(world.modules ?? []), ...list.map((p) => p.module)],
    follows: list.map((p) => ({ creator: 5, project: p.project.id })),
  };
  const { browser } = await signedIn(fixture);
  const page = await browser.get('/userdashboard/overview/');
  const tiles = [...page.text.matchAll(/<h3><a href="\/org\/projects\/(p\d+)\/">/g)].map((m) => m[1]);
  assert.deepEqual(tiles, ['p5', 'p4', 'p7', 'p6', 'p8', 'p2', 'p3', 'p10']);
  assert.match(page.text, /href="\/userdashboard\/overview\/following\/">View more/);
  const following = await browser.get('/userdashboard/overview/following/');
  assert.equal([...following.text.matchAll(/<li class="tile">/g)].length, 10);
});

test('carousel: at end == now a project is in no group', () => {
  const now = new Date('2025-01-01T00:00:00Z');
  const result = carousel([{ isDraft: false, start: new Date('2024-12-01T00:00:00Z'), end: now }], now);
  assert.deepEqual(result, []);
});

test('a blocked comment leaves the feed once it is blocked', async () => {
  const { browser, db } = await signedIn(feedWorld({ comments: [{ id: 1, creator: 6, target: { type: 'idea', id: 1 }, comment: 'soon blocked' }] }));
  assert.equal(feedItems((await browser.get('/userdashboard/overview/')).text).length, 1);
  await db.update(comments).set({ isBlocked: true }).where(eq(comments.id, 1));
  assert.equal(feedItems((await browser.get('/userdashboard/overview/')).text).length, 0);
  assert.equal((await db.select().from(actions).where(and(eq(actions.objType, 'comment'), eq(actions.objId, 1)))).length, 1);
});

test("the moderation's official feedback on my idea, map idea and proposal shows in My Feed with a link to each (en, de)", async () => {
  const square = [[[13, 52], [14, 52], [14, 53], [13, 53], [13, 52]]];
  const area = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: square } }] };
  const point = { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [13.5, 52.5] } };
  const running = { start_date: daysFromNow(-1), end_date: daysFromNow(10) };
  const created = '2024-03-05T14:07:00Z';
  const world = feedWorld();
  const { app, db } = await signedIn({
    ...world,
    modules: [
      ...(world.modules ?? []),
      { id: 2, slug: 'map', project: 1, name: 'Map', blueprint_type: 'MBS', area, phases: [{ type: 'a4_candy_mapideas:collect', ...running }] },
      { id: 3, slug: 'budget', project: 1, name: 'Budget', blueprint_type: 'PB', area, phases: [{ type: 'a4_candy_budgeting:request', ...running }] },
    ],
    map_ideas: [{ id: 1, module: 2, creator: 5, name: 'Bench by the pond', description: '<p>x</p>', point, created }],
    proposals: [{ id: 1, module: 3, creator: 5, name: 'New playground', description: '<p>x</p>', point, created, budget: 100 }],
  });
  const moderator = new Browser(app);
  assert.equal((await moderator.login('moderator', 'moderator-password')).status, 302);
  for (const path of ['/org/ideas/2024-00001/', '/org/mapideas/2024-00001/', '/org/budgeting/2024-00001/']) {
    const saved = await moderator.post(`${path}moderate/`, { moderator_status: 'ACCEPTED', moderator_feedback_text: '<p>We will do it.</p>' });
    assert.equal(saved.status, 302, path);
  }
  const english = new Browser(app);
  assert.equal((await english.login('user', 'user-password')).status, 302);
  const items = feedItems((await english.get('/userdashboard/overview/activities/')).text);
  assert.equal(items.length, 3);
  const expected = [
    ['/org/budgeting/2024-00001/', 'New playground'],
    ['/org/mapideas/2024-00001/', 'Bench by the pond'],
    ['/org/ideas/2024-00001/', 'More trees'],
  ];
  for (const [i, [path, name]] of expected.entries()) {
    assert.match(items[i], new RegExp(`Your contribution <a href="${path}">${name}</a> received official feedback from moderation`), items[i]);
  }
  await db.update(users).set({ language: 'de' }).where(eq(users.username, 'user'));
  const german = new Browser(app);
  assert.equal((await german.login('user', 'user-password')).status, 302);
  const first = feedItems((await german.get('/userdashboard/overview/')).text)[0];
  assert.match(first, /Ihr Beitrag <a href="\/org\/budgeting\/2024-00001\/">New playground<\/a> hat eine offizielle Rückmeldung der Moderation erhalten/);
});
