import assert from 'node:assert/strict';
import { eq } from 'drizzle-orm';
import { test } from 'node:test';
import { comments, organisations, outbox, users } from '../../../src/db/schema/index.js';
import { load, tokenHeader } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { moderationWorld } from './world.js';

const url = (path = '') => `/api/userdashboard/moderation/1/comments/${path}`;
type Item = Record<string, unknown> & { pk: number };

async function setup() {
  const t = await createTestApp();
  await load(t.db, moderationWorld());
  const as = async (userId: number) => tokenHeader(t.db, userId);
  return { ...t, as };
}

test('anonymous callers get 401, plain users and other projects\' moderators 403', async () => {
  const { request, as } = await setup();
  const anonymous = await request({ method: 'GET', url: url() });
  assert.equal(anonymous.status, 401);
  assert.ok(anonymous.headers['www-authenticate']);
  assert.equal((await request({ method: 'GET', url: url(), headers: await as(5) })).status, 403);
  assert.equal((await request({ method: 'GET', url: url(), headers: await as(6) })).status, 403);
  assert.equal((await request({ method: 'GET', url: url('1/'), headers: await as(6) })).status, 403);
  assert.equal((await request({ method: 'PATCH', url: url('1/'), headers: await as(5), payload: { is_blocked: true } })).status, 403);
  assert.equal((await request({ method: 'GET', url: '/api/userdashboard/moderation/99/comments/', headers: await as(3) })).status, 404);
  assert.equal((await request({ method: 'GET', url: '/api/userdashboard/moderation/99999999999/comments/', headers: await as(3) })).status, 404);
});

test('the project moderator, the initiator and a superuser may list', async () => {
  const { request, as } = await setup();
  for (const userId of [1, 2, 3]) {
    const response = await request({ method: 'GET', url: url(), headers: await as(userId) });
    assert.equal(response.status, 200, `user ${userId}`);
  }
});

test('default: unreviewed comments, most reports first, then newest', async () => {
  const { request, as } = await setup();
  const response = await request({ method: 'GET', url: url(), headers: await as(3) });
  assert.deepEqual((response.body as Item[]).map((c) => c.pk), [1, 3]);
});

test('is_reviewed=all lists every comment of the project, replies included', async () => {
  const { request, as } = await setup();
  const response = await request({ method: 'GET', url: url('?is_reviewed=all'), headers: await as(3) });
  assert.deepEqual((response.body as Item[]).map((c) => c.pk), [1, 3, 2, 5, 4]);
  const reviewed = await request({ method: 'GET', url: url('?is_reviewed=True'), headers: await as(3) });
  assert.deepEqual((reviewed.body as Item[]).map((c) => c.pk), [2, 5, 4]);
});

test('has_reports filters; alone it keeps the unreviewed default', async () => {
  const { request, as } = await setup();
  const h = await as(3);
  assert.deepEqual(((await request({ method: 'GET', url: url('?has_reports=False&is_reviewed=All'), headers: h })).body as Item[]).map((c) => c.pk), [5, 4]);
  assert.deepEqual(((await request({ method: 'GET', url: url('?has_reports=false'), headers: h })).body as Item[]).map((c) => c.pk), []);
  assert.deepEqual(((await request({ method: 'GET', url: url('?has_reports=true&is_reviewed=all'), headers: h })).body as Item[]).map((c) => c.pk), [1, 3, 2]);
});

test('ordering by created, -created and num_reports', async () => {
  const { request, as } = await setup();
  const h = await as(3);
  const order = async (o: string) => ((await request({ method: 'GET', url: url(`?is_reviewed=all&ordering=${o}`), headers: h })).body as Item[]).map((c) => c.pk);
  assert.deepEqual(await order('created'), [1, 2, 3, 4, 5]);
  assert.deepEqual(await order('-created'), [5, 4, 3, 2, 1]);
  assert.deepEqual(await order('num_reports'), [5, 4, 3, 2, 1]);
  assert.deepEqual(await order('nonsense'), [1, 3, 2, 5, 4]);
});

