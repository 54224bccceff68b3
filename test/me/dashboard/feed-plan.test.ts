import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'drizzle-orm';
import { feedPage, feedQuery } from '../../../src/me/dashboard/queries.js';
import { basicWorld, load } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';

const ACTIVITIES = 50_000;

/** A user with many activities: comments by user 6 on user 5's idea and moderator feedback on user 5's comments (and as many for user 4). */
async function busyUser() {
  const t = await createTestApp();
  await load(t.db, { ...basicWorld(), ideas: [{ id: 1, module: 1, creator: 5, name: 'Idea', description: 'x' }] });
  const statements = [
    `INSERT INTO comments (id, creator_id, content_type, object_pk, comment, project_id, created)
      SELECT 1000 + g, 6, 'idea', 1, 'c' || g, 1, now() - (g || ' seconds')::interval FROM generate_series(1, ${ACTIVITIES}) g`,
    ...[5, 4].map(
      (targetCreator) => `INSERT INTO actions (actor_id, verb, obj_type, obj_id, target_type, target_id, target_creator_id, project_id, timestamp)
      SELECT 6, 'add', 'comment', 1000 + g, 'idea', 1, ${targetCreator}, 1, now() - (g || ' seconds')::interval FROM generate_series(1, ${ACTIVITIES}) g`,
    ),
    ...[5, 4].map(
      (commentCreator) => `INSERT INTO actions (actor_id, verb, obj_type, obj_id, obj_comment_creator_id, project_id, timestamp)
      SELECT 3, 'add', 'moderatorcommentfeedback', g, ${commentCreator}, 1, now() - (g || ' seconds')::interval FROM generate_series(1, ${ACTIVITIES}) g`,
    ),
    'ANALYZE actions',
    'ANALYZE comments',
  ];
  for (const statement of statements) await t.db.execute(sql.raw(statement));
  return t;
}

const planOf = async (db: Awaited<ReturnType<typeof busyUser>>['db'], query: ReturnType<typeof feedQuery>) => {
  const result = await db.execute(sql`EXPLAIN ${query}`);
  return (result as unknown as { rows: Record<string, string>[] }).rows.map((row) => Object.values(row)[0]).join('\n');
};

test('a page of a busy feed walks the feed indexes instead of reading all actions', async () => {
  const { db } = await busyUser();
  const firstPage = await feedPage(db, 5, 21);
  assert.equal(firstPage.length, 21);
  assert.equal(new Set(firstPage).size, 21);
  const plan = await planOf(db, feedQuery(5, 21));
  assert.match(plan, /actions_target_creator_feed_idx/, plan);
  assert.match(plan, /actions_obj_comment_creator_feed_idx/, plan);
  assert.doesNotMatch(plan, /Seq Scan on actions/, plan);
  const deepPlan = await planOf(db, feedQuery(5, 21, firstPage[20]));
  assert.match(deepPlan, /actions_target_creator_feed_idx/, deepPlan);
  assert.doesNotMatch(deepPlan, /Seq Scan on actions a\b/, deepPlan);
  const second = await feedPage(db, 5, 21, firstPage[20]);
  assert.ok(second.every((id) => !firstPage.includes(id)));
});
