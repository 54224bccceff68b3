import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { comments } from '../../../src/db/schema/index.js';
import type { Fixture } from '../../../src/cli/fixture-schema.js';
import { basicWorldWith, daysFromNow, load, tokenHeader } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';

/**
 * The comment list as adhocracy4's comment widget (comments_async) reads it: the permission fields
 * of the list, each comment's `user_info`, and the list's search, ordering, category and
 * `commentID` parameters.
 */

/** basicWorld plus idea 1 (public project, collect phase); project 2 private (participant 6) in a rating phase with idea 2; project 3 semi-public, collect phase, idea 3. */
function world(): Fixture {
  return basicWorldWith({
    projects: [
      { id: 2, slug: 'private', name: 'Private', organisation: 1, access: 'PRIVATE', participants: [6] },
      { id: 3, slug: 'semi', name: 'Semi', organisation: 1, access: 'SEMIPUBLIC', participants: [6] },
    ],
    modules: [
      { id: 2, project: 2, name: 'Rating', phases: [{ type: 'a4_candy_ideas:rating', start_date: daysFromNow(-1), end_date: daysFromNow(5) }] },
      { id: 3, project: 3, name: 'Semi ideas', phases: [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(5) }] },
    ],
    ideas: [
      { id: 1, module: 1, creator: 4, name: 'Idea', description: 'An idea' },
      { id: 2, module: 2, creator: 6, name: 'Private idea', description: 'psst' },
      { id: 3, module: 3, creator: 6, name: 'Semi idea', description: 'half' },
    ],
  });
}

const IDEA = 4;
const list = (pk: number, rest = '') => `/api/contenttypes/${IDEA}/objects/${pk}/comments/${rest}`;
type Item = Record<string, unknown> & { id: number; user_info: Record<string, unknown>; child_comments: Item[] };
interface Page {
  count: number;
  next: string | null;
  results: Item[];
  has_commenting_permission: boolean;
  would_have_commenting_permission: boolean;
  project_is_public: boolean;
  comment_found?: boolean;
  comment_parent?: number;
  categories?: Record<string, string>;
}

async function setup() {
  const t = await createTestApp();
  await load(t.db, world());
  const get = async (url: string, userId?: number) => {
    const response = await t.request({ method: 'GET', url, headers: userId ? await tokenHeader(t.db, userId) : {} });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body as Page;
  };
  return { ...t, get };
}

const permissions = (page: Page) => [page.has_commenting_permission, page.would_have_commenting_permission, page.project_is_public];

test('the list says whether the caller may comment, whether a signed-in user could, and whether the project is public', async () => {
  const { get } = await setup();
  // public project, collect phase
  assert.deepEqual(permissions(await get(list(1))), [false, true, true]);
  assert.deepEqual(permissions(await get(list(1), 5)), [true, true, true]);
  assert.deepEqual(permissions(await get(list(1), 3)), [true, true, true]);
  // private project in a rating phase: nobody but moderators, initiators and superusers comments
  assert.deepEqual(permissions(await get(list(2), 6)), [false, false, false]);
  assert.deepEqual(permissions(await get(list(2), 2)), [true, false, false]);
  assert.deepEqual(permissions(await get(list(2), 1)), [true, false, false]);
  // semi-public project: anyone sees it, only its participants comment
  assert.deepEqual(permissions(await get(list(3))), [false, false, false]);
  assert.deepEqual(permissions(await get(list(3), 5)), [false, false, false]);
  assert.deepEqual(permissions(await get(list(3), 6)), [true, false, false]);
});

