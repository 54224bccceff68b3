import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { apiTokens, browserSessions, users } from '../../../src/db/schema/index.js';
import { deactivateUser, setPassword } from '../../../src/core/users/credentials.js';
import { createBrowserSession } from '../../../src/http/session.js';
import { load } from '../../fixtures.js';
import { createTestApp, type TestApp } from '../../helpers.js';
import { authWorld, form, json } from './world.js';

async function world(): Promise<TestApp> {
  const t = await createTestApp();
  await load(t.db, authWorld());
  return t;
}

async function apiLogin(t: TestApp, username: string, password: string, url = '/api/login/') {
  return t.request({ method: 'POST', url, ...form({ username, password }) });
}

async function tokenOf(t: TestApp, username = 'alice', password = 'alice-password'): Promise<string> {
  const response = await apiLogin(t, username, password);
  assert.equal(response.status, 200, response.text);
  return (response.body as { token: string }).token;
}

async function jwtOf(t: TestApp, username: string, password: string): Promise<string> {
  const response = await t.request({ method: 'POST', url: '/api/token/', ...json({ username, password }) });
  assert.equal(response.status, 200, response.text);
  return (response.body as { access: string }).access;
}

/** The CSRF token a page hands out (signed with the app's secret, so made-up values do not pass). */
async function csrfToken(t: TestApp): Promise<string> {
  const page = await t.request({ method: 'GET', url: '/accounts/login/' });
  return /csrftoken=([^;]+)/.exec(String(page.headers['set-cookie']))?.[1] ?? '';
}
async function sessionCookie(t: TestApp, userId: number): Promise<Record<string, string>> {
  return { sessionid: await createBrowserSession(t.db, userId), csrftoken: await csrfToken(t) };
}

const account = (t: TestApp, headers: Record<string, string> = {}, cookies: Record<string, string> = {}) =>
  t.request({ method: 'GET', url: '/api/account/', headers, cookies });
const usernameOf = (response: { body: unknown }) => (response.body as { username: string }).username;

test('POST /api/login/ with a form gives one persistent 40-hex key per user', async () => {
  const t = await world();
  const first = await tokenOf(t);
  assert.match(first, /^[0-9a-f]{40}$/);
  assert.equal(await tokenOf(t), first, 'the same key again');
  const other = await tokenOf(t, 'bob', 'bob-password');
  assert.notEqual(other, first);
  const response = await account(t, { authorization: `Token ${first}` });
  assert.equal(response.status, 200);
  assert.equal(usernameOf(response), 'alice');
});

test('/api/login (no slash) and a JSON body work as well; the e-mail may be the username', async () => {
  const t = await world();
  const key = await tokenOf(t);
  const noSlash = await apiLogin(t, 'alice', 'alice-password', '/api/login');
  assert.equal(noSlash.status, 200);
  assert.deepEqual(noSlash.body, { token: key });
  const byJson = await t.request({ method: 'POST', url: '/api/login/', ...json({ username: 'Alice@Example.org', password: 'alice-password' }) });
  assert.deepEqual(byJson.body, { token: key });
});

