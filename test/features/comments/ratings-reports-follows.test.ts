import assert from 'node:assert/strict';
import { eq } from 'drizzle-orm';
import { test } from 'node:test';
import type { Fixture } from '../../../src/cli/fixture-schema.js';
import { comments, outbox, ratings } from '../../../src/db/schema/index.js';
import { basicWorldWith, daysFromNow, load, tokenHeader } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';

/** basicWorld with idea 1 (by 4) and comment 1 (by 5, reviewed); project 2 private, project 3 in a rating phase. */
function world(): Fixture {
  return basicWorldWith({
    projects: [
      { id: 2, slug: 'private', name: 'Private', organisation: 1, access: 'PRIVATE', participants: [6] },
      { id: 3, slug: 'rating', name: 'Rating', organisation: 1 },
    ],
    modules: [{ id: 3, project: 3, name: 'Rate', phases: [{ type: 'a4_candy_ideas:rating', start_date: daysFromNow(-1), end_date: daysFromNow(5) }] }],
    ideas: [
      { id: 1, module: 1, creator: 4, name: 'Idea', description: 'An idea', category: 1 },
      { id: 3, module: 3, creator: 4, name: 'Rate me', description: 'x' },
    ],
    comments: [{ id: 1, creator: 5, target: { type: 'idea', id: 1 }, comment: 'a comment', is_reviewed: true }],
  });
}

async function setup() {
  const t = await createTestApp();
  await load(t.db, world());
  return { ...t, as: (userId: number) => tokenHeader(t.db, userId) };
}

const ratingsUrl = (ct: number, pk: number, rest = '') => `/api/contenttypes/${ct}/objects/${pk}/ratings/${rest}`;
type Rating = { id: number; value: number; meta_info: Record<string, number | null> };

test('a rating is created once per user and object, clamped to -1..1, with meta_info', async () => {
  const { request, as, db } = await setup();
  const created = await request({ method: 'POST', url: ratingsUrl(4, 3), headers: await as(5), payload: { value: 5 } });
  assert.equal(created.status, 201);
  const rating = created.body as Rating;
  assert.equal(rating.value, 1);
  assert.deepEqual(rating.meta_info, {
    positive_ratings_on_same_object: 1,
    negative_ratings_on_same_object: 0,
    user_rating_on_same_object_value: 1,
    user_rating_on_same_object_id: rating.id,
  });
  const again = await request({ method: 'POST', url: ratingsUrl(4, 3), headers: await as(5), payload: { value: -1 } });
  assert.equal(again.status, 400);
  assert.deepEqual(again.body, [String(rating.id)], "a4's body: the existing rating's id, which its widget reads to switch to an update");
  assert.equal(again.headers['x-detail'], 'You have already rated this object.');
  const [kept] = await db.select({ value: ratings.value }).from(ratings).where(eq(ratings.id, rating.id));
  assert.equal(kept.value, 1, 'the second POST changed nothing');
  const other = (await request({ method: 'POST', url: ratingsUrl(4, 3), headers: await as(6), payload: { value: -7 } })).body as Rating;
  assert.equal(other.value, -1);
  assert.equal(other.meta_info.positive_ratings_on_same_object, 1);
  assert.equal(other.meta_info.negative_ratings_on_same_object, 1);
});

test('only the owner updates a rating; DELETE sets it to 0 and keeps the row', async () => {
  const { request, as, db } = await setup();
  const rating = (await request({ method: 'POST', url: ratingsUrl(4, 3), headers: await as(5), payload: { value: 1 } })).body as Rating;
  assert.equal((await request({ method: 'PUT', url: ratingsUrl(4, 3, `${rating.id}/`), headers: await as(6), payload: { value: -1 } })).status, 403);
  const put = await request({ method: 'PUT', url: ratingsUrl(4, 3, `${rating.id}/`), headers: await as(5), payload: { value: -1 } });
  assert.equal(put.status, 200);
  assert.equal((put.body as Rating).value, -1);
  const deleted = await request({ method: 'DELETE', url: ratingsUrl(4, 3, `${rating.id}/`), headers: await as(5) });
  assert.equal(deleted.status, 200);
  assert.equal((deleted.body as Rating).value, 0);
  const rows = await db.select().from(ratings);
  assert.equal(rows.length, 1);
  assert.equal(rows[0].value, 0);
  assert.equal((await request({ method: 'PATCH', url: ratingsUrl(4, 1, `${rating.id}/`), headers: await as(5), payload: { value: 1 } })).status, 404, 'rating of another object');
});

test('rating follows the phase: ideas only in rating phases, comments while commenting is open', async () => {
  const { request, as } = await setup();
  assert.equal((await request({ method: 'POST', url: ratingsUrl(4, 1), headers: await as(5), payload: { value: 1 } })).status, 403, 'collect phase has no rating');
  assert.equal((await request({ method: 'POST', url: ratingsUrl(4, 1), headers: await as(3), payload: { value: 1 } })).status, 201, 'moderators may');
  assert.equal((await request({ method: 'POST', url: ratingsUrl(8, 1), headers: await as(6), payload: { value: 1 } })).status, 201);
  assert.equal((await request({ method: 'POST', url: ratingsUrl(4, 3), payload: { value: 1 } })).status, 401);
  assert.equal((await request({ method: 'POST', url: ratingsUrl(1, 1), headers: await as(5), payload: { value: 1 } })).status, 404, 'projects are not rateable');
  assert.equal((await request({ method: 'POST', url: ratingsUrl(4, 3), headers: await as(5), payload: { value: 'x' } })).status, 400);
});

