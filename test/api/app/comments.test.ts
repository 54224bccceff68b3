import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertDrawablePng, assertEach, assertShape, type Json, logIn } from './client.js';
import { Comment, CommentPage, Rating, Reply, Report } from './shapes.js';
import { appWorldApp } from './world.js';

const world = appWorldApp();
const IDEA_COMMENTS = '/api/contenttypes/4/objects/1/comments/';
/** The fields of `user_info` the app's comment menu reads (the web widget's further fields are a4's; the app ignores them). */
const appMenu = (info: unknown) => {
  const { has_rating_permission, has_changing_permission, has_deleting_permission, is_users_own_comment } = info as Record<string, unknown>;
  return { has_rating_permission, has_changing_permission, has_deleting_permission, is_users_own_comment };
};

/** The comment list of idea 1 as a user sees it, found by id (replies too). */
async function findComment(client: Awaited<ReturnType<typeof logIn>>, id: number): Promise<Json> {
  const page = (await client.get(IDEA_COMMENTS)).body as { results: Json[] };
  const all = page.results.flatMap((c) => [c, ...(c.child_comments as Json[])]);
  const found = all.find((c) => c.id === id);
  assert.ok(found, `comment ${id} listed`);
  return found;
}

test('comment list: every field with replies, the comment content type and the menu for the caller', async () => {
  const t = await world;
  const alice = await logIn(t, 'alice', 'alice-password');
  const idea = (await alice.get('/api/modules/1/ideas/1/')).body as Json;
  const response = await alice.get(`/api/contenttypes/${String(idea.content_type)}/objects/${String(idea.pk)}/comments/`);
  assert.equal(response.status, 200);
  assertShape(response.body, CommentPage, 'comments');
  const page = response.body as { results: Json[]; comment_count: number };
  assertEach(page.results, Comment, 'comments');
  assert.equal(page.comment_count, 2);
  const [comment] = page.results;
  const [reply] = comment.child_comments as Json[];
  assertShape(reply, Reply, 'reply');
  const types = (await alice.get('/api/contenttypes/')).body as { id: number; model: string }[];
  assert.equal(comment.comment_content_type, types.find((ct) => ct.model === 'comment')?.id);
  assert.equal(reply.comment_content_type, comment.comment_content_type);
  assert.deepEqual(appMenu(comment.user_info), { has_rating_permission: true, has_changing_permission: false, has_deleting_permission: false, is_users_own_comment: false }, 'bob\'s comment, seen by alice');
  assert.deepEqual(appMenu(reply.user_info), { has_rating_permission: true, has_changing_permission: true, has_deleting_permission: true, is_users_own_comment: true }, 'her own reply');
  await assertDrawablePng(alice, comment.user_image_fallback);
  await assertDrawablePng(alice, comment.user_image);
  const mona = await logIn(t, 'mona', 'mona-password');
  const moderated = await findComment(mona, 1);
  assert.deepEqual(appMenu(moderated.user_info), { has_rating_permission: true, has_changing_permission: false, has_deleting_permission: true, is_users_own_comment: false }, 'a moderator may delete, not edit');
  const anonymous = (await t.request({ method: 'GET', url: IDEA_COMMENTS, headers: { accept: 'application/json', 'content-type': 'application/json' } })).body as { results: Json[] };
  assert.deepEqual(appMenu(anonymous.results[0].user_info), { has_rating_permission: false, has_changing_permission: false, has_deleting_permission: false, is_users_own_comment: false });
});

test('write a comment and reply to it through the comment\'s own content type', async () => {
  const bob = await logIn(await world, 'bob', 'bob-password');
  const created = await bob.send('POST', IDEA_COMMENTS, { comment: 'Auch abends' });
  assert.equal(created.status, 201, created.text);
  assertShape(created.body, Comment, 'new comment');
  const comment = created.body as Json;
  assert.equal((comment.user_info as Json).is_users_own_comment, true);
  const alice = await logIn(await world, 'alice', 'alice-password');
  const reply = await alice.send('POST', `/api/contenttypes/${String(comment.comment_content_type)}/objects/${String(comment.id)}/comments`, { comment: 'Ja!' });
  assert.equal(reply.status, 201, reply.text);
  assertShape(reply.body, Comment, 'new reply');
  const listed = await findComment(bob, comment.id as number);
  assert.deepEqual((listed.child_comments as Json[]).map((c) => c.comment), ['Ja!']);
  // Threads are two levels deep: the reply itself cannot be answered (the rule the reply form asks too).
  const deeper = await bob.send('POST', `/api/contenttypes/${String(comment.comment_content_type)}/objects/${String((reply.body as Json).id)}/comments/`, { comment: 'Nein' });
  assert.equal(deeper.status, 400, deeper.text);
  assert.deepEqual(deeper.body, { detail: 'A reply can only be given to a comment, not to another reply.' });
});

