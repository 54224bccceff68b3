import assert from 'node:assert/strict';
import { and, eq } from 'drizzle-orm';
import { test } from 'node:test';
import { actions, commentFeedback, outbox } from '../../../src/db/schema/index.js';
import { load, tokenHeader } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { moderationWorld } from './world.js';

const url = (rest = '') => `/api/comments/1/moderatorfeedback/${rest}`;
type Feedback = { pk: number; feedback_text: string; last_edit: string };

async function setup() {
  const t = await createTestApp();
  await load(t.db, moderationWorld());
  return { ...t, as: (userId: number) => tokenHeader(t.db, userId) };
}

test('POST: anonymous 401, user 403, moderator, initiator and admin 201', async () => {
  const { request, as, db } = await setup();
  assert.equal((await request({ method: 'POST', url: url(), payload: { feedback_text: 'x' } })).status, 401);
  assert.equal((await request({ method: 'POST', url: url(), headers: await as(5), payload: { feedback_text: 'x' } })).status, 403);
  assert.equal((await request({ method: 'POST', url: url(), headers: await as(6), payload: { feedback_text: 'x' } })).status, 403, 'another project\'s moderator');
  for (const userId of [3, 2, 1]) {
    const response = await request({ method: 'POST', url: url(), headers: await as(userId), payload: { feedback_text: `by ${userId}` } });
    assert.equal(response.status, 201, `user ${userId}`);
    assert.deepEqual(Object.keys(response.body as object).sort(), ['feedback_text', 'last_edit', 'pk']);
    await db.delete(commentFeedback);
  }
});

test('a comment has at most one feedback: a second POST is a clear 400 (D4)', async () => {
  const { request, as } = await setup();
  const h = await as(3);
  assert.equal((await request({ method: 'POST', url: url(), headers: h, payload: { feedback_text: 'one' } })).status, 201);
  const second = await request({ method: 'POST', url: url(), headers: h, payload: { feedback_text: 'two' } });
  assert.equal(second.status, 400);
  assert.deepEqual(second.body, { detail: 'This comment already has moderator feedback.' });
});

test('anyone who may see the comment can list and retrieve feedback', async () => {
  const { request, as } = await setup();
  const created = (await request({ method: 'POST', url: url(), headers: await as(3), payload: { feedback_text: 'Thanks' } })).body as Feedback;
  const listed = await request({ method: 'GET', url: url() });
  assert.equal(listed.status, 200);
  assert.deepEqual((listed.body as Feedback[]).map((f) => f.feedback_text), ['Thanks']);
  assert.equal((await request({ method: 'GET', url: url(`${created.pk}/`) })).status, 200);
  assert.equal((await request({ method: 'GET', url: '/api/comments/2/moderatorfeedback/' })).body instanceof Array, true);
  assert.equal((await request({ method: 'GET', url: `/api/comments/2/moderatorfeedback/${created.pk}/` })).status, 404, 'feedback of another comment');
  assert.equal((await request({ method: 'GET', url: '/api/comments/999/moderatorfeedback/' })).status, 404);
});

test('PUT and PATCH: users 403, moderators 200; DELETE: users 403, moderators 204', async () => {
  const { request, as, db } = await setup();
  const created = (await request({ method: 'POST', url: url(), headers: await as(3), payload: { feedback_text: 'first' } })).body as Feedback;
  const detail = url(`${created.pk}/`);
  assert.equal((await request({ method: 'PUT', url: detail, headers: await as(5), payload: { feedback_text: 'no' } })).status, 403);
  const put = await request({ method: 'PUT', url: detail, headers: await as(3), payload: { feedback_text: 'changed' } });
  assert.equal(put.status, 200);
  assert.equal((put.body as Feedback).feedback_text, 'changed');
  const patch = await request({ method: 'PATCH', url: detail, headers: await as(2), payload: { feedback_text: 'by initiator' } });
  assert.equal(patch.status, 200);
  const [row] = await db.select().from(commentFeedback);
  assert.equal(row.creatorId, 2, 'the updating moderator becomes the creator');
  assert.equal((await request({ method: 'DELETE', url: detail, headers: await as(5) })).status, 403);
  assert.equal((await request({ method: 'DELETE', url: detail })).status, 401);
  const deleted = await request({ method: 'DELETE', url: detail, headers: await as(3) });
  assert.equal(deleted.status, 204);
  assert.equal(deleted.text, '');
  assert.equal((await db.select().from(commentFeedback)).length, 0);
  assert.equal((await db.select().from(actions).where(eq(actions.objType, 'moderatorcommentfeedback'))).length, 0);
});

test('saving feedback records add then update actions for the comment\'s creator and notifies them', async () => {
  const { request, as, db } = await setup();
  const created = (await request({ method: 'POST', url: url(), headers: await as(3), payload: { feedback_text: '<p>Thanks</p>' } })).body as Feedback;
  await request({ method: 'PATCH', url: url(`${created.pk}/`), headers: await as(3), payload: { feedback_text: 'Updated' } });
  const rows = await db.select().from(actions).where(and(eq(actions.objType, 'moderatorcommentfeedback'), eq(actions.objId, created.pk)));
  assert.deepEqual(rows.map((a) => a.verb).sort(), ['add', 'update']);
  assert.ok(rows.every((a) => a.objCommentCreatorId === 5 && a.actorId === 3));
  const mails = await db.select().from(outbox).where(eq(outbox.kind, 'comment_feedback')).orderBy(outbox.id);
  assert.equal(mails.length, 2);
  assert.equal(mails[0].recipient, 'user@example.org');
  assert.match(mails[0].body, /Thanks/);
  assert.doesNotMatch(mails[0].body, /<p>/);
});

test('bad input: missing text 400, ids out of range 404', async () => {
  const { request, as } = await setup();
  const h = await as(3);
  assert.deepEqual((await request({ method: 'POST', url: url(), headers: h, payload: {} })).body, { feedback_text: ['This field is required.'] });
  assert.equal((await request({ method: 'GET', url: '/api/comments/4294967296/moderatorfeedback/' })).status, 404);
  assert.equal((await request({ method: 'PATCH', url: url('nope/'), headers: h, payload: {} })).status, 404);
  assert.equal((await request({ method: 'PATCH', url: url('77/'), headers: h, payload: {} })).status, 404);
});
