import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Browser } from '../me/accounts/client.js';
import { basicWorld, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

const formToken = (html: string) => /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(html)?.[1];

test('the csrftoken is replaced at login and at logout, and the pages after it keep working', async () => {
  const { app } = await createTestApp();
  await load(app.ctx.db, basicWorld());
  const browser = new Browser(app);
  await browser.get('/accounts/login/');
  const before = browser.csrf;
  assert.ok(before);
  const login = await browser.post('/accounts/login/', { login: 'user', password: 'user-password' });
  assert.equal(login.status, 302);
  const afterLogin = browser.csrf;
  assert.ok(afterLogin && afterLogin !== before, 'a new token at login');

  // The token known before the login no longer passes.
  const stale = await browser.post('/i18n/setlang/', { csrfmiddlewaretoken: before, language: 'de', next: '/account/' }, false);
  assert.equal(stale.status, 403);
  // Pages render the new token in their forms, and those forms work.
  const settings = await browser.get('/account/');
  assert.equal(settings.status, 200);
  assert.equal(formToken(settings.text), afterLogin);
  assert.equal((await browser.post('/i18n/setlang/', { language: 'de', next: '/account/' })).status, 302);

  const logout = await browser.post('/accounts/logout/', {});
  assert.equal(logout.status, 302);
  assert.ok(browser.csrf && browser.csrf !== afterLogin, 'a new token at logout');
  const loginPage = await browser.get('/accounts/login/');
  assert.equal(formToken(loginPage.text), browser.csrf);
  assert.equal((await browser.post('/accounts/login/', { login: 'user', password: 'user-password' })).status, 302);
});

test('after a password change the page shown carries the new session\'s token', async () => {
  const { app } = await createTestApp();
  await load(app.ctx.db, basicWorld());
  const browser = new Browser(app);
  await browser.login('user', 'user-password');
  const before = browser.csrf;
  const changed = await browser.post('/accounts/password/change/', { oldpassword: 'user-password', password1: 'a-new-long-secret', password2: 'a-new-long-secret' });
  assert.equal(changed.status, 200);
  assert.notEqual(browser.csrf, before);
  assert.equal(formToken(changed.text), browser.csrf);
});
