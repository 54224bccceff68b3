import { emptySiteFrame } from '../../src/core/legal/content.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import type { Fixture } from '../../src/cli/fixture-schema.js';
import { comments, follows } from '../../src/db/schema/index.js';
import { basicWorld, daysFromNow, load, tokenHeader } from '../fixtures.js';
import { createTestApp } from '../helpers.js';
import { Browser } from '../me/accounts/client.js';
import { ErrorPage } from '../../src/web/errors.js';
import { renderPage } from '../../src/web/render.js';

const IDEA = '/org/ideas/2024-00001/';

/** basicWorld plus: idea 1 with comments (one with a reply, one blocked, one removed, one with feedback), a private and a draft project. */
function pageWorld(extra: Partial<Fixture> = {}): Fixture {
  const world = basicWorld();
  return {
    ...world,
    projects: [
      ...(world.projects ?? []),
      { id: 2, slug: 'secret', name: 'Secret project', organisation: 1, access: 'PRIVATE', moderators: [3], participants: [4] },
      { id: 3, slug: 'draft', name: 'Draft project', organisation: 1, is_draft: true },
      { id: 4, slug: 'old', name: 'Archived project', organisation: 1, is_archived: true },
    ],
    modules: [
      ...(world.modules ?? []).map((m) => ({ ...m, slug: 'ideas-module' })),
      { id: 2, slug: 'secret-module', project: 2, name: 'Secret ideas', phases: [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(10) }] },
      { id: 3, slug: 'old-module', project: 4, name: 'Old ideas', phases: [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-20), end_date: daysFromNow(-10) }] },
    ],
    ideas: [
      { id: 1, module: 1, creator: 5, name: 'More <b>trees</b>', description: '<p>Plant <strong>them</strong></p><script>alert(1)</script>', category: 1, labels: [1], created: '2024-03-05T14:07:00Z' },
      { id: 2, module: 2, creator: 4, name: 'Secret idea', description: 'psst', created: '2024-03-06T10:00:00Z' },
      { id: 3, module: 3, creator: 5, name: 'Old idea', description: 'long ago', created: '2024-03-07T10:00:00Z' },
    ],
    comments: [
      { id: 1, creator: 6, target: { type: 'idea', id: 1 }, comment: '<script>alert("x")</script>Nice', created: '2024-03-06T10:00:00Z' },
      { id: 2, creator: 5, target: { type: 'comment', id: 1 }, comment: 'Thanks!', created: '2024-03-06T11:00:00Z' },
      { id: 3, creator: 6, target: { type: 'idea', id: 1 }, comment: 'Blocked words', is_blocked: true, created: '2024-03-07T10:00:00Z' },
      { id: 4, creator: 6, target: { type: 'idea', id: 1 }, comment: 'Gone', is_removed: true, created: '2024-03-08T10:00:00Z' },
    ],
    comment_feedback: [{ comment: 2, creator: 3, feedback_text: 'Noted by moderation' }],
    ...extra,
  };
}

async function world(extra: Partial<Fixture> = {}) {
  const t = await createTestApp();
  await load(t.db, pageWorld(extra));
  return t;
}

async function signedIn(app: Awaited<ReturnType<typeof world>>['app'], username: string, headers: Record<string, string> = {}) {
  const browser = new Browser(app, headers);
  assert.equal((await browser.login(username, `${username}-password`)).status, 302);
  return browser;
}

const isHtml = (headers: Record<string, unknown>) => String(headers['content-type']).startsWith('text/html');

test('the idea page shows the idea, escapes text and keeps only the clean rich text', async () => {
  const { app } = await world();
  const page = await new Browser(app).get(IDEA);
  assert.equal(page.status, 200);
  assert.ok(isHtml(page.headers));
  assert.match(page.text, /<h1>More &lt;b>trees&lt;\/b><\/h1>/);
  assert.match(page.text, /<p>Plant <strong>them<\/strong><\/p>/);
  assert.doesNotMatch(page.text, /<script>alert/);
  assert.match(page.text, /<a href="\/profile\/user\/">user<\/a>/);
  assert.match(page.text, /Traffic/);
  assert.match(page.text, /Urgent/);
});

