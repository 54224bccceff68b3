import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, asc, eq } from 'drizzle-orm';
import { FixtureError, loadFixture } from '../../src/cli/loaddata.js';
import type { Db } from '../../src/db/client.js';
import * as s from '../../src/db/schema/index.js';
import { ideas } from '../../src/features/ideas/schema.js';
import { createTestApp } from '../helpers.js';
import { everyKindFixture } from './world.js';

const options = { baseDir: process.cwd() };

async function counts(db: Db) {
  const tables = { users: s.users, projects: s.projects, ideas, comments: s.comments, actions: s.actions, follows: s.follows };
  const result: Record<string, number> = {};
  for (const [name, table] of Object.entries(tables)) result[name] = (await db.select().from(table)).length;
  return result;
}

test('a fixture with every record kind loads, keeping ids and recording actions at the records\' times', async () => {
  const { db } = await createTestApp();
  const loaded = await loadFixture(db, everyKindFixture(), options);
  assert.equal(loaded.users, 3);
  assert.equal(loaded.comments, 4);

  const [idea] = await db.select().from(ideas).where(eq(ideas.id, 20));
  assert.equal(idea.description, '<p>Hi</p>', 'rich text is cleaned');
  const [comment] = await db.select().from(s.comments).where(eq(s.comments.id, 30));
  assert.equal(comment.comment, 'Nice idea', 'comment HTML is stripped');
  assert.equal(comment.projectId, 7);

  const commentActions = await db.select().from(s.actions).where(eq(s.actions.objType, 'comment')).orderBy(asc(s.actions.objId));
  assert.deepEqual(
    commentActions.map((a) => [a.objId, a.verb, a.targetType, a.targetId, a.targetCreatorId, a.actorId]),
    [
      [30, 'add', 'idea', 20, 10, 11],
      [31, 'add', 'comment', 30, 11, 10],
      [32, 'add', 'poll', 2, 12, 11],
    ],
    'a removed comment has no action',
  );
  assert.equal(commentActions[0].timestamp.toISOString(), '2024-03-06T10:00:00.000Z');
  const [ideaAction] = await db.select().from(s.actions).where(eq(s.actions.objType, 'idea'));
  assert.deepEqual([ideaAction.verb, ideaAction.targetType, ideaAction.targetId, ideaAction.timestamp.toISOString()], ['add', 'project', 7, '2024-03-05T14:07:00.000Z']);
  const [feedbackAction] = await db.select().from(s.actions).where(eq(s.actions.objType, 'moderatorcommentfeedback'));
  assert.equal(feedbackAction.objCommentCreatorId, 11);

  const [gone] = await db.select().from(s.comments).where(eq(s.comments.id, 33));
  assert.equal(gone.comment, '');
  assert.equal(gone.isRemoved, true);

  const [reply] = await db.select().from(s.comments).where(eq(s.comments.id, 31));
  assert.equal(reply.isReviewed, true, 'flags given in the fixture are final, even with a report');

  const [rating] = await db.select().from(s.ratings);
  assert.equal(rating.value, 1, 'rating values are clamped to -1..1');

  const follows = await db.select().from(s.follows).orderBy(asc(s.follows.creatorId));
  assert.deepEqual(
    follows.map((f) => [f.creatorId, f.enabled]),
    [
      [10, true],
      [11, false],
      [12, true],
    ],
    'auto-follows for creators and moderators; the explicit follow wins',
  );
});

test('ids given are kept and sequences move past them', async () => {
  const { db } = await createTestApp();
  await loadFixture(db, everyKindFixture(), options);
  const [user] = await db.insert(s.users).values({ username: 'new', email: 'new@example.org' }).returning({ id: s.users.id });
  assert.equal(user.id, 13);
  const [comment] = await db.insert(s.comments).values({ creatorId: 10, contentType: 'idea', objectPk: 20, comment: 'x' }).returning({ id: s.comments.id });
  assert.equal(comment.id, 34);
});