test('a multipart form works as well', async () => {
  const t = await world();
  const boundary = 'x-boundary';
  const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const response = await t.request({
    method: 'POST',
    url: '/api/login/',
    payload: `${part('username', 'alice')}${part('password', 'alice-password')}--${boundary}--\r\n`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  assert.equal(response.status, 200, response.text);
  assert.match((response.body as { token: string }).token, /^[0-9a-f]{40}$/);
});

test('bad credentials at /api/login/ are a 400 with non_field_errors', async () => {
  const t = await world();
  for (const [username, password] of [
    ['alice', 'wrong'],
    ['nobody', 'x'],
    ['carol', 'carol-password'],
    ['dave', 'dave-password'],
  ]) {
    const response = await apiLogin(t, username, password);
    assert.equal(response.status, 400, username);
    assert.deepEqual(response.body, { non_field_errors: ['Unable to log in with provided credentials.'] });
  }
  const missing = await t.request({ method: 'POST', url: '/api/login/', ...form({ username: 'alice' }) });
  assert.equal(missing.status, 400);
  assert.deepEqual(missing.body, { password: ['This field is required.'] });
  const [row] = await t.db.select().from(apiTokens);
  assert.equal(row, undefined, 'no key was made');
});

test('malformed bodies are 400s, never server errors', async () => {
  const t = await world();
  const send = (payload: string, type: string) => t.request({ method: 'POST', url: '/api/login/', payload, headers: { 'content-type': type } });
  const cases: [string, string][] = [
    ['[]', 'application/json'],
    ['{', 'application/json'],
    ['{"username": "a\\u0000b", "password": "x"}', 'application/json'],
    ['{"username": ["a"], "password": "x"}', 'application/json'],
    ['garbage', 'multipart/form-data; boundary=zz'],
    ['garbage', 'multipart/form-data'],
  ];
  for (const [payload, type] of cases) assert.equal((await send(payload, type)).status, 400, `${type} ${payload}`);
  const nul = await send('{"username": "a\\u0000b", "password": "x"}', 'application/json');
  assert.deepEqual(nul.body, { username: ['Null characters are not allowed.'] });
});

test('a username is matched case-insensitively, and before an e-mail address that equals it', async () => {
  const t = await createTestApp();
  await load(t.db, {
    users: [
      { id: 1, username: 'mail@example.org', email: 'one@example.org', password: 'first-password' },
      { id: 2, username: 'second', email: 'MAIL@example.org', password: 'second-password' },
    ],
  });
  assert.equal((await apiLogin(t, 'Mail@Example.org', 'first-password')).status, 200);
  assert.equal((await apiLogin(t, 'mail@example.org', 'second-password')).status, 400);
  assert.equal((await apiLogin(t, 'SECOND', 'second-password')).status, 200);
});

test('anonymous requests to an endpoint that needs a user get 401 with WWW-Authenticate', async () => {
  const t = await world();
  const response = await account(t);
  assert.equal(response.status, 401);
  assert.deepEqual(response.body, { detail: 'Authentication credentials were not provided.' });
  assert.equal(response.headers['www-authenticate'], 'Token');
});

test('a malformed or unknown Token header is a 401, also where no user is needed', async () => {
  const t = await world();
  for (const header of ['Token', 'Token a b', `Token ${'0'.repeat(40)}`]) {
    const response = await account(t, { authorization: header });
    assert.equal(response.status, 401, header);
    assert.equal(response.headers['www-authenticate'], 'Token');
  }
  const login = await t.request({ method: 'POST', url: '/api/login/', ...form({ username: 'alice', password: 'alice-password' }), headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Token nope' } });
  assert.equal(login.status, 401);
});

test("a deleted or deactivated user's API key stops working", async () => {
  const t = await world();
  const alice = await tokenOf(t);
  const bob = await tokenOf(t, 'bob', 'bob-password');
  await t.db.update(users).set({ isActive: false }).where(eq(users.id, 1));
  const inactive = await account(t, { authorization: `Token ${alice}` });
  assert.equal(inactive.status, 401);
  assert.deepEqual(inactive.body, { detail: 'User inactive or deleted.' });
  await t.db.delete(users).where(eq(users.id, 2));
  assert.equal((await account(t, { authorization: `Token ${bob}` })).status, 401);
});

test('the account endpoint shows pk, username, images and language', async () => {
  const t = await world();
  const key = await tokenOf(t, 'bob', 'bob-password');
  const plain = await account(t, { authorization: `Token ${key}` });
  assert.deepEqual(plain.body, {
    pk: 2,
    username: 'Bob',
    user_image: null,
    user_image_fallback: 'http://localhost:80/static/images/avatar-02.png',
    language: 'de',
  });
  await t.db.update(users).set({ avatar: 'users/images/bob.png' }).where(eq(users.id, 2));
  const withAvatar = await account(t, { authorization: `Token ${key}` });
  assert.equal((withAvatar.body as { user_image: string }).user_image, 'http://localhost:80/media/users/images/bob.png');
});

test('a browser session authenticates API requests; unsafe methods need the CSRF token', async () => {
  const t = await world();
  const cookies = await sessionCookie(t, 1);
  const read = await account(t, {}, cookies);
  assert.equal(read.status, 200);
  assert.equal(usernameOf(read), 'alice');

  const post = (headers: Record<string, string>) =>
    t.request({ method: 'POST', url: '/api/login/', payload: { username: 'alice', password: 'alice-password' }, headers, cookies });
  const noCsrf = await post({});
  assert.equal(noCsrf.status, 403);
  assert.deepEqual(noCsrf.body, { detail: 'CSRF Failed: CSRF token missing or incorrect.' });
  assert.equal((await post({ 'x-csrftoken': 'd'.repeat(32) })).status, 403);
  assert.equal((await post({ 'x-csrftoken': cookies.csrftoken })).status, 200);
  const unknownSession = await account(t, {}, { sessionid: 'no-such-session' });
  assert.equal(unknownSession.status, 401);
});

test('the schemes are tried in order: Token, then session, then Bearer', async () => {
  const t = await world();
  const aliceKey = await tokenOf(t);
  const bobSession = await sessionCookie(t, 2);
  const bobAccess = await jwtOf(t, 'bob', 'bob-password');
  const aliceAccess = await jwtOf(t, 'alice', 'alice-password');

  assert.equal(usernameOf(await account(t, { authorization: `Token ${aliceKey}` }, bobSession)), 'alice', 'Token before session');
  assert.equal(usernameOf(await account(t, { authorization: `Bearer ${aliceAccess}` }, bobSession)), 'Bob', 'session before Bearer');
  assert.equal(usernameOf(await account(t, { authorization: `Bearer ${bobAccess}` })), 'Bob', 'Bearer alone');
  assert.equal((await account(t, { authorization: 'Token wrong' }, bobSession)).status, 401, 'a bad Token header is not rescued by a session');
});

test('passwords are hashed with argon2id', async () => {
  const t = await world();
  await t.db.transaction((tx) => setPassword(tx, 2, 'bobs-new-password'));
  const [row] = await t.db.select({ password: users.password }).from(users).where(eq(users.id, 2));
  assert.match(row.password, /^\$argon2id\$/);
  assert.equal((await apiLogin(t, 'bob', 'bobs-new-password')).status, 200);
});

test('a Django pbkdf2 hash verifies and is upgraded to argon2id at the next successful login', async () => {
  const t = await world();
  const stored = async () => (await t.db.select({ password: users.password }).from(users).where(eq(users.id, 5)))[0].password;
  assert.match(await stored(), /^pbkdf2_sha256\$/);
  assert.equal((await apiLogin(t, 'erin', 'wrong-password')).status, 400);
  assert.match(await stored(), /^pbkdf2_sha256\$/, 'a failed login changes nothing');
  assert.equal((await apiLogin(t, 'erin', 'erin-password')).status, 200);
  assert.match(await stored(), /^\$argon2id\$/);
  assert.equal((await apiLogin(t, 'erin', 'erin-password')).status, 200, 'the upgraded hash verifies');
  assert.equal((await apiLogin(t, 'erin', 'wrong-password')).status, 400);
});

test("changing the password ends the user's API key and browser sessions", async () => {
  const t = await world();
  const key = await tokenOf(t);
  const cookies = await sessionCookie(t, 1);
  const bobKey = await tokenOf(t, 'bob', 'bob-password');
  await t.db.transaction((tx) => setPassword(tx, 1, 'alice-new-password'));
  assert.equal((await account(t, { authorization: `Token ${key}` })).status, 401);
  assert.equal((await account(t, {}, cookies)).status, 401);
  assert.equal((await t.db.select().from(browserSessions).where(eq(browserSessions.userId, 1))).length, 0);
  assert.equal((await account(t, { authorization: `Token ${bobKey}` })).status, 200, 'other users keep theirs');
  assert.equal((await apiLogin(t, 'alice', 'alice-password')).status, 400);
  const fresh = await tokenOf(t, 'alice', 'alice-new-password');
  assert.notEqual(fresh, key);
  assert.equal((await account(t, { authorization: `Token ${fresh}` })).status, 200);
  assert.equal((await account(t, {}, await sessionCookie(t, 1))).status, 200, 'a session opened after the change works');
});

test('a session opened in the same transaction as the password change counts', async () => {
  const t = await world();
  const old = await sessionCookie(t, 1);
  const sessionid = await t.db.transaction(async (tx) => {
    await setPassword(tx, 1, 'alice-new-password');
    return createBrowserSession(tx, 1);
  });
  assert.equal((await account(t, {}, old)).status, 401);
  assert.equal((await account(t, {}, { sessionid })).status, 200);
});

test("deactivating a user ends their API key and browser sessions, and they cannot log in", async () => {
  const t = await world();
  const key = await tokenOf(t);
  const cookies = await sessionCookie(t, 1);
  await t.db.transaction((tx) => deactivateUser(tx, 1));
  assert.equal((await account(t, { authorization: `Token ${key}` })).status, 401);
  assert.equal((await account(t, {}, cookies)).status, 401);
  assert.equal((await apiLogin(t, 'alice', 'alice-password')).status, 400);
});