test('num_of_comments paginates with count, next, previous and results', async () => {
  const { request, as } = await setup();
  const h = await as(3);
  const first = await request({ method: 'GET', url: url('?is_reviewed=all&num_of_comments=2'), headers: h });
  const body = first.body as { count: number; next: string | null; previous: string | null; results: Item[] };
  assert.equal(first.status, 200);
  assert.equal(body.count, 5);
  assert.deepEqual(body.results.map((c) => c.pk), [1, 3]);
  assert.equal(body.previous, null);
  assert.ok(body.next?.includes('page=2'));
  const last = (await request({ method: 'GET', url: url('?is_reviewed=all&num_of_comments=2&page=3'), headers: h })).body as typeof body;
  assert.deepEqual(last.results.map((c) => c.pk), [4]);
  assert.equal(last.next, null);
  assert.ok(last.previous?.includes('page=2'));
  assert.equal((await request({ method: 'GET', url: url('?is_reviewed=all&num_of_comments=2&page=4'), headers: h })).status, 404);
  assert.equal((await request({ method: 'GET', url: url('?num_of_comments=2&page=abc'), headers: h })).status, 404);
});

test('the representation has exactly the interface fields', async () => {
  const { request, as } = await setup();
  const response = await request({ method: 'GET', url: url('1/'), headers: await as(3) });
  assert.equal(response.status, 200);
  const item = response.body as Item;
  assert.deepEqual(Object.keys(item).sort(), [
    'comment', 'comment_url', 'feedback_api_url', 'is_blocked', 'is_moderator_marked', 'is_modified', 'is_unread',
    'last_edit', 'moderator_feedback', 'num_reports', 'pk', 'user_image', 'user_is_guest', 'user_name', 'user_profile_url',
  ]);
  assert.equal(item.comment, 'first');
  assert.equal(item.num_reports, 2);
  assert.equal(item.is_unread, true);
  assert.equal(item.is_modified, false);
  assert.equal(item.moderator_feedback, null);
  assert.equal(item.user_name, 'user');
  assert.match(String(item.comment_url), /^http:\/\/localhost(:\d+)?\/org\/ideas\/\d{4}-00001\/\?comment=1$/);
  assert.match(String(item.feedback_api_url), /\/api\/comments\/1\/moderatorfeedback\/$/);
  assert.match(String(item.user_profile_url), /\/profile\/user\/$/);
  assert.match(String(item.user_image), /\/static\/images\/avatar-00\.svg$/); // user 5: 5 % 5 = 0
  assert.match(String(item.last_edit), /^[A-Z][a-z.]+ \d{1,2}, \d{4}, /);
});

test('a reply\'s comment_url is its thread object\'s URL with the reply\'s id', async () => {
  const { request, as } = await setup();
  const item = (await request({ method: 'GET', url: url('5/'), headers: await as(3) })).body as Item;
  assert.match(String(item.comment_url), /\/org\/ideas\/\d{4}-00001\/\?comment=5$/);
});

test('detail and updates find reviewed comments too (D3)', async () => {
  const { request, as } = await setup();
  const h = await as(3);
  assert.equal((await request({ method: 'GET', url: url('2/'), headers: h })).status, 200);
  assert.equal((await request({ method: 'PATCH', url: url('2/'), headers: h, payload: { is_moderator_marked: true } })).status, 200);
  assert.equal((await request({ method: 'GET', url: url('999/'), headers: h })).status, 404);
});

test('a comment of another project is not found here', async () => {
  const { request, as, db } = await setup();
  await load(db, {
    modules: [{ id: 2, project: 2, name: 'M2', phases: [] }],
    ideas: [{ id: 2, module: 2, creator: 4, name: 'Other idea', description: 'x' }],
    comments: [{ id: 9, creator: 5, target: { type: 'idea', id: 2 }, comment: 'elsewhere' }],
  });
  assert.equal((await request({ method: 'GET', url: url('9/'), headers: await as(3) })).status, 404);
});

test('blocking and marking never change the modification time, and blocking tells the creator', async () => {
  const { request, as, db } = await setup();
  const h = await as(3);
  const blocked = await request({ method: 'PATCH', url: url('1/'), headers: h, payload: { is_blocked: true } });
  assert.equal(blocked.status, 200);
  assert.equal((blocked.body as Item).is_blocked, true);
  assert.equal((blocked.body as Item).is_modified, false);
  assert.equal((blocked.body as Item).user_name, 'user', 'a blocked comment keeps its author here');
  const marked = await request({ method: 'PATCH', url: url('1/'), headers: h, payload: { is_moderator_marked: true } });
  assert.equal((marked.body as Item).is_moderator_marked, true);
  const [row] = await db.select().from(comments).where(eq(comments.id, 1));
  assert.equal(row.modified, null);
  assert.equal(row.isBlocked, true);
  const mails = await db.select().from(outbox).where(eq(outbox.kind, 'comment_blocked'));
  assert.equal(mails.length, 1);
  assert.equal(mails[0].recipient, 'user@example.org');
  await request({ method: 'PATCH', url: url('1/'), headers: h, payload: { is_blocked: true } });
  assert.equal((await db.select().from(outbox).where(eq(outbox.kind, 'comment_blocked'))).length, 1, 'blocking again sends nothing');
});

