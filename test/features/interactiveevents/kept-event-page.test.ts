import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { browserSessions } from '../../../src/db/schema/index.js';
import { liveQuestionLikes } from '../../../src/features/interactiveevents/schema.js';
import { LIKE_NEEDS_SESSION } from '../../../src/features/interactiveevents/rules.js';
import { load, tokenHeader } from '../../fixtures.js';
import { createTestApp, type TestApp } from '../../helpers.js';
import { Browser } from '../../me/accounts/client.js';
import { openStream } from './sse.js';
import { EVENT, eventWorld } from './world.js';

/**
 * The kept event page (issue 40): one statement for a repeat read, whoever reads it, and no write
 * for a visitor without a cookie; the likes, whether this viewer liked, and the live position are
 * read with every request; a question's change makes the page anew. Time is frozen within one
 * second, so only the version can tell a kept page from a new one.
 */
const EVENT_PAGE = '/org/interactiveevents/town-hall/';
const like = (id: number) => `/api/livequestions/${id}/likes/`;
const ask = (t: TestApp, text: string) => t.request({ method: 'POST', url: `/api/modules/${EVENT}/interactiveevents/livequestions/`, payload: { text, category: 11 } });

/** The statements a request costs, and its answer. */
async function counted<T>(t: TestApp, read: () => Promise<T>): Promise<{ statements: number; answer: T }> {
  const before = t.database.stats.queries;
  const answer = await read();
  return { statements: t.database.stats.queries - before, answer };
}

const cookieLess = (t: TestApp) => t.request({ method: 'GET', url: EVENT_PAGE });
const likesOf = (html: string, id: number) => new RegExp(`data-likes-for="${id}">(\\d+)<`).exec(html)?.[1];
const pressed = (html: string, id: number) => new RegExp(`name="value" value="(true|false)"/?><button type="submit" class="like-button" aria-pressed="(true|false)" aria-label="Like question ${id}"`).exec(html)?.slice(1);
const sessions = async (t: TestApp) => (await t.db.select().from(browserSessions)).length;

