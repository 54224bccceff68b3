import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../src/db/client.js';
import * as s from '../../src/db/schema/index.js';
import { createSystemActions } from '../../src/core/actions/system.js';
import { createComment, removeComment } from '../../src/features/comments/services.js';
import { setFollow } from '../../src/core/follows/services.js';
import { createIdea, deleteIdea } from '../../src/features/idealike/services.js';
import { IDEA_KIND } from '../../src/features/ideas/idea-kind.js';
import { addCommentFeedback, updateCommentFeedback } from '../../src/features/comments/feedback-services.js';
import { addModerator } from '../../src/core/members/services.js';
import { createTestApp } from '../helpers.js';
import { basicWorld, daysFromNow, load } from '../fixtures.js';

async function world(): Promise<Db> {
  const { db } = await createTestApp();
  await load(db, basicWorld());
  return db;
}

const followOf = async (db: Db, userId: number) =>
  (await db.select().from(s.follows).where(and(eq(s.follows.creatorId, userId), eq(s.follows.projectId, 1))))[0];

test('creating an idea records an "add" action on the project and makes the creator follow it', async () => {
  const db = await world();
  const id = await db.transaction((tx) => createIdea(tx, { moduleId: 1, creatorId: 5, name: 'Idea', description: 'Text' }, IDEA_KIND));
  const [action] = await db.select().from(s.actions).where(eq(s.actions.objId, id));
  assert.deepEqual([action.verb, action.actorId, action.targetType, action.targetId, action.targetCreatorId, action.projectId], ['add', 5, 'project', 1, null, 1]);
  assert.equal((await followOf(db, 5)).enabled, true);
});

test('auto-follow does not re-enable a follow the user disabled; adding a moderator does', async () => {
  const db = await world();
  await db.transaction((tx) => setFollow(tx, 5, 1, false));
  await db.transaction((tx) => createIdea(tx, { moduleId: 1, creatorId: 5, name: 'Idea', description: 'Text' }, IDEA_KIND));
  assert.equal((await followOf(db, 5)).enabled, false);
  await db.transaction((tx) => addModerator(tx, 1, 5));
  assert.equal((await followOf(db, 5)).enabled, true);
});

test('a reply\'s action names the parent comment\'s creator; removing a comment clears its text and actions', async () => {
  const db = await world();
  const ideaId = await createIdea(db, { moduleId: 1, creatorId: 5, name: 'Idea', description: 'Text' }, IDEA_KIND);
  const top = await createComment(db, { creatorId: 6, target: { type: 'idea', id: ideaId }, comment: 'First' });
  assert.equal(top.targetCreatorId, 5);
  const reply = await createComment(db, { creatorId: 5, target: { type: 'comment', id: top.id }, comment: 'Reply' });
  assert.equal(reply.targetCreatorId, 6);
  assert.equal(reply.projectId, 1);
  await db.transaction((tx) => removeComment(tx, top.id, true));
  const [row] = await db.select().from(s.comments).where(eq(s.comments.id, top.id));
  assert.deepEqual([row.comment, row.isRemoved, row.isCensored], ['', true, false]);
  assert.equal((await db.select().from(s.actions).where(and(eq(s.actions.objType, 'comment'), eq(s.actions.objId, top.id)))).length, 0);
});

test('comment feedback records "add" then "update" with the comment creator; a second feedback is refused', async () => {
  const db = await world();
  const ideaId = await createIdea(db, { moduleId: 1, creatorId: 5, name: 'Idea', description: 'Text' }, IDEA_KIND);
  const comment = await createComment(db, { creatorId: 6, target: { type: 'idea', id: ideaId }, comment: 'First' });
  const feedbackId = await db.transaction((tx) => addCommentFeedback(tx, { commentId: comment.id, creatorId: 3, feedbackText: 'Thanks' }));
  await db.transaction((tx) => updateCommentFeedback(tx, feedbackId, 2, 'Thanks again'));
  const rows = await db.select().from(s.actions).where(eq(s.actions.objType, 'moderatorcommentfeedback'));
  assert.deepEqual(rows.map((a) => [a.verb, a.actorId, a.objCommentCreatorId]).sort(), [['add', 3, 6], ['update', 2, 6]]);
  await assert.rejects(db.transaction((tx) => addCommentFeedback(tx, { commentId: comment.id, creatorId: 3, feedbackText: 'Again' })), /already has moderator feedback/);
});

test('deleting an idea deletes its comments, replies, ratings and their actions', async () => {
  const db = await world();
  const ideaId = await createIdea(db, { moduleId: 1, creatorId: 5, name: 'Idea', description: 'Text' }, IDEA_KIND);
  const top = await createComment(db, { creatorId: 6, target: { type: 'idea', id: ideaId }, comment: 'First' });
  await createComment(db, { creatorId: 5, target: { type: 'comment', id: top.id }, comment: 'Reply' });
  await db.insert(s.ratings).values({ creatorId: 6, contentType: 'idea', objectPk: ideaId, value: 1 });
  await db.transaction((tx) => deleteIdea(tx, ideaId, IDEA_KIND));
  assert.equal((await db.select().from(s.comments)).length, 0);
  assert.equal((await db.select().from(s.ratings)).length, 0);
  assert.equal((await db.select().from(s.actions)).length, 0);
});

test('system actions: phase start, project start and phase ending, each once', async () => {
  const { db } = await createTestApp();
  const fixture = basicWorld();
  const now = new Date();
  fixture.modules = [
    { id: 1, project: 1, name: 'Started', phases: [{ type: 'a4_candy_ideas:collect', start_date: new Date(now.getTime() - 10 * 60_000).toISOString(), end_date: daysFromNow(1) }] },
    { id: 2, project: 1, name: 'Draft', is_draft: true, phases: [{ type: 'a4_candy_ideas:collect', start_date: new Date(now.getTime() - 5 * 60_000).toISOString(), end_date: daysFromNow(10) }] },
  ];
  await load(db, fixture);
  const first = await createSystemActions(db, { now, origin: 'http://localhost', timeZone: 'Europe/Berlin' });
  assert.deepEqual(first, { started: 1, projectsStarted: 1, scheduled: 1, mails: 2 }, 'the moderator follows the project');
  const second = await createSystemActions(db, { now, origin: 'http://localhost', timeZone: 'Europe/Berlin' });
  assert.deepEqual(second, { started: 0, projectsStarted: 0, scheduled: 0, mails: 0 });
});