test('the block notice is in the creator\'s language', async () => {
  const { request, as, db } = await setup();
  await db.update(users).set({ language: 'de' }).where(eq(users.id, 5));
  await request({ method: 'PATCH', url: url('1/'), headers: await as(3), payload: { is_blocked: true } });
  const [mail] = await db.select().from(outbox).where(eq(outbox.kind, 'comment_blocked'));
  assert.equal(mail.subject, 'Ihr Kommentar wurde blockiert');
});

test('the block notice links the discussion rules: the organisation\'s netiquette when it has written one, else the platform\'s (§C4)', async () => {
  const { request, as, db } = await setup();
  const h = await as(3);
  const block = async () => {
    assert.equal((await request({ method: 'PATCH', url: url('1/'), headers: h, payload: { is_blocked: true } })).status, 200);
    const mails = await db.select().from(outbox).where(eq(outbox.kind, 'comment_blocked')).orderBy(outbox.id);
    return mails[mails.length - 1].body;
  };
  const platform = await block();
  assert.match(platform, /The discussion rules \(netiquette\): http:\/\/[^\s]+\/pages\/netiquette\/\n/);
  assert.match(platform, /The discussion: http:\/\/[^\s]+\/org\/ideas\/[\d-]+\/\?comment=1/);
  await request({ method: 'PATCH', url: url('1/'), headers: h, payload: { is_blocked: false } });
  await db.update(organisations).set({ netiquette: '<p>Be kind.</p>' }).where(eq(organisations.id, 1));
  const own = await block();
  const link = /The discussion rules \(netiquette\): http:\/\/[^\s/]+(\/org\/netiquette\/)\n/.exec(own);
  assert.ok(link, own);
  const page = await request({ method: 'GET', url: link[1] });
  assert.equal(page.status, 200);
  assert.match(String(page.body), /Be kind./);
});

test('PUT needs the comment text and changes it without touching modified', async () => {
  const { request, as, db } = await setup();
  const h = await as(3);
  const missing = await request({ method: 'PUT', url: url('1/'), headers: h, payload: { is_blocked: false } });
  assert.equal(missing.status, 400);
  assert.deepEqual(missing.body, { comment: ['This field is required.'] });
  const blank = await request({ method: 'PUT', url: url('1/'), headers: h, payload: { comment: '<b></b>' } });
  assert.equal(blank.status, 400);
  const put = await request({ method: 'PUT', url: url('1/'), headers: h, payload: { comment: '<b>edited</b>', is_moderator_marked: true } });
  assert.equal(put.status, 200);
  assert.equal((put.body as Item).comment, 'edited');
  const [row] = await db.select().from(comments).where(eq(comments.id, 1));
  assert.equal(row.modified, null);
  const wrongType = await request({ method: 'PATCH', url: url('1/'), headers: h, payload: { is_blocked: 'maybe' } });
  assert.equal(wrongType.status, 400);
});

test('mark_read and mark_unread are POST actions that toggle is_unread', async () => {
  const { request, as, db } = await setup();
  const h = await as(3);
  const read = await request({ method: 'POST', url: url('1/mark_read/'), headers: h });
  assert.equal(read.status, 200);
  assert.equal((read.body as Item).is_unread, false);
  const unread = await request({ method: 'POST', url: url('1/mark_unread/'), headers: h });
  assert.equal((unread.body as Item).is_unread, true);
  const safe = await request({ method: 'GET', url: url('1/mark_read/'), headers: h });
  assert.notEqual(safe.status, 200);
  const [row] = await db.select().from(comments).where(eq(comments.id, 1));
  assert.equal(row.isReviewed, false);
  assert.equal(row.modified, null);
  assert.equal((await request({ method: 'POST', url: url('1/mark_read/'), headers: await as(5) })).status, 403);
});

