import assert from 'node:assert/strict';
import { sql } from 'drizzle-orm';
import { test } from 'node:test';
import { load, tokenHeader } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { moderationWorld } from './world.js';

/**
 * The moderation list is kept under the version of its project's pages (issue 23.3): a kept answer
 * costs two statements, every moderator gets the same answer with its ETag, and the next request
 * after a write to the project's comments, reports or their authors shows it. Time is frozen within
 * one second, so only the version can tell a kept answer from a new one.
 */
const LIST = '/api/userdashboard/moderation/1/comments/?is_reviewed=all&ordering=created&num_of_comments=20';

test('the moderation list: kept for two statements, a 304 for its tag, new after a comment, a report, a block or a renamed author', async (t) => {
  const { request, db, database } = await createTestApp();
  await load(db, moderationWorld());
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const moderator = await tokenHeader(db, 3);
  const initiator = await tokenHeader(db, 2);
  const list = async (headers: Record<string, string>) => {
    const before = database.stats.queries;
    const response = await request({ method: 'GET', url: LIST, headers });
    return { ...response, statements: database.stats.queries - before, body: response.body as { count: number; results: { comment: string; user_name: string; is_blocked: boolean; num_reports: number }[] } };
  };
  const first = await list(moderator);
  assert.equal(first.status, 200);
  assert.equal(first.body.count, 5);
  const kept = await list(initiator);
  assert.equal(kept.status, 200);
  assert.equal(kept.statements, 2, 'the token, and the project with its version');
  assert.deepEqual(kept.body, first.body, 'every moderator gets the same list');
  assert.equal(kept.headers.etag, first.headers.etag);
  const unchanged = await request({ method: 'GET', url: LIST, headers: { ...moderator, 'if-none-match': String(first.headers.etag) } });
  assert.equal(unchanged.status, 304);

  // A plain user and another project's moderator are refused, kept list or not.
  assert.equal((await list(await tokenHeader(db, 5))).status, 403);
  assert.equal((await list(await tokenHeader(db, 6))).status, 403);

  // A new comment by plain SQL (another instance): the next request shows it.
  await db.execute(sql`INSERT INTO comments (content_type, object_pk, creator_id, comment, project_id) VALUES ('idea', 1, 5, 'a new one', 1)`);
  const added = await list(moderator);
  assert.equal(added.body.count, 6);
  assert.ok(added.body.results.some((c) => c.comment === 'a new one'));
  assert.notEqual(added.headers.etag, first.headers.etag);

  // A block through the API changes the list.
  const blocked = await request({ method: 'PATCH', url: '/api/userdashboard/moderation/1/comments/3/', headers: moderator, payload: { is_blocked: true } });
  assert.equal(blocked.status, 200);
  assert.ok((await list(moderator)).body.results.find((c) => c.comment === 'third')?.is_blocked);

  // A report of the fourth comment.
  await db.execute(sql`INSERT INTO reports (content_type, object_pk, creator_id, description) VALUES ('comment', 4, 6, 'rude')`);
  assert.equal((await list(moderator)).body.results.find((c) => c.comment === 'fourth')?.num_reports, 1);

  // The comments' author is renamed.
  await db.execute(sql`UPDATE users SET username = 'renamed' WHERE id = 5`);
  assert.ok((await list(moderator)).body.results.some((c) => c.user_name === 'renamed'));

  // A comment of another project leaves this list kept.
  await list(moderator);
  await db.execute(sql`INSERT INTO comments (content_type, object_pk, creator_id, comment, project_id) VALUES ('project', 2, 5, 'elsewhere', 2)`);
  assert.equal((await list(moderator)).statements, 2, 'kept: nothing of project 1 changed');
});