test('a comment deleted by its creator or by a moderator cannot be answered; nothing is stored', async () => {
  const t = await world;
  const bob = await logIn(t, 'bob', 'bob-password');
  const mona = await logIn(t, 'mona', 'mona-password');
  const alice = await logIn(t, 'alice', 'alice-password');
  for (const [deleter, flag] of [[bob, 'is_removed'], [mona, 'is_censored']] as const) {
    const created = (await bob.send('POST', IDEA_COMMENTS, { comment: 'Gleich weg' })).body as Json;
    assert.equal((await deleter.delete(`${IDEA_COMMENTS}${String(created.id)}/`)).status, 200);
    assert.equal((await findComment(alice, created.id as number))[flag], true);
    const answer = await alice.send('POST', `/api/contenttypes/${String(created.comment_content_type)}/objects/${String(created.id)}/comments/`, { comment: 'Zu spät' });
    assert.equal(answer.status, 400, answer.text);
    assert.deepEqual(answer.body, { detail: 'A deleted comment cannot be answered.' });
    assert.deepEqual((await findComment(alice, created.id as number)).child_comments, [], `no reply stored under a comment with ${flag}`);
  }
});

test('comment rating: up, change, take back, through the comment content type', async () => {
  const alice = await logIn(await world, 'alice', 'alice-password');
  const comment = await findComment(alice, 1);
  const ratings = `/api/contenttypes/${String(comment.comment_content_type)}/objects/${String(comment.id)}/ratings/`;
  const created = await alice.send('POST', ratings, { value: 1 });
  assert.equal(created.status, 201, created.text);
  assertShape(created.body, Rating, 'comment rating');
  const id = (created.body as Json).id as number;
  assert.deepEqual((await findComment(alice, 1)).ratings, { positive_ratings: 1, negative_ratings: 0, current_user_rating_value: 1, current_user_rating_id: id });
  const changed = await alice.send('PUT', `${ratings}${id}`, { value: -1 });
  assert.equal(changed.status, 200, changed.text);
  assert.equal((await alice.delete(`${ratings}${id}/`)).status, 200);
  assert.equal(((await findComment(alice, 1)).ratings as Json).current_user_rating_value, 0);
});

test('comment edit and delete from the comment menu; a deleted comment says so with its date', async () => {
  const t = await world;
  const alice = await logIn(t, 'alice', 'alice-password');
  const reply = await findComment(alice, 2);
  // The app addresses a reply under its parent (content_type and object_pk of the reply itself).
  const path = `/api/contenttypes/${String(reply.content_type)}/objects/${String(reply.object_pk)}/comments/${String(reply.id)}/`;
  const edited = await alice.send('PATCH', path, { comment: 'Stimmt, gegen halb acht' });
  assert.equal(edited.status, 200, edited.text);
  assertShape(edited.body, Comment, 'edited reply');
  assert.equal((edited.body as Json).comment, 'Stimmt, gegen halb acht');
  assert.equal(typeof (edited.body as Json).modified, 'string');
  const bob = await logIn(t, 'bob', 'bob-password');
  assert.equal((await bob.send('PATCH', path, { comment: 'Fremd' })).status, 403);
  assert.equal((await bob.delete(path)).status, 403);
  const deleted = await alice.delete(path);
  assert.equal(deleted.status, 200, deleted.text);
  assertShape(deleted.body, Comment, 'deleted reply');
  const gone = await findComment(alice, 2);
  assert.equal(gone.is_removed, true);
  assert.equal(typeof gone.modified, 'string', 'the app shows "deleted by creator on <modified>"');
  assert.equal(gone.comment, '');
  assert.deepEqual(appMenu(gone.user_info), { has_rating_permission: false, has_changing_permission: false, has_deleting_permission: false, is_users_own_comment: true });
  // The same comment under the idea's path (how the app addresses top-level comments).
  const created = (await bob.send('POST', IDEA_COMMENTS, { comment: 'Weg damit' })).body as Json;
  const own = `${IDEA_COMMENTS}${String(created.id)}`;
  assert.equal((await bob.delete(own)).status, 200);
  assert.equal((await findComment(bob, created.id as number)).is_removed, true);
});

test('report a comment, a reply and an idea with the content types from their JSON', async () => {
  const alice = await logIn(await world, 'alice', 'alice-password');
  const comment = await findComment(alice, 1);
  const idea = (await alice.get('/api/modules/1/ideas/1/')).body as Json;
  const targets = [
    { content_type: comment.comment_content_type, object_pk: comment.id },
    { content_type: idea.content_type, object_pk: idea.pk },
  ];
  const bob = await logIn(await world, 'bob', 'bob-password');
  const reply = ((await bob.send('POST', `/api/contenttypes/${String(comment.comment_content_type)}/objects/${String(comment.id)}/comments/`, { comment: 'Werbung!' })).body as Json);
  targets.push({ content_type: reply.comment_content_type, object_pk: reply.id });
  for (const target of targets) {
    const response = await alice.send('POST', '/api/reports', { ...target, description: 'Beleidigend' });
    assert.equal(response.status, 201, response.text);
    assertShape(response.body, Report, 'report');
    assert.equal((response.body as Json).username, 'alice');
  }
});
