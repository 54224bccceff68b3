import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema/index.js';
import { Browser } from '../me/accounts/client.js';
import { basicWorld, load, tokenHeader } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

/** Issue 36.8: a new username has at least 5 characters, as adhocracy+ asks; an account keeps a shorter name it has. */
const TOO_SHORT = 'Ensure this value has at least 5 characters.';

async function world() {
  const t = await createTestApp();
  await load(t.db, basicWorld());
  return t;
}

test('sign-up refuses a username of fewer than 5 characters and stores nothing', async () => {
  const { app, db } = await world();
  const browser = new Browser(app);
  const fields = { username: 'abcd', email: 'abcd@example.org', password1: 'a-long-secret', password2: 'a-long-secret', terms_of_use: 'on' };
  const refused = await browser.post('/accounts/signup/', fields);
  assert.equal(refused.status, 400);
  assert.match(refused.text, new RegExp(TOO_SHORT));
  assert.equal((await db.select().from(users).where(eq(users.email, 'abcd@example.org'))).length, 0);
  assert.equal((await browser.post('/accounts/signup/', { ...fields, username: 'abcde' })).status, 200, 'five are enough');
});

test('the account API and the settings refuse a new short name, and keep an existing one', async () => {
  const { request, app, db } = await world();
  const auth = await tokenHeader(db, 5); // "user": 4 characters, from before the rule
  const short = await request({ method: 'PUT', url: '/api/account/', headers: auth, payload: { username: 'usr' } });
  assert.equal(short.status, 400);
  assert.deepEqual(short.body, { username: [TOO_SHORT] });
  const kept = await request({ method: 'PUT', url: '/api/account/', headers: auth, payload: { username: 'user', language: 'de' } });
  assert.equal(kept.status, 200, 'an unchanged name stays valid');
  const german = await request({ method: 'PUT', url: '/api/account/', headers: { ...auth, 'accept-language': 'de' }, payload: { username: 'ab' } });
  assert.deepEqual(german.body, { username: ['Dieser Wert muss mindestens 5 Zeichen enthalten.'] });
  const browser = new Browser(app);
  await browser.login('user', 'user-password');
  const saved = await browser.postMultipart('/account/', { username: 'user', email: 'user@example.org', language: 'en', bio: '' });
  assert.equal(saved.status, 302, 'the settings form saves with the old short name');
  const refused = await browser.postMultipart('/account/', { username: 'bob', email: 'user@example.org', language: 'en', bio: '' });
  assert.equal(refused.status, 400);
  assert.match(refused.text, new RegExp(TOO_SHORT));
  assert.equal((await db.select().from(users).where(eq(users.id, 5)))[0].username, 'user');
});