test('comments: anchors for ?comment= links, replies, hidden texts and moderator feedback', async () => {
  const { app } = await world();
  const page = await new Browser(app).get(`${IDEA}?comment=2`);
  assert.equal(page.status, 200);
  for (const id of [1, 2, 3, 4]) assert.match(page.text, new RegExp(`id="comment-${id}"`));
  assert.match(page.text, /id="comment-2" class="comment highlighted"/);
  // Escaped (the stored text had its tags stripped on save; whatever is left is text).
  assert.doesNotMatch(page.text, /<script>alert\("x"\)/);
  assert.match(page.text, /Thanks!/);
  assert.match(page.text, /Noted by moderation/);
  // Blocked and removed: no text, no author.
  assert.doesNotMatch(page.text, /Blocked words/);
  assert.doesNotMatch(page.text, />Gone</);
  assert.match(page.text, /Blocked by moderator/);
  assert.match(page.text, /Deleted by creator/);
  assert.equal(page.text.match(/<span>unknown user<\/span>/g)?.length, 2);
  // Newest first: comment 4 before comment 3 before comment 1; the reply follows its parent.
  const order = [4, 3, 1, 2].map((id) => page.text.indexOf(`id="comment-${id}"`));
  assert.deepEqual([...order].sort((a, b) => a - b), order);
});

test('the idea page is in German with Accept-Language: de', async () => {
  const { app } = await world();
  const page = await new Browser(app, { 'accept-language': 'de' }).get(IDEA);
  assert.match(page.text, /<html lang="de">/);
  assert.match(page.text, /Kommentare \(4\)/);
  assert.match(page.text, /Von Moderation blockiert/);
});

test('wrong year, organisation or id is a 404 page; private and draft projects send visitors to the login, others get 403 (§A5.4)', async () => {
  const { app } = await world();
  const anonymous = new Browser(app);
  for (const path of ['/org/ideas/2023-00001/', '/nope/ideas/2024-00001/', '/org/ideas/2024-99999/', '/org/ideas/2024-99999999999/', '/org/ideas/x/', '/nope/', '/nope/projects/project/']) {
    const page = await anonymous.get(path);
    assert.equal(page.status, 404, path);
    assert.ok(isHtml(page.headers), path);
    assert.match(page.text, /Page not found/, path);
  }
  for (const path of ['/org/ideas/2024-00002/', '/org/projects/secret/', '/org/projects/draft/', '/org/projects/module/secret-module/']) {
    const page = await anonymous.get(path);
    assert.deepEqual([page.status, page.location], [302, `/accounts/login/?next=${path}`], path);
  }
  const member = await signedIn(app, 'member');
  assert.equal((await member.get('/org/ideas/2024-00002/')).status, 200);
  assert.equal((await member.get('/org/projects/secret/')).status, 200);
  const draft = await member.get('/org/projects/draft/');
  assert.equal(draft.status, 403);
  assert.match(draft.text, /Permission denied/);
  const initiator = await signedIn(app, 'initiator');
  assert.equal((await initiator.get('/org/projects/draft/')).status, 200);
  // Archived projects stay visible.
  assert.equal((await anonymous.get('/org/projects/old/')).status, 200);
  assert.equal((await anonymous.get('/org/ideas/2024-00003/')).status, 200);
});

test('the project page of a one-module project shows that module in place; the module page lists ideas', async () => {
  const { app } = await world();
  const browser = new Browser(app);
  const project = await browser.get('/org/projects/project/');
  assert.equal(project.status, 200);
  assert.match(project.text, /<h1>Project<\/h1>/);
  assert.match(project.text, /href="\/org\/projects\/module\/ideas-module\/"/);
  assert.match(project.text, /href="\/org\/ideas\/2024-00001\/"/);
  assert.match(project.text, /remaining/);
  assert.doesNotMatch(project.text, /Follow<\/button>/);
  const module = await browser.get('/org/projects/module/ideas-module/');
  assert.equal(module.status, 200);
  assert.match(module.text, /href="\/org\/ideas\/2024-00001\/"/);
  assert.equal((await browser.get('/org/projects/module/ideas-module/?page=2')).status, 404);
  assert.equal((await browser.get('/org/projects/module/ideas-module/?page=x')).status, 404, 'not a page: 404 as DRF answers');
});

