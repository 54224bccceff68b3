import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { socialAccounts, users } from '../../../src/db/schema/index.js';
import { basicWorld, load } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { Browser } from './client.js';
import { socialLogin as socialLoginAt, startTestProvider, type TestIdentity } from './oidc-provider.js';

const provider = await startTestProvider('allmende', 'provider-secret');
after(() => provider.close());

async function world() {
  const t = await createTestApp({ oidcProviders: [{ id: 'testid', name: 'Test ID', issuer: provider.issuer, clientId: 'allmende', clientSecret: 'provider-secret' }] });
  await load(t.db, basicWorld());
  return t;
}

const socialLogin = (browser: Browser, identity: TestIdentity) => socialLoginAt(provider, browser, identity);

test('the login page offers the configured provider', async () => {
  const { app } = await world();
  const page = await new Browser(app).get('/accounts/login/');
  assert.match(page.text, /href="\/accounts\/oidc\/testid\/login\/">Test ID</);
});

test('a new person signs in through the provider and gets an account without a password', async () => {
  const { app, db } = await world();
  const browser = new Browser(app);
  const done = await socialLogin(browser, { sub: 'abc-1', email: 'Newcomer@example.org', email_verified: true, preferred_username: 'newcomer' });
  assert.equal(done.status, 302);
  assert.equal(done.location, '/account/');
  assert.equal((await browser.get('/userdashboard/overview/')).status, 200);
  const [user] = await db.select().from(users).where(eq(users.username, 'newcomer'));
  assert.equal(user.emailVerified, true);
  assert.equal(user.password, '');
  const [link] = await db.select().from(socialAccounts).where(eq(socialAccounts.userId, user.id));
  assert.deepEqual([link.provider, link.subject], ['testid', 'abc-1']);
  // The second time the same subject finds the same account.
  const again = new Browser(app);
  await socialLogin(again, { sub: 'abc-1', email: 'changed@example.org', preferred_username: 'other-name' });
  assert.equal((await db.select().from(users)).length, 7);
  // A password login for the passwordless account fails.
  assert.equal((await new Browser(app).login('newcomer', 'anything-at-all')).status, 400);
});

test('a verified e-mail links the provider to the existing account; a taken username gets a number', async () => {
  const { app, db } = await world();
  const browser = new Browser(app);
  await socialLogin(browser, { sub: 'xyz', email: 'USER@example.org', email_verified: true, preferred_username: 'someone' });
  const overview = await browser.get('/userdashboard/overview/');
  assert.match(overview.text, /<strong>user<\/strong>/);
  const fresh = new Browser(app);
  await socialLogin(fresh, { sub: 'new-2', email: 'fresh@example.org', email_verified: false, preferred_username: 'admin' });
  const [made] = await db.select().from(users).where(eq(users.email, 'fresh@example.org'));
  assert.equal(made.username, 'admin2');
});

test('an unverified e-mail of an existing account is not taken over', async () => {
  const { app, db } = await world();
  const response = await socialLogin(new Browser(app), { sub: 'evil', email: 'user@example.org', email_verified: false, preferred_username: 'evil' });
  assert.equal(response.status, 400);
  assert.match(response.text, /already exists/);
  assert.equal((await db.select().from(socialAccounts)).length, 0);
});

test('a callback without the login cookie or with a wrong state is refused', async () => {
  const { app } = await world();
  const browser = new Browser(app);
  provider.signIn({ sub: 'abc', email: 'a@example.org', email_verified: true });
  const start = await browser.get('/accounts/oidc/testid/login/');
  const authorize = await fetch(String(start.location), { redirect: 'manual' });
  const callback = new URL(String(authorize.headers.get('location')));
  const stranger = await new Browser(app).get(`${callback.pathname}${callback.search}`);
  assert.equal(stranger.status, 400);
  callback.searchParams.set('state', 'forged');
  const forged = await browser.get(`${callback.pathname}${callback.search}`);
  assert.equal(forged.status, 400);
  assert.equal(browser.cookies.has('sessionid'), false);
  assert.equal((await browser.get('/accounts/oidc/unknown/login/')).status, 404);
});

test('an account made through social login sets a password and deletes itself without an old one', async () => {
  const { app, db } = await world();
  const browser = new Browser(app);
  await socialLogin(browser, { sub: 'solo', email: 'solo@example.org', email_verified: true, preferred_username: 'solo' });
  const form = await browser.get('/accounts/password/change/');
  assert.doesNotMatch(form.text, /name="oldpassword"/);
  const set = await browser.post('/accounts/password/change/', { password1: 'my-first-password', password2: 'my-first-password' });
  assert.equal(set.status, 200);
  assert.equal((await new Browser(app).login('solo1', 'my-first-password')).status, 302, 'a suggestion shorter than 5 characters gets a number (issue 36.8)');
  await db.update(users).set({ password: '' }).where(eq(users.username, 'solo1'));
  const deleted = await browser.post('/account/account_deletion/', {});
  assert.equal(deleted.status, 200);
  assert.equal((await db.select().from(users).where(eq(users.username, 'solo1'))).length, 0);
});