test('reports: 201, a reported comment becomes unread, the moderators are told', async () => {
  const { request, as, db } = await setup();
  const response = await request({ method: 'POST', url: '/api/reports/', headers: await as(6), payload: { content_type: 8, object_pk: 1, description: 'rude' } });
  assert.equal(response.status, 201);
  const body = response.body as Record<string, unknown>;
  assert.equal(body.username, 'other');
  assert.equal(body.description, 'rude');
  const [comment] = await db.select().from(comments).where(eq(comments.id, 1));
  assert.equal(comment.isReviewed, false);
  const mails = await db.select().from(outbox).where(eq(outbox.kind, 'report_to_moderators'));
  assert.deepEqual(mails.map((m) => m.recipient), ['moderator@example.org']);
  assert.match(mails[0].body, /rude/);
  assert.match(mails[0].body, /\?comment=1/);
});

test('reports: anonymous 401, no listing, bad content types and objects are 400', async () => {
  const { request, as } = await setup();
  assert.equal((await request({ method: 'POST', url: '/api/reports/', payload: { content_type: 8, object_pk: 1, description: 'x' } })).status, 401);
  assert.notEqual((await request({ method: 'GET', url: '/api/reports/', headers: await as(5) })).status, 200);
  const h = await as(5);
  assert.ok('content_type' in ((await request({ method: 'POST', url: '/api/reports/', headers: h, payload: { content_type: 1, object_pk: 1, description: 'x' } })).body as object));
  assert.ok('object_pk' in ((await request({ method: 'POST', url: '/api/reports/', headers: h, payload: { content_type: 4, object_pk: 999, description: 'x' } })).body as object));
  assert.ok('description' in ((await request({ method: 'POST', url: '/api/reports/', headers: h, payload: { content_type: 4, object_pk: 1 } })).body as object));
  const idea = await request({ method: 'POST', url: '/api/reports/', headers: h, payload: { content_type: 4, object_pk: 1, description: 'dup' } });
  assert.equal(idea.status, 201);
});

type Follow = { project: string; follows: number; enabled: boolean };

test('follows: own list with the enabled filter; PUT creates, PATCH changes', async () => {
  const { request, as } = await setup();
  assert.equal((await request({ method: 'GET', url: '/api/follows/' })).status, 401);
  const h = await as(5);
  assert.deepEqual(((await request({ method: 'GET', url: '/api/follows/', headers: h })).body as Follow[]).map((f) => f.project), ['project'], 'commenting auto-followed');
  assert.equal((await request({ method: 'PATCH', url: '/api/follows/rating/', headers: h, payload: { enabled: false } })).status, 404, 'PATCH needs an existing follow');
  const put = await request({ method: 'PUT', url: '/api/follows/rating/', headers: h, payload: { enabled: true } });
  assert.equal(put.status, 200);
  assert.deepEqual({ ...(put.body as Follow) }, { ...(put.body as Follow), project: 'rating', follows: 2, enabled: true }, "the idea's creator follows it too");
  const patched = await request({ method: 'PATCH', url: '/api/follows/project/', headers: h, payload: { enabled: false } });
  assert.equal((patched.body as Follow).enabled, false);
  assert.deepEqual(((await request({ method: 'GET', url: '/api/follows/?enabled=true', headers: h })).body as Follow[]).map((f) => f.project), ['rating']);
  assert.deepEqual(((await request({ method: 'GET', url: '/api/follows/?enabled=false', headers: h })).body as Follow[]).map((f) => f.project), ['project']);
  assert.equal(((await request({ method: 'GET', url: '/api/follows/rating/', headers: h })).body as Follow).enabled, true);
  assert.equal((await request({ method: 'GET', url: '/api/follows/nope/', headers: h })).status, 404);
  assert.equal((await request({ method: 'PUT', url: '/api/follows/private/', headers: h, payload: { enabled: true } })).status, 404, 'a private project is not visible');
  assert.equal((await request({ method: 'PUT', url: '/api/follows/rating/', headers: h, payload: {} })).status, 400);
});

test('auto-follow does not re-enable a follow the user disabled', async () => {
  const { request, as } = await setup();
  const h = await as(5);
  await request({ method: 'PATCH', url: '/api/follows/project/', headers: h, payload: { enabled: false } });
  await request({ method: 'POST', url: '/api/contenttypes/4/objects/1/comments/', headers: h, payload: { comment: 'again' } });
  assert.equal(((await request({ method: 'GET', url: '/api/follows/project/', headers: h })).body as Follow).enabled, false);
});

test('simultaneous duplicate ratings and feedback: one succeeds, the others are 400, never 500', async () => {
  const { request, as, db } = await setup();
  const h = await as(5);
  const statuses = await Promise.all(Array.from({ length: 5 }, () => request({ method: 'POST', url: ratingsUrl(4, 3), headers: h, payload: { value: 1 } }).then((r) => r.status)));
  assert.deepEqual(statuses.sort(), [201, 400, 400, 400, 400]);
  assert.equal((await db.select().from(ratings)).length, 1);
  const m = await as(3);
  const feedback = await Promise.all(
    Array.from({ length: 4 }, (_, i) => request({ method: 'POST', url: '/api/comments/1/moderatorfeedback/', headers: m, payload: { feedback_text: `f${i}` } }).then((r) => r.status)),
  );
  assert.deepEqual(feedback.sort(), [201, 400, 400, 400]);
});

test('a bad Bearer token is a 401 with the full JWT error body', async () => {
  const { request } = await setup();
  const response = await request({ method: 'GET', url: '/api/follows/', headers: { authorization: 'Bearer not-a-jwt' } });
  assert.equal(response.status, 401);
  assert.equal((response.body as { code: string }).code, 'token_not_valid');
});