test('follow and unfollow from the project page (CSRF checked)', async () => {
  const { app, db } = await world();
  const browser = await signedIn(app, 'member');
  const page = await browser.get('/org/projects/project/');
  assert.match(page.text, />Follow<\/button>/);
  const refused = await browser.post('/org/projects/project/follow/', { follow: 'true' }, false);
  assert.equal(refused.status, 403);
  assert.ok(isHtml(refused.headers));
  const followed = await browser.post('/org/projects/project/follow/', { follow: 'true' });
  assert.equal(followed.status, 302);
  assert.equal(followed.location, '/org/projects/project/');
  const rows = await db.select().from(follows).where(and(eq(follows.creatorId, 4), eq(follows.projectId, 1)));
  assert.deepEqual(rows.map((r) => r.enabled), [true]);
  assert.match((await browser.get('/org/projects/project/')).text, /Unfollow<\/button>/);
  await browser.post('/org/projects/project/follow/', { follow: 'false' });
  assert.deepEqual((await db.select().from(follows).where(and(eq(follows.creatorId, 4), eq(follows.projectId, 1)))).map((r) => r.enabled), [false]);
  const anonymous = new Browser(app);
  const redirected = await anonymous.post('/org/projects/project/follow/', { follow: 'true' });
  assert.equal(redirected.location, '/accounts/login/?next=/org/projects/project/');
  const outsider = await signedIn(app, 'other');
  assert.equal((await outsider.post('/org/projects/secret/follow/', { follow: 'true' })).status, 403);
});

test('signed-in participants comment from the idea page; blank comments and closed projects are refused', async () => {
  const { app, db } = await world();
  const browser = await signedIn(app, 'other');
  assert.match((await browser.get(IDEA)).text, /name="comment"/);
  const blank = await browser.post('/comments/on/idea/1/', { comment: '  <b></b> ' });
  assert.equal(blank.status, 400);
  assert.match(blank.text, /This field may not be blank\./);
  assert.match(blank.text, /&lt;b>&lt;\/b>/, 'the entered text is kept');
  const posted = await browser.post('/comments/on/idea/1/', { comment: 'From the <i>page</i>' });
  assert.equal(posted.status, 302);
  const [row] = await db.select().from(comments).where(eq(comments.comment, 'From the page'));
  assert.ok(row);
  assert.equal(posted.location, `${IDEA}?comment=${row.id}#comment-${row.id}`);
  assert.match((await browser.get(posted.location ?? '')).text, /Your comment has been posted\./);
  // The archived project is read-only for participants: no form, and a post is refused.
  assert.doesNotMatch((await browser.get('/org/ideas/2024-00003/')).text, /name="comment"/);
  assert.equal((await browser.post('/comments/on/idea/3/', { comment: 'late' })).status, 403);
  const anonymous = await new Browser(app).get(IDEA);
  assert.doesNotMatch(anonymous.text, /name="comment"/);
  assert.match(anonymous.text, /Please log in to comment\./);
});

test('home lists public live projects; the organisation page what the viewer may see', async () => {
  const { app } = await world();
  const home = await new Browser(app).get('/');
  assert.equal(home.status, 200);
  assert.match(home.text, /href="\/org\/projects\/project\/"/);
  assert.doesNotMatch(home.text, /secret|draft|Archived project/);
  const org = await new Browser(app).get('/org/');
  assert.match(org.text, /<h1>Organisation<\/h1>/);
  assert.match(org.text, /href="\/org\/projects\/project\/"/);
  assert.doesNotMatch(org.text, /Secret project/);
  const member = await signedIn(app, 'member');
  assert.match((await member.get('/org/')).text, /Secret project/);
});

test('errors: HTML pages for browsers and page routes, JSON for the API, plain text for the user/session service', async () => {
  const { app } = await world();
  const html = { accept: 'text/html,application/xhtml+xml' };
  const missing = await app.inject({ method: 'GET', url: '/no/such/page/', headers: html });
  assert.equal(missing.statusCode, 404);
  assert.match(missing.body, /Page not found/);
  const german = await app.inject({ method: 'GET', url: '/no/such/page/', headers: { ...html, 'accept-language': 'de' } });
  assert.match(german.body, /Seite nicht gefunden/);
  const method = await app.inject({ method: 'DELETE', url: '/org/projects/project/', headers: html });
  assert.equal(method.statusCode, 404);
  assert.ok(String(method.headers['content-type']).startsWith('text/html'));
  const api = await app.inject({ method: 'GET', url: '/api/nothing/', headers: html });
  assert.equal(api.statusCode, 404);
  assert.deepEqual(api.json(), { detail: 'Not found.' });
  const apiJson = await app.inject({ method: 'GET', url: '/no/such/page/' });
  assert.deepEqual(apiJson.json(), { detail: 'Not found.' });
  const usersvc = await app.inject({ method: 'GET', url: '/user/nobody', headers: html });
  assert.ok(!String(usersvc.headers['content-type']).startsWith('text/html'));
  const apiMethod = await app.inject({ method: 'PUT', url: '/api/modules/1/ideas/', headers: html });
  assert.equal(apiMethod.statusCode, 405);
  assert.equal(apiMethod.json().detail, 'Method "PUT" not allowed.');
});

