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