/** A browser's like through the API, with the cookies and the token of its page views. */
const likeByApi = (t: TestApp, browser: Browser, id: number, value = true) =>
  t.request({ method: 'POST', url: like(id), headers: { cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrftoken': browser.csrf }, payload: { value } });

async function world(): Promise<TestApp> {
  const t = await createTestApp();
  await load(t.db, eventWorld());
  return t;
}

test('a repeat read of the event page costs one statement, cookie-less too, and writes no browser session', async (t) => {
  const app = await world();
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const first = await counted(app, () => cookieLess(app));
  assert.equal(first.answer.status, 200);
  assert.ok(first.statements > 1, 'the first read renders the page');
  assert.match(String(first.answer.headers['set-cookie']), /visitorid=/, 'an identity for the likes comes with the page');
  for (const round of [1, 2]) {
    const again = await counted(app, () => cookieLess(app));
    assert.equal(again.statements, 1, `round ${round}: kept`);
    assert.equal(likesOf(again.answer.text, 1), '0');
  }
  const visitor = new Browser(app.app);
  await visitor.get(EVENT_PAGE);
  const repeat = await counted(app, () => visitor.get(EVENT_PAGE));
  assert.equal(repeat.statements, 1, 'a visitor with an identity: kept, one statement');
  assert.ok(!String(repeat.answer.headers['set-cookie'] ?? '').includes('visitorid='), 'the identity is kept, not handed out anew');
  assert.equal(await sessions(app), 0, 'no browser session was stored');
});

test('a like through the API or the page form shows its count to everyone on the next read and its pressed state to the liker only, without a new rendering', async (t) => {
  const app = await world();
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  await ask(app, 'A second question');
  const liker = new Browser(app.app);
  const other = new Browser(app.app);
  await liker.get(EVENT_PAGE);
  await other.get(EVENT_PAGE);
  assert.equal((await likeByApi(app, liker, 1)).status, 201);
  for (const [who, read, mine] of [
    ['the liker', () => liker.get(EVENT_PAGE).then((a) => a.text), true],
    ['another visitor', () => other.get(EVENT_PAGE).then((a) => a.text), false],
    ['a cookie-less visitor', () => cookieLess(app).then((a) => a.text), false],
  ] as const) {
    const { statements, answer } = await counted(app, read);
    assert.equal(statements, 1, `${who}: kept`);
    assert.equal(likesOf(answer, 1), '1', `${who} sees the like`);
    assert.deepEqual(pressed(answer, 1), mine ? ['false', 'true'] : ['true', 'false'], `${who}: pressed only for the liker (the form then takes it back)`);
    assert.deepEqual(pressed(answer, 5), ['true', 'false']);
  }
  // The page's own form, then taking the API's like back.
  const question = /id="question-(\d+)"[^]*?A second question/.exec((await other.get(EVENT_PAGE)).text)?.[1];
  assert.ok(question);
  assert.equal((await other.post(`${EVENT_PAGE}questions/${question}/like/`, { value: 'true' })).status, 303);
  assert.equal((await likeByApi(app, liker, 1, false)).status, 201);
  const mine = await counted(app, () => other.get(EVENT_PAGE));
  assert.equal(mine.statements, 1);
  assert.equal(likesOf(mine.answer.text, Number(question)), '1');
  assert.deepEqual(pressed(mine.answer.text, Number(question)), ['false', 'true']);
  assert.equal(likesOf(mine.answer.text, 1), '0');
  const theirs = (await liker.get(EVENT_PAGE)).text;
  assert.deepEqual(pressed(theirs, Number(question)), ['true', 'false']);
  assert.deepEqual(pressed(theirs, 1), ['true', 'false']);
  assert.equal(await sessions(app), 0);
});

test('a new, an answered and a hidden question show on the next read: the page is made anew', async (t) => {
  const app = await world();
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const moderator = await tokenHeader(app.db, 3);
  await cookieLess(app);
  const flags = (id: number, body: Record<string, boolean>) => app.request({ method: 'PATCH', url: `/api/modules/${EVENT}/interactiveevents/livequestions/${id}/`, headers: moderator, payload: body });
  assert.equal((await ask(app, 'Asked after the page was kept')).status, 201);
  let read = await counted(app, () => cookieLess(app));
  assert.ok(read.statements > 1, 'a new rendering');
  assert.ok(read.answer.text.includes('Asked after the page was kept'));
  assert.ok(read.answer.text.includes('Questions (2)'));
  assert.equal((await flags(1, { is_answered: true })).status, 200);
  read = await counted(app, () => cookieLess(app));
  assert.ok(read.statements > 1);
  assert.ok(read.answer.text.includes('Questions (1)') && read.answer.text.includes('Answered questions (1)'));
  assert.ok(!read.answer.text.includes('id="question-1"'), 'the answered question left the open list');
  const asked = /id="question-(\d+)"/.exec(read.answer.text)?.[1];
  assert.equal((await flags(Number(asked), { is_hidden: true })).status, 200);
  read = await counted(app, () => cookieLess(app));
  assert.ok(read.statements > 1);
  assert.ok(!read.answer.text.includes('Asked after the page was kept'), 'the hidden question is gone for visitors');
  assert.equal((await counted(app, () => cookieLess(app))).statements, 1, 'and kept again');
});

test('two overlapping reads share one rendering, and each gets its own likes, for questions its head statement did not know of too', async (t) => {
  const app = await world();
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const liker = new Browser(app.app);
  await liker.get(EVENT_PAGE);
  assert.equal((await likeByApi(app, liker, 1)).status, 201);
  assert.equal((await ask(app, 'Asked while nobody read')).status, 201);
  const [theirs, others] = await Promise.all([liker.get(EVENT_PAGE), cookieLess(app)]);
  for (const page of [theirs.text, others.text]) {
    assert.ok(page.includes('Asked while nobody read'));
    assert.equal(likesOf(page, 1), '1');
    assert.equal(likesOf(page, 5), '0');
    assert.deepEqual(pressed(page, 5), ['true', 'false']);
  }
  assert.deepEqual(pressed(theirs.text, 1), ['false', 'true'], 'the liker sees their like');
  assert.deepEqual(pressed(others.text, 1), ['true', 'false'], 'the other does not');
  assert.ok(!/viewer[0-9a-f]{36}/.test(theirs.text + others.text), 'no marker is left');
});

test("a moderator's page has the controls and statistics and never reaches a participant or a visitor", async (t) => {
  const app = await world();
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const moderator = new Browser(app.app, await tokenHeader(app.db, 3));
  const participant = new Browser(app.app, await tokenHeader(app.db, 4));
  for (const round of [1, 2]) {
    const theirs = (await moderator.get(EVENT_PAGE)).text;
    assert.ok(theirs.includes('Statistics') && theirs.includes('Hidden question') && theirs.includes('Show on screen'), `round ${round}: the moderator's page`);
    for (const [who, page] of [
      ['a participant', (await participant.get(EVENT_PAGE)).text],
      ['a visitor', (await cookieLess(app)).text],
    ] as const) {
      assert.ok(!page.includes('Statistics') && !page.includes('Hidden question') && !page.includes('Show on screen'), `round ${round}: ${who}`);
      assert.ok(page.includes('id="question-template"'), `${who} gets the template`);
    }
  }
});

test('a cookie-less visitor likes with the identity of one page view; a forged or expired identity is refused, and repeat likes stay one', async () => {
  const app = await world();
  const refused = async (cookie: string) => {
    const answer = await app.request({ method: 'POST', url: like(1), headers: { cookie: `${cookie}; csrftoken=${csrf}`, 'x-csrftoken': csrf }, payload: { value: true } });
    assert.equal(answer.status, 403, cookie);
    assert.equal((answer.body as { detail: string }).detail, LIKE_NEEDS_SESSION);
  };
  const view = await cookieLess(app);
  const pairs = ([] as string[]).concat((view.headers['set-cookie'] as string[] | string | undefined) ?? []).map((c) => c.split(';')[0]);
  const identity = pairs.find((p) => p.startsWith('visitorid=')) ?? '';
  const csrf = pairs.find((p) => p.startsWith('csrftoken='))?.split('=')[1] ?? '';
  for (let i = 0; i < 3; i++) assert.equal((await app.request({ method: 'POST', url: like(1), headers: { cookie: pairs.join('; '), 'x-csrftoken': csrf }, payload: { value: true } })).status, 201);
  assert.equal((await app.db.select().from(liveQuestionLikes)).length, 1, 'one like, however often it posts');

  const [random, expiry, signature] = identity.slice('visitorid='.length).split('.');
  const sign = (payload: string) => createHmac('sha256', app.config.secretKey).update(`visitor:${payload}`).digest('base64url');
  const other = randomBytes(18).toString('base64url');
  await refused(`visitorid=${other}.${expiry}.${signature}`);
  await refused(`visitorid=${random}.${Number(expiry) + 1}.${signature}`);
  await refused(`visitorid=${other}.${expiry}.${createHmac('sha256', 'not the key').update(`visitor:${other}.${expiry}`).digest('base64url')}`);
  const past = Math.floor(Date.now() / 1000) - 1;
  await refused(`visitorid=${other}.${past}.${sign(`${other}.${past}`)}`);
  const form = await app.request({
    method: 'POST',
    url: `${EVENT_PAGE}questions/1/like/`,
    headers: { cookie: `visitorid=${other}.${expiry}.${signature}; csrftoken=${csrf}`, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ csrfmiddlewaretoken: csrf, value: 'true' }).toString(),
  });
  assert.equal(form.status, 403, 'the page form too');
  assert.equal((await app.request({ method: 'POST', url: like(1), headers: { cookie: identity }, payload: { value: true } })).status, 403, 'an identity without the CSRF token');
  assert.equal((await app.db.select().from(liveQuestionLikes)).length, 1);
  assert.equal(await sessions(app), 0);
});

test("a signed-in user's likes still count under their browser session", async () => {
  const app = await world();
  const user = new Browser(app.app);
  assert.equal((await user.login('user', 'user-password')).status, 302);
  const page = await user.get(EVENT_PAGE);
  assert.ok(!user.cookies.has('visitorid'), 'no visitor identity beside a live session');
  assert.deepEqual(pressed(page.text, 1), ['true', 'false']);
  assert.equal((await user.post(`${EVENT_PAGE}questions/1/like/`, { value: 'true' })).status, 303);
  const [stored] = await app.db.select().from(liveQuestionLikes);
  assert.ok(stored && (await app.db.select().from(browserSessions)).some((s) => s.id === stored.session), 'the like is stored under the session');
  assert.deepEqual(pressed((await user.get(EVENT_PAGE)).text, 1), ['false', 'true']);
});

test('the live position is read with every request: a stream from a kept page misses no event and gets none twice', async (t) => {
  const app = await world();
  await app.app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.app.server.address() as AddressInfo).port;
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const positionOf = (html: string) => decodeURIComponent(/data-live-last="([^"]*)"/.exec(html)?.[1] ?? '');
  const liker = new Browser(app.app);
  const first = (await liker.get(EVENT_PAGE)).text;
  assert.equal((await likeByApi(app, liker, 1)).status, 201);
  const kept = await counted(app, () => cookieLess(app));
  assert.equal(kept.statements, 1, 'kept');
  assert.equal(likesOf(kept.answer.text, 1), '1');
  assert.match(positionOf(kept.answer.text), /^\d+:\d+:/);
  assert.notEqual(positionOf(kept.answer.text), positionOf(first), 'the position of this request, not of the rendering');
  const stream = (from: string) => openStream(port, `/api/modules/${EVENT}/interactiveevents/live/?lastEventId=${encodeURIComponent(from)}`);
  const fromFirst = await stream(positionOf(first));
  const fromKept = await stream(positionOf(kept.answer.text));
  assert.deepEqual(JSON.parse((await fromFirst.next((e) => e.event === 'likes')).data ?? '{}'), { id: 1, count: 1 }, 'the first page hears the like it did not show');
  assert.equal((await likeByApi(app, liker, 1, false)).status, 201);
  const next = await fromKept.next((e) => e.event === 'likes');
  assert.deepEqual(JSON.parse(next.data ?? '{}'), { id: 1, count: 0 }, 'the kept page hears the next like, not the one it showed');
  assert.equal(fromKept.events.filter((e) => e.event === 'likes').length, 1);
  fromFirst.close();
  fromKept.close();
});
