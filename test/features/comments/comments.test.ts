import assert from 'node:assert/strict';
import { and, eq } from 'drizzle-orm';
import { test } from 'node:test';
import type { Fixture } from '../../../src/cli/fixture-schema.js';
import { actions, comments, follows, outbox, users } from '../../../src/db/schema/index.js';
import { basicWorldWith, daysFromNow, load, tokenHeader } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';

/** basicWorld plus idea 1 by the member (4); project 2 private with a rating-phase module 2 and idea 2. */
function world(): Fixture {
  return basicWorldWith({
    projects: [{ id: 2, slug: 'private', name: 'Private', organisation: 1, access: 'PRIVATE', participants: [6] }],
    modules: [{ id: 2, project: 2, name: 'Rating', phases: [{ type: 'a4_candy_ideas:rating', start_date: daysFromNow(-1), end_date: daysFromNow(5) }] }],
    ideas: [
      { id: 1, module: 1, creator: 4, name: 'Idea', description: 'An idea', category: 1 },
      { id: 2, module: 2, creator: 6, name: 'Private idea', description: 'psst' },
    ],
  });
}

const IDEA = 4;
const COMMENT = 8;
const list = (ct: number, pk: number, rest = '') => `/api/contenttypes/${ct}/objects/${pk}/comments/${rest}`;
type Item = Record<string, unknown> & { id: number };

async function setup() {
  const t = await createTestApp();
  await load(t.db, world());
  return { ...t, as: (userId: number) => tokenHeader(t.db, userId) };
}

test('GET /api/contenttypes/ lists the stable content type ids', async () => {
  const { request } = await setup();
  const response = await request({ method: 'GET', url: '/api/contenttypes/' });
  assert.equal(response.status, 200);
  const types = response.body as { id: number; model: string }[];
  assert.deepEqual(types.find((ct) => ct.model === 'idea'), { id: 4, app_label: 'a4_candy_ideas', model: 'idea' });
  assert.equal(types.find((ct) => ct.model === 'comment')?.id, 8);
});

test('unknown content types, objects and ids out of range are 404', async () => {
  const { request } = await setup();
  for (const path of [list(99, 1), list(1, 1), list(IDEA, 999), list(IDEA, 99999999999), '/api/contenttypes/x/objects/1/comments/', list(IDEA, 1, '999/'), list(IDEA, 1, 'abc/')]) {
    assert.equal((await request({ method: 'GET', url: path })).status, 404, path);
  }
});

test('a user comments during the collect phase: 201, an add action, a follow and a notice to the idea\'s creator', async () => {
  const { request, as, db } = await setup();
  const response = await request({ method: 'POST', url: list(IDEA, 1), headers: await as(5), payload: { comment: '<p>Good <b>idea</b></p>' } });
  assert.equal(response.status, 201);
  const item = response.body as Item;
  assert.equal(item.comment, 'Good idea');
  assert.equal(item.user_name, 'user');
  assert.equal(item.content_type, IDEA);
  assert.deepEqual(item.child_comments, []);
  const [action] = await db.select().from(actions).where(and(eq(actions.objType, 'comment'), eq(actions.objId, item.id)));
  assert.equal(action.verb, 'add');
  assert.equal(action.actorId, 5);
  assert.equal(action.targetType, 'idea');
  assert.equal(action.targetCreatorId, 4);
  const [follow] = await db.select().from(follows).where(and(eq(follows.creatorId, 5), eq(follows.projectId, 1)));
  assert.equal(follow.enabled, true);
  const mails = await db.select().from(outbox);
  assert.equal(mails.length, 1);
  assert.equal(mails[0].kind, 'comment_on_content');
  assert.equal(mails[0].recipient, 'member@example.org');
  assert.match(mails[0].body, /user commented on your contribution/);
  assert.match(mails[0].body, new RegExp(`/org/ideas/\\d{4}-00001/\\?comment=${item.id}`));
});

test('the notice is in the recipient\'s language, and nobody is told about their own comment', async () => {
  const { request, as, db } = await setup();
  await db.update(users).set({ language: 'de' }).where(eq(users.id, 4));
  await request({ method: 'POST', url: list(IDEA, 1), headers: await as(5), payload: { comment: 'Hallo' } });
  await request({ method: 'POST', url: list(IDEA, 1), headers: await as(4), payload: { comment: 'my own idea' } });
  const mails = await db.select().from(outbox);
  assert.equal(mails.length, 1);
  assert.match(mails[0].subject, /^Reaktion auf Ihren Beitrag im Projekt Project$/);
});