test('CSRF failures: an HTML page for page forms, JSON for the API (the shared authenticate)', async () => {
  const { app } = await world();
  const browser = await signedIn(app, 'member');
  const page = await browser.post('/accounts/logout/', {}, false);
  assert.equal(page.status, 403);
  assert.ok(isHtml(page.headers));
  assert.match(page.text, /security token is missing or expired/);
  const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const api = await app.inject({ method: 'PUT', url: '/api/follows/project/', headers: { cookie, accept: 'text/html', 'content-type': 'application/json' }, payload: '{"enabled": true}' });
  assert.equal(api.statusCode, 403);
  assert.deepEqual(api.json(), { detail: 'CSRF Failed: CSRF token missing or incorrect.' });
  const german = await new Browser(app, { 'accept-language': 'de' }).post('/org/projects/project/follow/', { follow: 'true' }, false);
  assert.equal(german.status, 403);
  assert.match(german.text, /Zugriff verweigert/);
});

test('error page texts: 405 and 500 keep their status, with translated messages', () => {
  const page = { user: null, lang: 'de' as const, timeZone: 'Europe/Berlin', csrf: 'x', path: '/', origin: 'http://localhost:80', ...emptySiteFrame() };
  const server = renderPage(ErrorPage({ page, answer: { status: 500, headers: {}, body: { detail: 'A server error occurred.' } } }));
  assert.match(server, /<h1>Serverfehler<\/h1>/);
  assert.doesNotMatch(server, /A server error occurred/);
  const method = renderPage(ErrorPage({ page: { ...page, lang: 'en' }, answer: { status: 405, headers: {}, body: { detail: 'Method "PUT" not allowed.' } } }));
  assert.match(method, /<h1>Method not allowed<\/h1>/);
});

test('the module page shows polls with their comments, and chapters and paragraphs linked to their pages, so that every comment link lands', async () => {
  const { app } = await world({
    polls: [{ id: 1, module: 1, creator: 2 }],
    chapters: [{ id: 1, module: 1, creator: 2, name: 'Chapter <one>' }],
    paragraphs: [{ id: 1, chapter: 1, name: 'Paragraph A', text: 'text' }],
    comments: [
      { id: 11, creator: 6, target: { type: 'poll', id: 1 }, comment: 'On the poll' },
      { id: 12, creator: 5, target: { type: 'comment', id: 11 }, comment: 'Reply on the poll' },
      { id: 13, creator: 6, target: { type: 'chapter', id: 1 }, comment: 'On the chapter' },
      { id: 14, creator: 6, target: { type: 'paragraph', id: 1 }, comment: 'On the paragraph' },
    ],
    comment_feedback: [],
  });
  const page = await new Browser(app).get('/org/projects/module/ideas-module/?comment=12');
  assert.equal(page.status, 200);
  for (const id of [11, 12]) assert.match(page.text, new RegExp(`id="comment-${id}"`));
  assert.match(page.text, /id="comment-12" class="comment highlighted"/);
  assert.match(page.text, /<a href="\/org\/text\/chapters\/1\/">Chapter &lt;one><\/a>/);
  assert.match(page.text, /<a href="\/org\/text\/paragraphs\/1\/">Paragraph A<\/a>/);
  assert.ok(page.text.indexOf('On the poll') < page.text.indexOf('Reply on the poll'));
  assert.match((await new Browser(app).get('/org/text/chapters/1/?comment=13')).text, /id="comment-13" class="comment highlighted"/);
  assert.match((await new Browser(app).get('/org/text/paragraphs/1/?comment=14')).text, /id="comment-14" class="comment highlighted"/);
});

