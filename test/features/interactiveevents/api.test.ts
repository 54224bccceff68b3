import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApp, type TestApp } from '../../helpers.js';
import { load, tokenHeader } from '../../fixtures.js';
import { ENDED_EVENT, EVENT, eventWorld, PLAIN_EVENT, PRIVATE_EVENT } from './world.js';

const list = (m: number) => `/api/modules/${m}/interactiveevents/livequestions/`;
const like = (q: number) => `/api/livequestions/${q}/likes/`;

type Question = { id: number; text: string; category: string | null; likes: { count: number; session_like: boolean }; is_answered: boolean; is_on_shortlist: boolean; is_hidden: boolean; is_live: boolean };

async function world(): Promise<TestApp> {
  const t = await createTestApp();
  await load(t.db, eventWorld());
  return t;
}

/** The cookies a response set, as one Cookie header, with the CSRF token they hold. */
function cookiesOf(headers: Record<string, unknown>): { cookie: string; csrf: string } {
  const set = ([] as string[]).concat((headers['set-cookie'] as string | string[] | undefined) ?? []);
  const pairs = set.map((c) => c.split(';')[0]);
  const csrf = pairs.find((p) => p.startsWith('csrftoken='))?.split('=')[1] ?? '';
  return { cookie: pairs.join('; '), csrf };
}

test('the list has the fields of adhocracy+ and hides hidden questions from everyone but moderators', async () => {
  const t = await world();
  const anonymous = await t.request({ method: 'GET', url: list(EVENT) });
  assert.equal(anonymous.status, 200);
  assert.deepEqual(anonymous.body, [
    { id: 1, text: 'Will the park stay open?', category: 'Residents', likes: { count: 0, session_like: false }, is_answered: false, is_on_shortlist: false, is_hidden: false, is_live: false },
  ]);
  const moderator = await t.request({ method: 'GET', url: list(EVENT), headers: await tokenHeader(t.db, 3) });
  assert.deepEqual((moderator.body as Question[]).map((q) => q.id), [1, 2], 'moderators see hidden questions (adhocracy+ showed them only to superusers)');
  const filtered = await t.request({ method: 'GET', url: `${list(EVENT)}?is_hidden=1`, headers: await tokenHeader(t.db, 3) });
  assert.deepEqual((filtered.body as Question[]).map((q) => q.id), [2]);
});

test('anyone may ask without an account; the affiliation is checked and the status flags are not taken', async () => {
  const t = await world();
  const asked = await t.request({ method: 'POST', url: list(EVENT), payload: { text: 'When does the bus come?', category: 12, is_live: true, is_answered: true, is_hidden: true, is_on_shortlist: true } });
  assert.equal(asked.status, 201);
  const q = asked.body as Question;
  assert.equal(q.category, 'Press');
  assert.deepEqual([q.is_live, q.is_answered, q.is_hidden, q.is_on_shortlist], [false, false, false, false]);
  assert.equal((await t.request({ method: 'POST', url: list(EVENT), payload: { text: 'As a string id', category: '11' } })).status, 201);

  const refused = async (payload: unknown, field: string) => {
    const answer = await t.request({ method: 'POST', url: list(EVENT), payload: payload as Record<string, unknown> });
    assert.equal(answer.status, 400, JSON.stringify(payload));
    assert.ok((answer.body as Record<string, unknown>)[field], `${JSON.stringify(answer.body)} names ${field}`);
  };
  await refused({ text: 'No affiliation' }, 'category');
  await refused({ text: 'Null affiliation', category: null }, 'category');
  await refused({ text: 'Unknown affiliation', category: 999 }, 'category');
  await refused({ text: 'Another module’s affiliation', category: 13 }, 'category');
  await refused({ text: 'x'.repeat(1001), category: 11 }, 'text');
  await refused({ text: '   ', category: 11 }, 'text');
  const notJson = await t.request({ method: 'POST', url: list(EVENT), headers: { 'content-type': 'application/json' }, payload: 'text=hello' });
  assert.equal(notJson.status, 400, 'a body that is not JSON is a 400, not a 500');

  const plain = await t.request({ method: 'POST', url: list(PLAIN_EVENT), payload: { text: 'No affiliations here', category: null } });
  assert.equal(plain.status, 201, JSON.stringify(plain.body));
  await t.request({ method: 'POST', url: list(PLAIN_EVENT), payload: { text: 'x', category: 11 } }).then((a) => assert.equal(a.status, 400));
});

/** A browser's page view of the event: the session its likes count for, and the CSRF token. */
async function pageView(t: TestApp) {
  const page = await t.request({ method: 'GET', url: '/org/interactiveevents/town-hall/' });
  return cookiesOf(page.headers);
}