test('an invalid record stores nothing and the error names the record', async () => {
  const { db } = await createTestApp();
  const cases: [(f: ReturnType<typeof everyKindFixture>) => void, string][] = [
    [(f) => (f.projects = [{ id: 1, slug: 'a', name: 'A', organisation: 5 }, { id: 2, slug: 'b', name: 'B', organisation: 5 }, { id: 3, slug: 'c', name: 'C', organisation: 5 }, { id: 4, slug: 'd', name: 'D', organisation: 9 }]), 'projects[3].organisation: no organisation 9'],
    [(f) => (f.comments = [{ id: 50, creator: 10, target: { type: 'idea', id: 99 }, comment: 'x' }]), 'comments[0].target: no idea 99'],
    [(f) => ((f.users ?? [])[1].email = 'not-an-email'), 'users[1].email'],
    // Signup's rule, not a looser one of its own: no dot in the domain, or an angle bracket, is refused here too.
    [(f) => ((f.users ?? [])[1].email = 'root@localhost'), 'users[1].email: "root@localhost" is not an e-mail address signup would accept'],
    [(f) => ((f.users ?? [])[1].email = '<x>@example.org'), 'users[1].email: "<x>@example.org" is not an e-mail address'],
    [(f) => (f.ideas = [{ id: 20, module: 3, creator: 10, name: 'I', description: 'd', category: 77 }]), 'ideas[0].category: no category 77 in module 3'],
    [(f) => (f.ideas = [{ id: 20, module: 3, creator: 10, name: 'I', description: 'd', slug: 'i' }, { id: 21, module: 3, creator: 10, name: 'J', description: 'd', slug: 'i' }]), 'ideas[1].slug: "i" belongs to idea 20 already'],
    [(f) => (f.ideas = [{ id: 20, module: 3, creator: 10, name: 'I', description: 'd', slug: 'Big-I' }]), 'ideas[0].slug'],
    [(f) => (f.comment_feedback = [...(f.comment_feedback ?? []), { comment: 30, creator: 12, feedback_text: 'again' }]), 'comment_feedback[1].comment: comment 30 has feedback already'],
    [(f) => ((f.modules ?? [])[0].phases[0].end_date = '2000-01-01T00:00:00Z'), 'modules[0].phases[0].end_date: before start_date'],
    [(f) => ((f as Record<string, unknown>).unknown = []), 'fixture: unknown field unknown'],
    [(f) => ((f.projects ?? [])[0].slug = 'create'), 'projects[0].slug: "create" is a path of the platform'],
    [(f) => ((f.modules ?? [])[0].slug = 'Module'), 'modules[0].slug: "Module" is a path of the platform'],
    [(f) => ((f.organisations ?? [])[0].slug = 'api'), 'organisations[0].slug: "api" is a path of the platform'],
  ];
  for (const [spoil, message] of cases) {
    const fixture = everyKindFixture();
    spoil(fixture);
    await assert.rejects(loadFixture(db, fixture, options), (error: unknown) => {
      assert.ok(error instanceof FixtureError, String(error));
      assert.ok(error.message.startsWith(message), `${error.message} should start with ${message}`);
      return true;
    });
    assert.deepEqual(await counts(db), { users: 0, projects: 0, ideas: 0, comments: 0, actions: 0, follows: 0 });
  }
});

test('a user cannot be loaded twice (case-insensitive username and e-mail)', async () => {
  const { db } = await createTestApp();
  await loadFixture(db, { users: [{ id: 1, username: 'Anna', email: 'a@example.org' }] }, options);
  await assert.rejects(loadFixture(db, { users: [{ id: 2, username: 'anna', email: 'b@example.org' }] }, options), /users\[0\]: a user with id 2, username "anna"/);
  const rows = await db.select().from(s.users).where(and(eq(s.users.id, 2)));
  assert.equal(rows.length, 0);
});