test('the module page loads its poll and chapter discussions in a constant number of statements, however many threads', async () => {
  // The module's poll (a module has one poll, as in adhocracy4) and a chapter; then a paragraph too, with more comments, replies, ratings and feedback.
  const { app, db, database } = await world({
    polls: [{ id: 1, module: 1, creator: 2 }],
    chapters: [{ id: 1, module: 1, creator: 2, name: 'Chapter' }],
    comments: [{ id: 11, creator: 6, target: { type: 'poll', id: 1 }, comment: 'On the poll' }],
    comment_feedback: [],
  });
  const user = await signedIn(app, 'user');
  const statements = async (browser: Browser) => {
    const before = database.stats.queries;
    const page = await browser.get('/org/projects/module/ideas-module/');
    assert.equal(page.status, 200);
    return database.stats.queries - before;
  };
  // The frame (footer, menu) is read once per site version and kept (web/site-links.ts): read before counting.
  assert.equal((await new Browser(app).get('/')).status, 200);
  const one = { visitor: await statements(new Browser(app)), user: await statements(user) };
  await load(db, {
    paragraphs: [{ id: 1, chapter: 1, name: 'Paragraph', text: 'text' }],
    comments: [
      ...[1, 2, 3].map((id) => ({ id: 20 + id, creator: 6, target: { type: 'poll' as const, id: 1 }, comment: `On the poll, ${id}` })),
      { id: 30, creator: 5, target: { type: 'comment', id: 22 }, comment: 'A reply' },
      { id: 31, creator: 6, target: { type: 'paragraph', id: 1 }, comment: 'On the paragraph' },
    ],
    ratings: [{ creator: 5, target: { type: 'comment', id: 11 }, value: 1 }],
    comment_feedback: [{ comment: 22, creator: 3, feedback_text: 'Noted' }],
  });
  // Counted first: the page is then rendered anew (a kept page would cost fewer statements).
  const five = { visitor: await statements(new Browser(app)), user: await statements(user) };
  assert.deepEqual(five, one, '2 threads and 3 threads with more comments take the same statements');
  const page = await user.get('/org/projects/module/ideas-module/');
  // The poll's discussion is on the module page; the chapter's and the paragraph's are on their own pages.
  for (const id of [11, 21, 22, 23, 30]) assert.match(page.text, new RegExp(`id="comment-${id}"`));
});

test('days remaining agree on the tile, the project page and the app API: the active phase\'s end, counted on the calendar of the time zone', async (t) => {
  // 2030-03-10 22:30 UTC is 23:30 on the 10th in Berlin; the collect phase ends on the 27th at 00:30 Berlin time.
  t.mock.timers.enable({ apis: ['Date'], now: Date.parse('2030-03-10T22:30:00Z') });
  const app = await createTestApp();
  const world = basicWorld();
  world.modules = [
    {
      id: 1,
      project: 1,
      name: 'Ideas',
      phases: [
        { type: 'a4_candy_ideas:collect', start_date: '2030-03-01T00:00:00Z', end_date: '2030-03-26T23:30:00Z' },
        { type: 'a4_candy_ideas:rating', start_date: '2030-03-26T23:30:00Z', end_date: '2030-04-08T10:00:00Z' },
      ],
    },
  ];
  await load(app.db, world);
  const tile = (await app.request({ method: 'GET', url: '/' })).text;
  const page = (await app.request({ method: 'GET', url: '/org/projects/project/' })).text;
  for (const text of [tile, page]) {
    assert.match(text, /17 days remaining/);
    assert.doesNotMatch(text, /(28|29) days remaining/);
  }
  // The app shows the same line (participation_time_display), not the module's end (28 days).
  const appProject = async () => (await app.request({ method: 'GET', url: '/api/app-projects/project/', headers: await tokenHeader(app.db, 5) })).body as { participation_time_display: string };
  assert.equal((await appProject()).participation_time_display, '17 days remaining');
  const german = (await app.request({ method: 'GET', url: '/', headers: { 'accept-language': 'de' } })).text;
  assert.match(german, /17 Tage/);
  // A single day left is "1 day" (the plural rules), in the last hours the hours.
  t.mock.timers.setTime(Date.parse('2030-03-25T23:15:00Z'));
  assert.match((await app.request({ method: 'GET', url: '/org/projects/project/' })).text, /1 day remaining/);
  t.mock.timers.setTime(Date.parse('2030-03-26T20:00:00Z'));
  assert.match((await app.request({ method: 'GET', url: '/org/projects/project/' })).text, /3 hours remaining/);
  assert.equal((await appProject()).participation_time_display, '3 hours remaining');
});