test("each comment's user_info and user_pk as a4 serialises them, for anonymous callers, citizens and moderators", async () => {
  const { get, db } = await setup();
  await load(db, {
    comments: [
      { id: 10, creator: 5, target: { type: 'idea', id: 1 }, comment: 'mine' },
      { id: 11, creator: 6, target: { type: 'comment', id: 10 }, comment: 'a reply' },
      { id: 12, creator: 6, target: { type: 'idea', id: 1 }, comment: 'gone', is_removed: true },
    ],
  });
  const info = async (userId?: number) => {
    const page = await get(list(1), userId);
    const byId = new Map([...page.results, ...page.results.flatMap((c) => c.child_comments)].map((c) => [c.id, c]));
    return (id: number) => byId.get(id) as Item;
  };
  const anonymous = await info();
  assert.deepEqual(anonymous(10).user_info, {
    authenticated_user_pk: null,
    has_viewing_permission: true,
    has_rating_permission: false,
    has_changing_permission: false,
    has_deleting_permission: false,
    has_moderating_permission: false,
    has_comment_commenting_permission: false,
    is_users_own_comment: false,
  });
  assert.equal(anonymous(10).user_pk, 5);
  assert.equal(anonymous(12).user_pk, null);
  const owner = await info(5);
  assert.deepEqual(owner(10).user_info, {
    authenticated_user_pk: 5,
    has_viewing_permission: true,
    has_rating_permission: true,
    has_changing_permission: true,
    has_deleting_permission: true,
    has_moderating_permission: false,
    has_comment_commenting_permission: true,
    is_users_own_comment: true,
  });
  assert.equal(owner(11).user_info.has_comment_commenting_permission, false, 'a reply is not answered');
  const moderator = await info(3);
  assert.deepEqual(
    [moderator(10).user_info.authenticated_user_pk, moderator(10).user_info.has_moderating_permission, moderator(10).user_info.has_deleting_permission, moderator(10).user_info.has_changing_permission],
    [3, true, true, false],
  );
  assert.equal(moderator(12).user_info.has_comment_commenting_permission, false, 'a removed comment is not answered');
});

/** Comments on idea 1: 20 comments 100-119 (oldest first), then five with ratings, replies, marks and categories. */
async function threadOf(db: Parameters<typeof load>[0]) {
  const at = (minutes: number) => new Date(Date.UTC(2024, 0, 1, 0, minutes)).toISOString();
  await load(db, {
    comments: [
      ...Array.from({ length: 20 }, (_, i) => ({ id: 100 + i, creator: 5, target: { type: 'idea' as const, id: 1 }, comment: `filler ${i}`, created: at(i) })),
      { id: 1, creator: 4, target: { type: 'idea', id: 1 }, comment: 'Apples for everyone', created: at(30) },
      { id: 2, creator: 5, target: { type: 'idea', id: 1 }, comment: 'Bananas', created: at(31), is_moderator_marked: true },
      { id: 3, creator: 4, target: { type: 'idea', id: 1 }, comment: 'Cherries', created: at(32) },
      { id: 4, creator: 6, target: { type: 'idea', id: 1 }, comment: 'apples, blocked', created: at(33), is_blocked: true },
      { id: 5, creator: 6, target: { type: 'idea', id: 1 }, comment: 'Damsons', created: at(34) },
      { id: 10, creator: 4, target: { type: 'comment', id: 1 }, comment: 'Pears instead', created: at(40) },
      { id: 11, creator: 5, target: { type: 'comment', id: 1 }, comment: 'Agreed', created: at(41) },
      { id: 12, creator: 5, target: { type: 'comment', id: 3 }, comment: 'Later', created: at(42) },
      { id: 13, creator: 5, target: { type: 'comment', id: 100 }, comment: 'An old reply', created: at(35) },
    ],
    ratings: [
      { creator: 3, target: { type: 'comment', id: 2 }, value: 1 },
      { creator: 4, target: { type: 'comment', id: 2 }, value: 1 },
      { creator: 3, target: { type: 'comment', id: 3 }, value: -1 },
      { creator: 4, target: { type: 'comment', id: 5 }, value: 1 },
    ],
  });
  await db.update(comments).set({ commentCategories: 'sug' }).where(eq(comments.id, 1));
  await db.update(comments).set({ commentCategories: 'que,sug' }).where(eq(comments.id, 3));
}
const ids = (page: Page) => page.results.map((c) => c.id);