test('likes are per browser session: the page view sets the session, writes with it carry the CSRF token', async () => {
  const t = await world();
  const { cookie, csrf } = await pageView(t);
  assert.match(cookie, /visitorid=/, "the identity its likes count under (no stored session: issue 40)");
  assert.equal((await t.request({ method: 'POST', url: like(1), payload: { value: true } })).status, 403, 'a like without a session (issue 36.3)');
  const first = await t.request({ method: 'POST', url: like(1), headers: { cookie, 'x-csrftoken': csrf }, payload: { value: true } });
  assert.equal(first.status, 201);
  assert.deepEqual(first.body, {});

  const forged = await t.request({ method: 'POST', url: like(1), headers: { cookie }, payload: { value: true } });
  assert.equal(forged.status, 403, 'a session write without the CSRF token is refused');
  assert.equal((await t.request({ method: 'POST', url: like(1), headers: { cookie, 'x-csrftoken': csrf }, payload: { value: true } })).status, 201);
  let [q] = (await t.request({ method: 'GET', url: list(EVENT), headers: { cookie } })).body as Question[];
  assert.deepEqual(q.likes, { count: 1, session_like: true }, 'liking twice stays one like');
  [q] = (await t.request({ method: 'GET', url: list(EVENT) })).body as Question[];
  assert.deepEqual(q.likes, { count: 1, session_like: false });

  const other = await pageView(t);
  assert.equal((await t.request({ method: 'POST', url: like(1), headers: { cookie: other.cookie, 'x-csrftoken': other.csrf }, payload: { value: true } })).status, 201, 'another browser likes too');
  assert.equal((await t.request({ method: 'POST', url: like(1), headers: { cookie, 'x-csrftoken': csrf }, payload: { value: false } })).status, 201);
  [q] = (await t.request({ method: 'GET', url: list(EVENT), headers: { cookie } })).body as Question[];
  assert.deepEqual(q.likes, { count: 1, session_like: false });
  const ordered = (await t.request({ method: 'GET', url: `${list(EVENT)}?ordering=-like_count` })).body as Question[];
  assert.equal(ordered[0].id, 1);
  assert.equal((await t.request({ method: 'POST', url: like(2), headers: { cookie, 'x-csrftoken': csrf }, payload: { value: true } })).status, 404, 'a hidden question is not there for visitors');
  assert.equal((await t.request({ method: 'POST', url: like(1), headers: { cookie, 'x-csrftoken': csrf }, payload: { value: 'yes' } })).status, 400);
});

test('moderators toggle hidden, answered, shortlist and on screen; others are refused as adhocracy+ refuses', async () => {
  const t = await world();
  const patch = async (headers: Record<string, string>, payload: Record<string, boolean>, url = `${list(EVENT)}1/`) => t.request({ method: 'PATCH', url, headers, payload });
  assert.equal((await patch({}, { is_live: true })).status, 401);
  assert.equal((await patch(await tokenHeader(t.db, 5), { is_live: true })).status, 403, 'a plain user');
  assert.equal((await patch(await tokenHeader(t.db, 6), { is_live: true })).status, 403, 'another organisation’s initiator');
  const moderator = await tokenHeader(t.db, 3);
  for (const flag of ['is_live', 'is_on_shortlist', 'is_answered', 'is_hidden'] as const) {
    const answer = await patch(moderator, { [flag]: true });
    assert.equal(answer.status, 200);
    assert.equal((answer.body as Question)[flag], true, flag);
  }
  assert.equal((await patch(await tokenHeader(t.db, 2), { is_hidden: false })).status, 200, 'the initiator moderates');
  assert.equal((await patch(moderator, { is_live: false }, `${list(EVENT)}3/`)).status, 404, 'a question of another module');
  assert.equal((await patch(moderator, { is_live: false }, `${list(EVENT)}999/`)).status, 404);
});

test('after the event, nobody asks or likes, not even the initiator (403)', async () => {
  const t = await world();
  assert.equal((await t.request({ method: 'POST', url: list(ENDED_EVENT), payload: { text: 'Late', category: 13 } })).status, 403);
  assert.equal((await t.request({ method: 'POST', url: list(ENDED_EVENT), headers: await tokenHeader(t.db, 2), payload: { text: 'Late', category: 13 } })).status, 403);
  assert.equal((await t.request({ method: 'POST', url: like(3), payload: { value: true } })).status, 403);
  assert.equal((await t.request({ method: 'GET', url: list(ENDED_EVENT) })).status, 200, 'the questions stay visible');
});

test('an event in a private project is not there for outsiders (404) and is for its moderator', async () => {
  const t = await world();
  assert.equal((await t.request({ method: 'GET', url: list(PRIVATE_EVENT) })).status, 404);
  assert.equal((await t.request({ method: 'GET', url: list(PRIVATE_EVENT), headers: await tokenHeader(t.db, 5) })).status, 404);
  assert.equal((await t.request({ method: 'GET', url: list(PRIVATE_EVENT), headers: await tokenHeader(t.db, 6) })).status, 404);
  assert.equal((await t.request({ method: 'POST', url: list(PRIVATE_EVENT), payload: { text: 'In', category: 14 } })).status, 404);
  assert.equal((await t.request({ method: 'POST', url: like(4), payload: { value: true } })).status, 404);
  assert.equal((await t.request({ method: 'GET', url: list(PRIVATE_EVENT), headers: await tokenHeader(t.db, 3) })).status, 200);
  assert.equal((await t.request({ method: 'GET', url: list(1) })).status, 404, 'a module of another type');
});