test('a reply notifies the parent comment\'s creator; replies to replies are refused', async () => {
  const { request, as, db } = await setup();
  const parent = (await request({ method: 'POST', url: list(IDEA, 1), headers: await as(5), payload: { comment: 'parent' } })).body as Item;
  const reply = await request({ method: 'POST', url: list(COMMENT, parent.id), headers: await as(6), payload: { comment: 'a reply' } });
  assert.equal(reply.status, 201);
  const replyItem = reply.body as Item;
  const mails = await db.select().from(outbox).where(eq(outbox.kind, 'reply_to_comment'));
  assert.equal(mails.length, 1);
  assert.equal(mails[0].recipient, 'user@example.org');
  const [action] = await db.select().from(actions).where(and(eq(actions.objType, 'comment'), eq(actions.objId, replyItem.id)));
  assert.equal(action.targetType, 'comment');
  assert.equal(action.targetCreatorId, 5);
  const nested = await request({ method: 'POST', url: list(COMMENT, replyItem.id), headers: await as(5), payload: { comment: 'deeper' } });
  assert.equal(nested.status, 400);
  const thread = (await request({ method: 'GET', url: list(IDEA, 1) })).body as { results: Item[]; comment_count: number };
  assert.equal(thread.comment_count, 2);
  assert.deepEqual((thread.results[0].child_comments as Item[]).map((c) => c.id), [replyItem.id]);
  assert.equal((await request({ method: 'GET', url: list(IDEA, 1, `${replyItem.id}/`) })).status, 200, 'a reply is found under its thread object');
});

test('anonymous callers may read a public project\'s comments but not write', async () => {
  const { request } = await setup();
  assert.equal((await request({ method: 'GET', url: list(IDEA, 1) })).status, 200);
  const post = await request({ method: 'POST', url: list(IDEA, 1), payload: { comment: 'hi' } });
  assert.equal(post.status, 401);
});

test('private projects: outsiders get 403 (401 anonymous), participants may read', async () => {
  const { request, as } = await setup();
  assert.equal((await request({ method: 'GET', url: list(IDEA, 2) })).status, 401);
  assert.equal((await request({ method: 'GET', url: list(IDEA, 2), headers: await as(5) })).status, 403);
  assert.equal((await request({ method: 'GET', url: list(IDEA, 2), headers: await as(6) })).status, 200);
});

test('commenting follows the phase: not in a rating phase, except for moderators', async () => {
  const { request, as } = await setup();
  assert.equal((await request({ method: 'POST', url: list(IDEA, 2), headers: await as(6), payload: { comment: 'hi' } })).status, 403);
  assert.equal((await request({ method: 'POST', url: list(IDEA, 2), headers: await as(2), payload: { comment: 'initiator' } })).status, 201);
  assert.equal((await request({ method: 'POST', url: list(IDEA, 2), headers: await as(1), payload: { comment: 'admin' } })).status, 201);
});

test('invalid comment bodies are 400 with field errors', async () => {
  const { request, as } = await setup();
  const h = await as(5);
  assert.deepEqual((await request({ method: 'POST', url: list(IDEA, 1), headers: h, payload: {} })).body, { comment: ['This field is required.'] });
  assert.deepEqual((await request({ method: 'POST', url: list(IDEA, 1), headers: h, payload: { comment: '  <p> </p>' } })).body, { comment: ['This field may not be blank.'] });
  const long = await request({ method: 'POST', url: list(IDEA, 1), headers: h, payload: { comment: 'x'.repeat(4001) } });
  assert.equal(long.status, 400);
  const bad = await request({ method: 'POST', url: list(IDEA, 1), headers: { ...h, 'content-type': 'application/json' }, payload: '{"comment":' });
  assert.equal(bad.status, 400);
});

