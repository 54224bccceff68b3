import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { socialAccounts, users } from '../../src/db/schema/index.js';
import { Browser } from '../me/accounts/client.js';
import { socialLogin, startTestProvider } from '../me/accounts/oidc-provider.js';
import { basicWorld, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

const provider = await startTestProvider('allmende', 'provider-secret');
after(() => provider.close());

async function world() {
  const t = await createTestApp({ oidcProviders: [{ id: 'testid', name: 'Test ID', issuer: provider.issuer, clientId: 'allmende', clientSecret: 'provider-secret' }] });
  await load(t.db, basicWorld());
  return t;
}

test('issue 21 finding 1: an unconfirmed signup with the victim\'s address is not merged into the victim\'s social login', async () => {
  const { app, db } = await world();
  // The attacker signs up with the victim's address and a password of his own, and never confirms.
  const attacker = new Browser(app);
  await attacker.get('/accounts/signup/');
  const signup = await attacker.post('/accounts/signup/', {
    username: 'squatter', email: 'victim@example.org', password1: 'attacker-secret-1', password2: 'attacker-secret-1', terms_of_use: 'on',
  });
  assert.equal(signup.status, 200);
  const [claim] = await db.select().from(users).where(eq(users.email, 'victim@example.org'));
  assert.equal(claim.emailVerified, false);

  // The victim signs in through the provider, which vouches for the address.
  const victim = new Browser(app);
  const done = await socialLogin(provider, victim, { sub: 'victim-sub', email: 'victim@example.org', email_verified: true, preferred_username: 'victim' });
  assert.equal(done.status, 302);
  const [account] = await db.select().from(users).where(eq(users.email, 'victim@example.org'));
  assert.notEqual(account.id, claim.id, 'a fresh account, not the unconfirmed claim');
  assert.equal(account.username, 'victim');
  assert.equal(account.password, '', 'the attacker\'s password did not come along');
  assert.equal((await db.select().from(users).where(eq(users.id, claim.id))).length, 0, 'the unconfirmed claim is gone');
  const [link] = await db.select().from(socialAccounts).where(eq(socialAccounts.subject, 'victim-sub'));
  assert.equal(link.userId, account.id);

  // The attacker's password opens nothing, by either name.
  assert.equal((await new Browser(app).login('victim@example.org', 'attacker-secret-1')).status, 400);
  assert.equal((await new Browser(app).login('squatter', 'attacker-secret-1')).status, 400);
  assert.equal((await victim.get('/userdashboard/overview/')).status, 200);
});

test('issue 21 finding 1: a confirmed account is still linked by its verified address', async () => {
  const { app, db } = await world();
  const [before] = await db.select().from(users).where(eq(users.username, 'user'));
  await socialLogin(provider, new Browser(app), { sub: 'user-sub', email: 'user@example.org', email_verified: true });
  const [link] = await db.select().from(socialAccounts).where(eq(socialAccounts.subject, 'user-sub'));
  assert.equal(link.userId, before.id);
});
