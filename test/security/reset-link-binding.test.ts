import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Browser, lastMail, linkIn } from '../me/accounts/client.js';
import { basicWorld, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

async function resetLink() {
  const t = await createTestApp();
  await load(t.db, basicWorld());
  const stranger = new Browser(t.app);
  await stranger.get('/accounts/password/reset/');
  await stranger.post('/accounts/password/reset/', { email: 'user@example.org' });
  const link = linkIn((await lastMail(t.db, 'user@example.org'))?.body ?? '', '/accounts/password/reset/key/');
  assert.equal((await stranger.get(link)).status, 200);
  const owner = new Browser(t.app);
  await owner.login('user', 'user-password');
  return { ...t, link, owner, stranger };
}

test('issue 21 finding 11: a reset link dies once the account moves to a new e-mail address', async () => {
  const { db, link, owner, stranger } = await resetLink();
  assert.equal((await owner.postMultipart('/account/', { username: 'user', email: 'moved@example.org', current_password: 'user-password', language: 'en', bio: '' })).status, 302);
  const confirm = linkIn((await lastMail(db, 'moved@example.org'))?.body ?? '', '/accounts/confirm-email/');
  assert.equal((await owner.post(confirm, {})).status, 302);
  assert.equal((await stranger.get(link)).status, 404);
  assert.equal((await stranger.post(link, { password1: 'taken-over-now', password2: 'taken-over-now' })).status, 404);
});

test('issue 21 finding 11: a reset link dies once the password is changed', async () => {
  const { link, owner, stranger } = await resetLink();
  assert.equal((await owner.post('/accounts/password/change/', { oldpassword: 'user-password', password1: 'a-new-long-secret', password2: 'a-new-long-secret' })).status, 200);
  assert.equal((await stranger.post(link, { password1: 'taken-over-now', password2: 'taken-over-now' })).status, 404);
});

test('issue 36 item 7: two posts of one reset link at the same moment change the password once (row lock, PostgreSQL too)', async () => {
  const { app, link, stranger } = await resetLink();
  const other = new Browser(app);
  await other.get(link);
  const answers = await Promise.all([stranger.post(link, { password1: 'first-new-secret', password2: 'first-new-secret' }), other.post(link, { password1: 'second-new-secret', password2: 'second-new-secret' })]);
  assert.deepEqual(answers.map((a) => a.status).sort(), [200, 404], 'the second finds the link spent');
  const winner = answers[0].status === 200 ? 'first-new-secret' : 'second-new-secret';
  assert.equal((await new Browser(app).login('user', winner)).status, 302);
});
