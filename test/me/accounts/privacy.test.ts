import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { outbox } from '../../../src/db/schema/index.js';
import { basicWorld, load, tokenHeader } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { Browser, lastMail, linkIn } from './client.js';

/** basicWorld plus content of "user" (5) and "other" (6) that hangs together. */
async function world() {
  const t = await createTestApp();
  const fixture = basicWorld();
  await load(t.db, {
    ...fixture,
    ideas: [
      { id: 1, module: 1, creator: 5, name: 'Nobody answered', description: '<p>alone</p>' },
      { id: 2, module: 1, creator: 5, name: 'Discussed idea', description: '<p>talked about</p>' },
      { id: 3, module: 1, creator: 6, name: 'Idea of other', description: '<p>other</p>' },
    ],
    comments: [
      { id: 1, creator: 5, target: { type: 'idea', id: 3 }, comment: 'comment of user' },
      { id: 2, creator: 6, target: { type: 'comment', id: 1 }, comment: 'reply of other' },
      { id: 3, creator: 6, target: { type: 'idea', id: 2 }, comment: 'other on the idea of user' },
      { id: 4, creator: 3, target: { type: 'idea', id: 3 }, comment: 'comment of the moderator' },
    ],
    comment_feedback: [{ comment: 3, creator: 3, feedback_text: '<p>Thanks, noted.</p>' }],
    ratings: [{ creator: 5, target: { type: 'idea', id: 3 }, value: 1 }],
  });
  return t;
}

interface ListedComment {
  id: number;
  comment: string;
  is_deleted: boolean;
  user_name: string;
  moderator_feedback: { feedback_text: string } | null;
  child_comments: { id: number; comment: string; user_name: string }[];
}

async function commentsOn(t: Awaited<ReturnType<typeof world>>, ideaId: number): Promise<ListedComment[]> {
  const response = await t.request({ method: 'GET', url: `/api/contenttypes/4/objects/${ideaId}/comments/` });
  assert.equal(response.status, 200);
  return (response.body as { results: ListedComment[] }).results;
}

async function deleteAccountOf(t: Awaited<ReturnType<typeof world>>, username: string) {
  const browser = new Browser(t.app);
  await browser.login(username, `${username}-password`);
  const deleted = await browser.post('/account/account_deletion/', { password: `${username}-password` });
  assert.equal(deleted.status, 200);
}

test("deleting an account keeps other users' replies to its comments; its comments show as deleted", async () => {
  const t = await world();
  await deleteAccountOf(t, 'user');
  const thread = await commentsOn(t, 3);
  const gone = thread.find((c) => c.id === 1);
  assert.ok(gone, 'the comment that others replied to is still in the thread');
  assert.equal(gone.is_deleted, true);
  assert.equal(gone.comment, '');
  assert.deepEqual(
    gone.child_comments.map((r) => [r.id, r.comment, r.user_name]),
    [[2, 'reply of other', 'other']],
  );
  assert.ok(thread.some((c) => c.id === 4 && c.comment === 'comment of the moderator'));
});

test('deleting an account deletes its undiscussed ideas and keeps discussed ones without its name', async () => {
  const t = await world();
  await deleteAccountOf(t, 'user');
  const admin = await tokenHeader(t.db, 1);
  assert.equal((await t.request({ method: 'GET', url: '/api/modules/1/ideas/1/', headers: admin })).status, 404);
  const kept = await t.request({ method: 'GET', url: '/api/modules/1/ideas/2/', headers: admin });
  assert.equal(kept.status, 200);
  assert.notEqual((kept.body as { creator: string }).creator, 'user');
  const thread = await commentsOn(t, 2);
  assert.deepEqual(thread.map((c) => [c.id, c.comment]), [[3, 'other on the idea of user']]);
  // The user's rating went with the account.
  const other = await t.request({ method: 'GET', url: '/api/modules/1/ideas/3/', headers: admin });
  assert.equal((other.body as { positive_rating_count: number }).positive_rating_count, 0);
});

test("deleting a moderator's account keeps the feedback given on other users' comments", async () => {
  const t = await world();
  await deleteAccountOf(t, 'moderator');
  const [comment] = await commentsOn(t, 2);
  assert.equal(comment.moderator_feedback?.feedback_text, '<p>Thanks, noted.</p>');
  const own = (await commentsOn(t, 3)).find((c) => c.id === 4);
  assert.equal(own?.is_deleted, true);
});

test('notices go only to a confirmed address: the old one until the new one is confirmed', async () => {
  const t = await world();
  const other = new Browser(t.app);
  await other.login('other', 'other-password');
  const saved = await other.post('/account/', { username: 'other', email: 'new-other@example.org', current_password: 'other-password', language: 'en', bio: '' });
  assert.equal(saved.status, 302);
  const user = await tokenHeader(t.db, 5);
  const comment = (text: string) => t.request({ method: 'POST', url: '/api/contenttypes/4/objects/3/comments/', headers: user, payload: { comment: text } });
  assert.equal((await comment('while unconfirmed')).status, 201);
  const noticesTo = async (address: string) => (await t.db.select().from(outbox).where(eq(outbox.recipient, address))).filter((m) => m.kind === 'comment_on_content');
  assert.equal((await noticesTo('new-other@example.org')).length, 0);
  assert.equal((await noticesTo('other@example.org')).length, 1, 'the confirmed address is still the account\'s');

  const confirmation = await lastMail(t.db, 'new-other@example.org');
  assert.ok(confirmation);
  const link = linkIn(confirmation.body, '/accounts/confirm-email/');
  assert.equal((await other.post(link, {})).status, 302);
  assert.equal((await comment('after confirming')).status, 201);
  const notices = await noticesTo('new-other@example.org');
  assert.equal(notices.length, 1);
  assert.match(notices[0].body, /after confirming/);
});