test('the owner and a superuser may edit; other users, moderators and initiators may not', async () => {
  const { request, as, db } = await setup();
  const item = (await request({ method: 'POST', url: list(IDEA, 1), headers: await as(5), payload: { comment: 'original' } })).body as Item;
  for (const userId of [6, 3, 2]) {
    assert.equal((await request({ method: 'PATCH', url: list(IDEA, 1, `${item.id}/`), headers: await as(userId), payload: { comment: 'hacked' } })).status, 403, `user ${userId}`);
  }
  const own = await request({ method: 'PATCH', url: list(IDEA, 1, `${item.id}/`), headers: await as(5), payload: { comment: 'edited' } });
  assert.equal(own.status, 200);
  assert.equal((own.body as Item).comment, 'edited');
  assert.notEqual((own.body as Item).modified, null);
  const admin = await request({ method: 'PUT', url: list(IDEA, 1, `${item.id}/`), headers: await as(1), payload: { comment: 'by admin' } });
  assert.equal(admin.status, 200);
  const updates = await db.select().from(actions).where(and(eq(actions.objType, 'comment'), eq(actions.objId, item.id), eq(actions.verb, 'update')));
  assert.equal(updates.length, 2);
  assert.equal(updates[0].targetId, null);
});

test('DELETE by the owner removes, by a moderator censors: the row stays, text and actions go', async () => {
  const { request, as, db } = await setup();
  const a = (await request({ method: 'POST', url: list(IDEA, 1), headers: await as(5), payload: { comment: 'mine' } })).body as Item;
  const b = (await request({ method: 'POST', url: list(IDEA, 1), headers: await as(5), payload: { comment: 'bad' } })).body as Item;
  assert.equal((await request({ method: 'DELETE', url: list(IDEA, 1, `${a.id}/`), headers: await as(6) })).status, 403);
  const removed = await request({ method: 'DELETE', url: list(IDEA, 1, `${a.id}/`), headers: await as(5) });
  assert.equal(removed.status, 200);
  assert.equal((removed.body as Item).is_removed, true);
  assert.equal((removed.body as Item).comment, '');
  assert.equal((removed.body as Item).user_name, 'unknown user');
  const censored = await request({ method: 'DELETE', url: list(IDEA, 1, `${b.id}/`), headers: await as(3) });
  assert.equal((censored.body as Item).is_censored, true);
  const rows = await db.select().from(comments);
  assert.equal(rows.length, 2);
  assert.ok(rows.every((r) => r.comment === ''));
  assert.equal((await db.select().from(actions).where(eq(actions.objType, 'comment'))).length, 0);
});

test('a blocked comment hides its text and author in the public API', async () => {
  const { request, as } = await setup();
  const item = (await request({ method: 'POST', url: list(IDEA, 1), headers: await as(5), payload: { comment: 'spam' } })).body as Item;
  await request({ method: 'PATCH', url: `/api/userdashboard/moderation/1/comments/${item.id}/`, headers: await as(3), payload: { is_blocked: true } });
  const shown = (await request({ method: 'GET', url: list(IDEA, 1, `${item.id}/`) })).body as Item;
  assert.equal(shown.is_blocked, true);
  assert.equal(shown.comment, '');
  assert.equal(shown.user_name, 'unknown user');
  assert.equal(shown.user_image, null);
});

test('pages of 20, newest first, with comment_count counting replies', async () => {
  const { request, db } = await setup();
  await load(db, {
    comments: [
      ...Array.from({ length: 23 }, (_, i) => ({ id: 100 + i, creator: 5, target: { type: 'idea' as const, id: 1 }, comment: `c${i}`, created: daysFromNow(-30 + i) })),
      { id: 200, creator: 6, target: { type: 'comment', id: 100 }, comment: 'reply' },
    ],
  });
  const first = (await request({ method: 'GET', url: list(IDEA, 1) })).body as { count: number; next: string | null; previous: string | null; results: Item[]; comment_count: number };
  assert.equal(first.count, 23);
  assert.equal(first.comment_count, 24);
  assert.equal(first.results.length, 20);
  assert.equal(first.results[0].id, 122);
  assert.ok(first.next?.endsWith('?page=2'));
  const second = (await request({ method: 'GET', url: list(IDEA, 1, '?page=2') })).body as typeof first;
  assert.deepEqual(second.results.map((c) => c.id), [102, 101, 100]);
  assert.equal(second.next, null);
  assert.equal((second.results[2].child_comments as Item[]).length, 1);
  assert.equal((await request({ method: 'GET', url: list(IDEA, 1, '?page=3') })).status, 404);
});
