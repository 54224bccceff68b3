import assert from 'node:assert/strict';
import { and, eq } from 'drizzle-orm';
import { test } from 'node:test';
import type { Fixture } from '../../../src/cli/fixture-schema.js';
import { actions } from '../../../src/db/schema/index.js';
import { basicWorldWith, daysFromNow, load, tokenHeader } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';

/** basicWorld plus a semi-public project 2 with a poll module (2) and a document module (3). */
function world(): Fixture {
  const running = { start_date: daysFromNow(-1), end_date: daysFromNow(5) };
  return basicWorldWith({
    projects: [{ id: 2, slug: 'semi', name: 'Semi', organisation: 1, access: 'SEMIPUBLIC', moderators: [3], participants: [6] }],
    modules: [
      { id: 2, slug: 'the-poll', project: 2, name: 'Poll', phases: [{ type: 'a4polls:voting', ...running }] },
      { id: 3, slug: 'the-text', project: 2, name: 'Text', phases: [{ type: 'a4_candy_documents:document', ...running }] },
    ],
    polls: [{ id: 1, module: 2, creator: 2 }],
    chapters: [{ id: 1, module: 3, creator: 2, name: 'Chapter 1' }],
    paragraphs: [{ id: 1, chapter: 1, name: '§1', text: 'Text' }],
    ideas: [{ id: 1, module: 1, creator: 4, name: 'Idea', description: 'x', category: 1 }],
  });
}

type Item = Record<string, unknown> & { id: number; pk: number };

async function setup() {
  const t = await createTestApp();
  await load(t.db, world());
  return { ...t, as: (userId: number) => tokenHeader(t.db, userId) };
}

test('polls, chapters and paragraphs take comments; their comment_url is the module page (polls) or their own page (chapters, paragraphs)', async () => {
  const { request, as } = await setup();
  const h = await as(6);
  for (const [ct, pk] of [[5, 1], [6, 1], [7, 1]]) {
    const created = await request({ method: 'POST', url: `/api/contenttypes/${ct}/objects/${pk}/comments/`, headers: h, payload: { comment: `on ${ct}` } });
    assert.equal(created.status, 201, `content type ${ct}`);
    const item = (await request({ method: 'GET', url: `/api/userdashboard/moderation/2/comments/${(created.body as Item).id}/`, headers: await as(3) })).body as Item;
    const page = { 5: '/org/projects/module/the-poll/', 6: '/org/text/chapters/1/', 7: '/org/text/paragraphs/1/' }[ct];
    assert.match(String(item.comment_url), new RegExp(`${page}\\?comment=${item.pk}$`));
  }
});

test('semi-public: everyone signed in may read, only participants may comment', async () => {
  const { request, as } = await setup();
  const url = '/api/contenttypes/5/objects/1/comments/';
  assert.equal((await request({ method: 'GET', url, headers: await as(5) })).status, 200);
  assert.equal((await request({ method: 'GET', url })).status, 200);
  assert.equal((await request({ method: 'POST', url, headers: await as(5), payload: { comment: 'outsider' } })).status, 403);
  assert.equal((await request({ method: 'POST', url, headers: await as(6), payload: { comment: 'participant' } })).status, 201);
});

test('a comment on a paragraph records an add action without a target creator', async () => {
  const { request, as, db } = await setup();
  const created = (await request({ method: 'POST', url: '/api/contenttypes/7/objects/1/comments/', headers: await as(6), payload: { comment: 'hi' } })).body as Item;
  const [action] = await db.select().from(actions).where(and(eq(actions.objType, 'comment'), eq(actions.objId, created.id)));
  assert.equal(action.verb, 'add');
  assert.equal(action.targetType, 'paragraph');
  assert.equal(action.targetCreatorId, null);
  assert.equal(action.projectId, 2);
});

test('the comments list takes a constant number of statements, however many comments', async () => {
  const { request, db, database } = await setup();
  const count = async () => {
    const before = database.stats.queries;
    assert.equal((await request({ method: 'GET', url: '/api/contenttypes/4/objects/1/comments/' })).status, 200);
    return database.stats.queries - before;
  };
  await load(db, { comments: [{ id: 50, creator: 5, target: { type: 'idea', id: 1 }, comment: 'one' }] });
  const few = await count();
  await load(db, {
    comments: Array.from({ length: 10 }, (_, i) => ({ id: 60 + i, creator: 4 + (i % 3), target: i % 2 ? { type: 'comment' as const, id: 50 } : { type: 'idea' as const, id: 1 }, comment: `c${i}` })),
    ratings: [{ creator: 6, target: { type: 'comment', id: 60 }, value: 1 }],
    comment_feedback: [{ comment: 62, creator: 3, feedback_text: 'ok' }],
  });
  assert.equal(await count(), few);
});