test('a removed comment shows no text, an unknown user, no image and no profile', async () => {
  const { request, as } = await setup();
  assert.equal((await request({ method: 'DELETE', url: '/api/contenttypes/8/objects/1/comments/5/', headers: await as(4) })).status, 200);
  const item = (await request({ method: 'GET', url: url('5/'), headers: await as(3) })).body as Item;
  assert.equal(item.comment, '');
  assert.equal(item.user_name, 'unknown user');
  assert.equal(item.user_image, null);
  assert.equal(item.user_profile_url, '');
  const german = (await request({ method: 'GET', url: url('5/'), headers: { ...(await as(3)), 'accept-language': 'de' } })).body as Item;
  assert.equal(german.user_name, 'unknown user', 'the moderator\'s own language (en) wins over Accept-Language');
});

test('a user with an avatar shows its 200×200 thumbnail', async () => {
  const { request, as, db } = await setup();
  await db.update(users).set({ avatar: 'users/images/abc.jpg' }).where(eq(users.id, 5));
  const item = (await request({ method: 'GET', url: url('1/'), headers: await as(3) })).body as Item;
  assert.match(String(item.user_image), /\/media\/users\/images\/abc\.avatar\.png$/);
});

test('moderator feedback is nested; last_edit follows the request language', async () => {
  const { request, as, db } = await setup();
  await db.update(users).set({ language: 'de' }).where(eq(users.id, 3));
  const created = await request({ method: 'POST', url: '/api/comments/1/moderatorfeedback/', headers: await as(3), payload: { feedback_text: 'Thanks' } });
  assert.equal(created.status, 201);
  const item = (await request({ method: 'GET', url: url('1/'), headers: await as(3) })).body as Item;
  const feedback = item.moderator_feedback as { pk: number; feedback_text: string; last_edit: string };
  assert.equal(feedback.feedback_text, 'Thanks');
  assert.match(feedback.last_edit, /^\d{1,2}\. [A-Za-zä]+ \d{4}, \d{2}:\d{2}$/);
  assert.match(String(item.last_edit), /^\d{1,2}\. [A-Za-zä]+ \d{4}, \d{2}:\d{2}$/);
});

test('the list takes a constant number of statements, however many comments', async () => {
  const { request, as, db, database } = await setup();
  const h = await as(3);
  const count = async () => {
    const before = database.stats.queries;
    await request({ method: 'GET', url: url('?is_reviewed=all'), headers: h });
    return database.stats.queries - before;
  };
  const few = await count();
  await load(db, {
    comments: Array.from({ length: 12 }, (_, i) => ({ id: 100 + i, creator: 4 + (i % 3), target: i % 2 ? { type: 'comment' as const, id: 3 } : { type: 'idea' as const, id: 1 }, comment: `more ${i}` })),
    reports: [{ creator: 5, target: { type: 'comment', id: 101 } }],
    comment_feedback: [{ comment: 100, creator: 3, feedback_text: 'noted' }],
  });
  assert.equal(await count(), few);
});

test('is_modified and last_edit: the modification date if there is one, else the creation date', async () => {
  const { request, as, db } = await setup();
  await load(db, {
    comments: [
      { id: 20, creator: 5, target: { type: 'idea', id: 1 }, comment: 'old', created: '2022-07-01T15:00:00Z' },
      { id: 21, creator: 5, target: { type: 'idea', id: 1 }, comment: 'edited', created: '2022-07-01T15:00:00Z', modified: '2024-03-05T14:07:00Z' },
    ],
  });
  const h = await as(3);
  const plain = (await request({ method: 'GET', url: url('20/'), headers: h })).body as Item;
  assert.equal(plain.is_modified, false);
  assert.equal(plain.last_edit, 'July 1, 2022, 5 p.m.');
  const edited = (await request({ method: 'GET', url: url('21/'), headers: h })).body as Item;
  assert.equal(edited.is_modified, true);
  assert.equal(edited.last_edit, 'March 5, 2024, 3:07 p.m.');
  await db.update(users).set({ language: 'de' }).where(eq(users.id, 3));
  assert.equal(((await request({ method: 'GET', url: url('20/'), headers: h })).body as Item).last_edit, '1. Juli 2022, 17:00');
});
