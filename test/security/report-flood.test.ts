import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { outbox, reports } from '../../src/db/schema/index.js';
import { basicWorld, load, tokenHeader } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

const COMMENT = 8;

async function world() {
  const t = await createTestApp();
  const base = basicWorld();
  await load(t.db, {
    ...base,
    ideas: [{ id: 1, module: 1, creator: 4, name: 'Idea', description: 'x' }],
    comments: [1, 2, 3, 4].map((id) => ({ id, creator: 4, target: { type: 'idea' as const, id: 1 }, comment: `Comment ${id}` })),
  });
  const report = async (userId: number, commentId: number, description: string) =>
    t.request({ method: 'POST', url: '/api/reports/', headers: await tokenHeader(t.db, userId), payload: { content_type: COMMENT, object_pk: commentId, description } });
  return { ...t, report };
}

test('issue 21 finding 9: one open report per user and object, and a rate limit per user', async () => {
  const { db, report } = await world();
  const answers = [];
  for (let i = 0; i < 12; i++) answers.push((await report(5, 1, `Spam ${i}`)).status);
  assert.deepEqual(answers.slice(0, 10), Array(10).fill(201), 'a repeated report is answered as the first');
  assert.deepEqual(answers.slice(10), [429, 429], 'the eleventh within ten minutes is refused');
  assert.equal((await db.select().from(reports)).length, 1);
  assert.equal((await report(6, 1, 'Also spam')).status, 201, 'other users still report');
  assert.equal((await db.select().from(reports)).length, 2);
});

test('issue 21 finding 9: moderators get one digest, not one mail per report', async () => {
  const { db, report } = await world();
  for (const [user, comment] of [[5, 1], [5, 2], [6, 3], [6, 4]]) assert.equal((await report(user, comment, `Report by ${user} of ${comment}`)).status, 201);
  const mails = await db.select().from(outbox).where(eq(outbox.kind, 'report_to_moderators'));
  assert.equal(mails.length, 1, 'the one moderator gets one mail');
  assert.equal(mails[0].recipient, 'moderator@example.org');
  for (const text of ['Report by 5 of 1', 'Report by 5 of 2', 'Report by 6 of 3', 'Report by 6 of 4']) assert.match(mails[0].body, new RegExp(text));
  assert.ok(mails[0].nextAttemptAt && mails[0].nextAttemptAt.getTime() > Date.now(), 'it waits for more before it goes out');
});

test('issue 36 item 6: after a report was handled, the same user reports the object again as a new incident', async () => {
  const { db, report } = await world();
  assert.equal((await report(5, 1, 'First incident')).status, 201);
  await db.update(reports).set({ handledAt: new Date(), handledById: 3 });
  const again = await report(5, 1, 'It happened again');
  assert.equal(again.status, 201);
  const rows = await db.select({ description: reports.description, handledAt: reports.handledAt }).from(reports);
  assert.deepEqual(rows.map((r) => [r.description, r.handledAt === null]).sort(), [['First incident', false], ['It happened again', true]]);
  assert.equal((await report(5, 1, 'Repeated while open')).status, 201);
  assert.equal((await db.select().from(reports)).length, 2, 'while it is open, a repeated report still adds nothing');
});
