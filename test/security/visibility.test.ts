import assert from 'node:assert/strict';
import { eq } from 'drizzle-orm';
import { test } from 'node:test';
import type { Fixture } from '../../src/cli/fixture-schema.js';
import { comments, projects } from '../../src/db/schema/index.js';
import { basicWorldWith, load, tokenHeader } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

/** basicWorld (1 admin, 3 moderator, 5 user, 6 other) plus public projects 2 and 3, private project 4 with participant 6, idea 1 with comments. */
function world(): Fixture {
  return basicWorldWith({
    projects: [
      { id: 2, slug: 'turns-private', name: 'Turns private', organisation: 1 },
      { id: 3, slug: 'turns-draft', name: 'Turns draft', organisation: 1 },
      { id: 4, slug: 'private', name: 'Private', organisation: 1, access: 'PRIVATE', participants: [6] },
    ],
    ideas: [{ id: 1, module: 1, creator: 4, name: 'Idea', description: 'An idea' }],
    comments: [
      { id: 1, creator: 6, target: { type: 'idea', id: 1 }, comment: 'removed by its author', is_removed: true },
      { id: 2, creator: 6, target: { type: 'idea', id: 1 }, comment: 'censored by a moderator', is_censored: true },
      { id: 3, creator: 6, target: { type: 'idea', id: 1 }, comment: 'still there' },
    ],
  });
}

test('GET /api/follows/ lists only projects the user may still see (made private or draft after following: gone)', async () => {
  const t = await createTestApp();
  await load(t.db, world());
  const user = await tokenHeader(t.db, 5);
  const participant = await tokenHeader(t.db, 6);
  for (const slug of ['project', 'turns-private', 'turns-draft']) assert.equal((await t.request({ method: 'PUT', url: `/api/follows/${slug}/`, headers: user, payload: { enabled: true } })).status, 200);
  assert.equal((await t.request({ method: 'PUT', url: '/api/follows/private/', headers: participant, payload: { enabled: true } })).status, 200);
  await t.db.update(projects).set({ access: 'PRIVATE' }).where(eq(projects.slug, 'turns-private'));
  await t.db.update(projects).set({ isDraft: true }).where(eq(projects.slug, 'turns-draft'));
  const slugs = async (headers: Record<string, string>, query = '') => ((await t.request({ method: 'GET', url: `/api/follows/${query}`, headers })).body as { project: string }[]).map((f) => f.project);
  assert.deepEqual(await slugs(user), ['project']);
  assert.deepEqual(await slugs(user, '?enabled=true'), ['project']);
  assert.deepEqual(await slugs(participant), ['project', 'private'], 'a participant still sees the private project he follows (and the one he commented in)');
  assert.equal((await t.request({ method: 'GET', url: '/api/follows/turns-private/', headers: user })).status, 404, 'the same rule as the single follow');
});

test('a removed or censored comment cannot be rated through the API (has_rating_permission false), nor an existing rating on it changed', async () => {
  const t = await createTestApp();
  await load(t.db, world());
  const user = await tokenHeader(t.db, 5);
  const moderator = await tokenHeader(t.db, 3);
  const rate = (id: number, headers: Record<string, string>) => t.request({ method: 'POST', url: `/api/contenttypes/8/objects/${id}/ratings/`, headers, payload: { value: 1 } });
  const list = (await t.request({ method: 'GET', url: '/api/contenttypes/4/objects/1/comments/', headers: user })).body as { results: { id: number; user_info: { has_rating_permission: boolean } }[] };
  assert.deepEqual(
    list.results.map((c) => [c.id, c.user_info.has_rating_permission]).sort(),
    [
      [1, false],
      [2, false],
      [3, true],
    ],
  );
  for (const id of [1, 2]) {
    assert.equal((await rate(id, user)).status, 403, `comment ${id}`);
    assert.equal((await rate(id, moderator)).status, 403, `comment ${id}, not even a moderator`);
  }
  const rated = await rate(3, user);
  assert.equal(rated.status, 201);
  const ratingId = (rated.body as { id: number }).id;
  await t.db.update(comments).set({ isRemoved: true }).where(eq(comments.id, 3));
  assert.equal((await t.request({ method: 'PATCH', url: `/api/contenttypes/8/objects/3/ratings/${ratingId}/`, headers: user, payload: { value: -1 } })).status, 403);
  assert.equal((await t.request({ method: 'DELETE', url: `/api/contenttypes/8/objects/3/ratings/${ratingId}/`, headers: user })).status, 403);
});
