import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Browser } from '../me/accounts/client.js';
import { basicWorld, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

async function world(loginFailureLimit: number) {
  const t = await createTestApp({ loginFailureLimit });
  await load(t.db, basicWorld());
  return t;
}

const apiLogin = (t: Awaited<ReturnType<typeof world>>, username: string, password: string, ip: string) =>
  t.request({ method: 'POST', url: '/api/token/', payload: { username, password }, remoteAddress: ip });

test('F10: username, e-mail address and their spellings share one per-account limit', async () => {
  const t = await world(4);
  const spellings = ['user', 'USER@example.org', ' User ', 'user@EXAMPLE.org'];
  for (const [i, login] of spellings.entries()) assert.equal((await apiLogin(t, login, 'wrong', `203.0.113.${i + 1}`)).status, 401, login);
  const after = await apiLogin(t, 'user', 'user-password', '203.0.113.100');
  assert.equal(after.status, 429, 'the fifth attempt on the same account is over the limit, whatever name it used');
  assert.ok(Number(after.headers['retry-after']) > 0);
  assert.equal((await new Browser(t.app, {}).login('User@Example.org', 'user-password')).status, 429, 'the login form counts the same');
  assert.equal((await apiLogin(t, 'other', 'other-password', '203.0.113.100')).status, 200, 'other accounts go on');
});

test('F10: unknown names are limited too, by the name as typed in any case', async () => {
  const t = await world(2);
  assert.equal((await apiLogin(t, 'nobody', 'x', '203.0.113.1')).status, 401);
  assert.equal((await apiLogin(t, 'NOBODY', 'x', '203.0.113.2')).status, 401);
  assert.equal((await apiLogin(t, 'Nobody', 'x', '203.0.113.3')).status, 429);
});

test('F11: the current-password check of a password change is throttled with the login limiter', async () => {
  const t = await world(3);
  const browser = new Browser(t.app);
  await browser.login('user', 'user-password');
  const change = (oldpassword: string) => browser.post('/accounts/password/change/', { oldpassword, password1: 'a-new-long-secret', password2: 'a-new-long-secret' });
  for (let i = 0; i < 3; i++) assert.equal((await change(`guess-${i}`)).status, 400);
  const throttled = await change('user-password');
  assert.equal(throttled.status, 429, 'even the right password waits once the limit is used up');
  assert.ok(Number(throttled.headers['retry-after']) > 0);
  assert.equal((await apiLogin(t, 'user@example.org', 'user-password', '198.51.100.9')).status, 429, 'the same account limit as logins');
});

test('F11: the password check of the account deletion is throttled too', async () => {
  const t = await world(2);
  const browser = new Browser(t.app);
  await browser.login('user', 'user-password');
  for (let i = 0; i < 2; i++) assert.equal((await browser.post('/account/account_deletion/', { password: `guess-${i}` })).status, 400);
  assert.equal((await browser.post('/account/account_deletion/', { password: 'user-password' })).status, 429);
  assert.equal((await apiLogin(t, 'user', 'user-password', '198.51.100.9')).status, 429);
});

test('F11: the current-password check of an e-mail change is throttled too', async () => {
  const t = await world(2);
  const browser = new Browser(t.app);
  await browser.login('user', 'user-password');
  const change = (current_password: string) => browser.postMultipart('/account/', { username: 'user', email: 'elsewhere@example.org', current_password, language: 'en', bio: '' });
  for (let i = 0; i < 2; i++) assert.equal((await change(`guess-${i}`)).status, 400);
  assert.equal((await change('user-password')).status, 429, 'even the right password waits once the limit is used up');
  assert.equal((await apiLogin(t, 'user', 'user-password', '198.51.100.9')).status, 429, 'the same account limit as logins');
});
