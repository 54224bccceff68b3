import assert from 'node:assert/strict';
import { test } from 'node:test';
import { browserSessions } from '../../src/db/schema/index.js';
import { liveQuestionLikes } from '../../src/features/interactiveevents/schema.js';
import { load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';
import { eventWorld } from '../features/interactiveevents/world.js';

const LIKE = '/api/livequestions/1/likes/';
const PAGE = '/org/interactiveevents/town-hall/';

async function world() {
  const t = await createTestApp();
  await load(t.db, eventWorld());
  return t;
}

/** The cookies a page view set, as one Cookie header, with its CSRF token. */
async function pageView(t: Awaited<ReturnType<typeof world>>) {
  const page = await t.app.inject({ method: 'GET', url: PAGE });
  const set = ([] as string[]).concat((page.headers['set-cookie'] as string | string[] | undefined) ?? []);
  const pairs = set.map((c) => c.split(';')[0]);
  return { cookie: pairs.join('; '), csrf: pairs.find((p) => p.startsWith('csrftoken='))?.split('=')[1] ?? '' };
}

test('issue 36 finding 3: cookie-less likes are refused (403) and open no session', async () => {
  const t = await world();
  const answers: number[] = [];
  for (let i = 0; i < 30; i++) answers.push((await t.app.inject({ method: 'POST', url: LIKE, payload: { value: true } })).statusCode);
  assert.deepEqual(answers, Array(30).fill(403));
  const refused = await t.app.inject({ method: 'POST', url: LIKE, payload: { value: true } });
  assert.match(refused.json<{ detail: string }>().detail, /open the event's page/);
  assert.equal(refused.headers['set-cookie'], undefined, 'no session cookie is handed out');
  assert.equal((await t.db.select().from(liveQuestionLikes)).length, 0);
  assert.equal((await t.db.select().from(browserSessions)).length, 0, 'no session rows');
  const form = await t.app.inject({ method: 'POST', url: `${PAGE}questions/1/like/`, headers: { cookie: 'csrftoken=abc', 'content-type': 'application/x-www-form-urlencoded' }, payload: 'csrfmiddlewaretoken=abc&value=true' });
  assert.equal(form.statusCode, 403, 'the page form too');
  assert.equal((await t.db.select().from(browserSessions)).length, 0);
});

test('issue 36 finding 3: the session of a page view likes once, however often it posts', async () => {
  const t = await world();
  const { cookie, csrf } = await pageView(t);
  assert.match(cookie, /visitorid=/);
  for (let i = 0; i < 3; i++) assert.equal((await t.app.inject({ method: 'POST', url: LIKE, headers: { cookie, 'x-csrftoken': csrf }, payload: { value: true } })).statusCode, 201);
  assert.equal((await t.db.select().from(liveQuestionLikes)).length, 1);
});