test('ordering: new, ans, pos, neg, dis and mom as a4 defines them; other values keep newest first', async () => {
  const { get, db } = await setup();
  await threadOf(db);
  const first5 = async (ordering: string) => ids(await get(list(1, `?ordering=${ordering}`))).slice(0, 5);
  assert.deepEqual(await first5('new'), [5, 4, 3, 2, 1]);
  assert.deepEqual(await first5('ans'), [1, 3, 100, 5, 4], 'most answers, then newest');
  assert.deepEqual(await first5('pos'), [2, 5, 4, 3, 1], 'most up votes, then newest');
  assert.deepEqual(await first5('neg'), [3, 5, 4, 2, 1], 'most down votes, then newest');
  assert.deepEqual(await first5('dis'), [3, 1, 100, 5, 4], 'latest reply first; comments without replies after them, newest first');
  assert.deepEqual(await first5('mom'), [2, 5, 4, 3, 1], 'moderator-marked first, then newest');
  assert.deepEqual(await first5('random'), [5, 4, 3, 2, 1]);
});

test('search: text in any case or the exact username, never blocked comments; comment_category', async () => {
  const { get, db } = await setup();
  await threadOf(db);
  assert.deepEqual(ids(await get(list(1, '?search=APPLES'))), [1]);
  assert.equal((await get(list(1, '?search=APPLES'))).count, 1);
  assert.deepEqual(ids(await get(list(1, '?search=other'))), [5], 'the blocked comment of "other" stays hidden');
  assert.deepEqual(ids(await get(list(1, '?search=member&ordering=new'))), [3, 1]);
  assert.deepEqual(ids(await get(list(1, '?comment_category=sug'))), [3, 1]);
  assert.deepEqual(ids(await get(list(1, '?comment_category=que'))), [3]);
  assert.equal((await get(list(1, '?comment_category='))).count, 25, 'an empty category filters nothing');
});

test('commentID: a comment on a later page is found, a reply names its parent, the widget follows next to it', async () => {
  const { get, request, db } = await setup();
  await threadOf(db);
  const first = await get(list(1, '?ordering=new&commentID=101'));
  assert.equal(first.comment_found, true);
  assert.equal(first.comment_parent, undefined);
  assert.ok(!ids(first).includes(101));
  const next = first.next ?? '';
  assert.ok(next.includes('commentID=101') && next.includes('page=2'), next);
  const second = await get(next.slice(next.indexOf('/api/')));
  assert.ok(ids(second).includes(101));

  const reply = await get(list(1, '?commentID=13'));
  assert.deepEqual([reply.comment_found, reply.comment_parent], [true, 100]);
  const filtered = await get(list(1, '?search=apples&commentID=13'));
  assert.deepEqual([filtered.comment_found, filtered.comment_parent], [false, undefined], 'not in the list as filtered');
  assert.equal((await get(list(1, '?commentID=999'))).comment_found, false);
  assert.equal((await get(list(2, '?commentID=1'), 6)).comment_found, false, 'a comment of another thread');
  assert.equal((await get(list(1))).comment_found, undefined);
  const bad = await request({ method: 'GET', url: list(1, '?commentID=abc') });
  assert.equal(bad.status, 400);
});

test("comment_categories as a4 serialises them: key to name in the caller's language, {} when hidden; categories=true names the choices", async () => {
  const { get, request, db } = await setup();
  await threadOf(db);
  await db.update(comments).set({ commentCategories: '[sug,old]' }).where(eq(comments.id, 5));
  await db.update(comments).set({ commentCategories: '[not]', isRemoved: true }).where(eq(comments.id, 2));
  const page = await get(list(1, '?ordering=new'));
  const byId = new Map(page.results.map((c) => [c.id, c.comment_categories]));
  assert.deepEqual(byId.get(3), { que: 'Question', sug: 'Suggestion' });
  assert.deepEqual(byId.get(5), { sug: 'Suggestion', old: 'old' }, 'a key the platform does not offer is named by itself');
  assert.deepEqual(byId.get(2), {}, 'a removed comment shows no categories');
  assert.deepEqual(byId.get(119), {});
  assert.equal(page.categories, undefined, 'only asked for');
  const german = await request({ method: 'GET', url: list(1, '?categories=true'), headers: { 'accept-language': 'de' } });
  const body = german.body as Page;
  assert.deepEqual(body.categories, { sug: 'Vorschlag', not: 'Anmerkung', que: 'Frage' });
  assert.deepEqual(body.results.find((c) => c.id === 1)?.comment_categories, { sug: 'Vorschlag' });
  assert.equal((await get(list(1, '?categories=false'))).categories, undefined);
});
