import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Fixture } from '../../src/cli/fixture-schema.js';
import { basicWorldWith, daysFromNow, load, tokenHeader } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

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
