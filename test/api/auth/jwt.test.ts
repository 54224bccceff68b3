import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { jwtBlacklist, users } from '../../../src/db/schema/index.js';
import { deactivateUser, setPassword } from '../../../src/core/users/credentials.js';
import { signJwt } from '../../../src/http/jwt.js';
import { load } from '../../fixtures.js';
import { createTestApp, type TestApp } from '../../helpers.js';
import { authWorld, form, json } from './world.js';

interface Pair {
  access: string;
  refresh: string;
}

async function world(): Promise<TestApp> {
  const t = await createTestApp();
  await load(t.db, authWorld());
  return t;
}

async function obtain(t: TestApp, username = 'alice', password = 'alice-password'): Promise<Pair> {
  const response = await t.request({ method: 'POST', url: '/api/token/', ...json({ username, password }) });
  assert.equal(response.status, 200, response.text);
  return response.body as Pair;
}

const account = (t: TestApp, authorization: string) => t.request({ method: 'GET', url: '/api/account/', headers: { authorization } });
const refresh = (t: TestApp, token: string) => t.request({ method: 'POST', url: '/api/token/refresh/', ...json({ refresh: token }) });
const verify = (t: TestApp, token: string) => t.request({ method: 'POST', url: '/api/token/verify/', ...json({ token }) });

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
}

test('POST /api/token/ with username and password gives an access and a refresh token', async () => {
  const t = await world();
  const pair = await obtain(t);
  assert.deepEqual(Object.keys(pair).sort(), ['access', 'refresh']);
  const response = await account(t, `Bearer ${pair.access}`);
  assert.equal(response.status, 200);
  assert.equal((response.body as { username: string }).username, 'alice');
});

test('the tokens are HS256 with token_type, exp, iat, jti and user_id; access lives 5 hours, refresh 1 day', async () => {
  const t = await world();
  const pair = await obtain(t);
  const header = JSON.parse(Buffer.from(pair.access.split('.')[0], 'base64url').toString()) as Record<string, unknown>;
  assert.equal(header.alg, 'HS256');
  const access = claimsOf(pair.access);
  const refreshClaims = claimsOf(pair.refresh);
  assert.deepEqual(Object.keys(access).sort(), ['exp', 'iat', 'jti', 'token_type', 'user_id']);
  assert.equal(access.token_type, 'access');
  assert.equal(refreshClaims.token_type, 'refresh');
  assert.equal(access.user_id, 1);
  assert.equal(Number(access.exp) - Number(access.iat), 5 * 3600);
  assert.equal(Number(refreshClaims.exp) - Number(refreshClaims.iat), 24 * 3600);
  assert.notEqual(access.jti, refreshClaims.jti);
});

test('token lifetimes are configurable', async () => {
  const t = await createTestApp({ accessTokenLifetimeSeconds: 60, refreshTokenLifetimeSeconds: 120 });
  await load(t.db, authWorld());
  const pair = await obtain(t);
  const access = claimsOf(pair.access);
  const refreshClaims = claimsOf(pair.refresh);
  assert.equal(Number(access.exp) - Number(access.iat), 60);
  assert.equal(Number(refreshClaims.exp) - Number(refreshClaims.iat), 120);
});

test('the username may be the e-mail address, in any case, and a form body works too', async () => {
  const t = await world();
  const byEmail = await t.request({ method: 'POST', url: '/api/token/', ...json({ username: 'ALICE@example.org', password: 'alice-password' }) });
  assert.equal(byEmail.status, 200);
  assert.equal(claimsOf((byEmail.body as Pair).access).user_id, 1);
  const byForm = await t.request({ method: 'POST', url: '/api/token/', ...form({ username: 'bob', password: 'bob-password' }) });
  assert.equal(byForm.status, 200);
  assert.equal(claimsOf((byForm.body as Pair).access).user_id, 2);
});

test('wrong credentials, an unknown, inactive, unconfirmed or password-less account get 401 and no tokens', async () => {
  const t = await world();
  const attempts = [
    ['alice', 'wrong'],
    ['nobody', 'alice-password'],
    ['dave', 'dave-password'],
    ['carol', 'carol-password'],
    ['frank', 'anything'],
  ];
  for (const [username, password] of attempts) {
    const response = await t.request({ method: 'POST', url: '/api/token/', ...json({ username, password }) });
    assert.equal(response.status, 401, username);
    assert.deepEqual(response.body, { detail: 'No active account found with the given credentials' });
    assert.equal(response.headers['www-authenticate'], 'Bearer realm="api"');
  }
});

test('a missing or blank field is a 400 with field errors', async () => {
  const t = await world();
  const noPassword = await t.request({ method: 'POST', url: '/api/token/', ...json({ username: 'alice' }) });
  assert.equal(noPassword.status, 400);
  assert.deepEqual(noPassword.body, { password: ['This field is required.'] });
  const blank = await t.request({ method: 'POST', url: '/api/token/', ...json({ username: '', password: 'x' }) });
  assert.equal(blank.status, 400);
  assert.deepEqual(blank.body, { username: ['This field may not be blank.'] });
  const empty = await t.request({ method: 'POST', url: '/api/token/' });
  assert.equal(empty.status, 400);
  assert.ok('username' in (empty.body as object));
  const notJson = await t.request({ method: 'POST', url: '/api/token/', payload: '{', headers: { 'content-type': 'application/json' } });
  assert.equal(notJson.status, 400);
});

test('refresh gives a new access and refresh token; the old refresh token is blacklisted', async () => {
  const t = await world();
  const pair = await obtain(t);
  const first = await refresh(t, pair.refresh);
  assert.equal(first.status, 200);
  const rotated = first.body as Pair;
  assert.deepEqual(Object.keys(rotated).sort(), ['access', 'refresh']);
  assert.notEqual(rotated.refresh, pair.refresh);
  assert.equal((await account(t, `Bearer ${rotated.access}`)).status, 200);

  const again = await refresh(t, pair.refresh);
  assert.equal(again.status, 401);
  assert.deepEqual(again.body, { detail: 'Token is blacklisted', code: 'token_not_valid' });
  assert.equal((await verify(t, pair.refresh)).status, 401);

  const next = await refresh(t, rotated.refresh);
  assert.equal(next.status, 200, 'the rotated refresh token works');
});

test('a refresh drops blacklist entries of tokens that have expired anyway', async () => {
  const t = await world();
  await t.db.insert(jwtBlacklist).values({ jti: 'long-expired', userId: 1, expiresAt: new Date(Date.now() - 1000) });
  const pair = await obtain(t);
  assert.equal((await refresh(t, pair.refresh)).status, 200);
  const left = await t.db.select({ jti: jwtBlacklist.jti }).from(jwtBlacklist);
  assert.deepEqual(left, [{ jti: claimsOf(pair.refresh).jti }]);
});

test('two concurrent refreshes with the same token: only one wins', async () => {
  const t = await world();
  const pair = await obtain(t);
  const results = await Promise.all([refresh(t, pair.refresh), refresh(t, pair.refresh)]);
  assert.deepEqual(results.map((r) => r.status).sort(), [200, 401]);
});

test('refresh and verify need their field', async () => {
  const t = await world();
  const noRefresh = await t.request({ method: 'POST', url: '/api/token/refresh/', ...json({}) });
  assert.equal(noRefresh.status, 400);
  assert.deepEqual(noRefresh.body, { refresh: ['This field is required.'] });
  const noToken = await t.request({ method: 'POST', url: '/api/token/verify/', ...json({}) });
  assert.equal(noToken.status, 400);
  assert.deepEqual(noToken.body, { token: ['This field is required.'] });
});

test('verify answers 200 {} for a valid access or refresh token and 401 for a bad one', async () => {
  const t = await world();
  const pair = await obtain(t);
  for (const token of [pair.access, pair.refresh]) {
    const response = await verify(t, token);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, {});
  }
  const bad = await verify(t, 'not-a-token');
  assert.equal(bad.status, 401);
  assert.equal((bad.body as { code: string }).code, 'token_not_valid');
});

// The attack catalogue: each forged or spent token is refused as Bearer, as refresh and by verify.

function tamperSignature(token: string): string {
  const [header, payload, signature] = token.split('.');
  const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
  return [header, payload, flipped].join('.');
}

function tamperPayload(token: string, changes: Record<string, unknown>): string {
  const [header, payload, signature] = token.split('.');
  const claims = { ...(JSON.parse(Buffer.from(payload, 'base64url').toString()) as object), ...changes };
  return [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
}

function unsigned(token: string): string {
  const [, payload] = token.split('.');
  const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
  return `${header}.${payload}.`;
}

async function assertRefused(t: TestApp, token: string, kind: 'access' | 'refresh', label: string) {
  const asBearer = await account(t, `Bearer ${token}`);
  assert.equal(asBearer.status, 401, `${label}: as Bearer`);
  assert.match(String(asBearer.headers['www-authenticate']), /^Bearer/, label);
  if (kind === 'refresh') {
    const asRefresh = await refresh(t, token);
    assert.equal(asRefresh.status, 401, `${label}: as refresh`);
    assert.equal(asRefresh.headers['www-authenticate'], 'Bearer realm="api"');
  }
  assert.equal((await verify(t, token)).status, 401, `${label}: verify`);
}

test('attack: a tampered signature is refused', async () => {
  const t = await world();
  const pair = await obtain(t);
  await assertRefused(t, tamperSignature(pair.access), 'access', 'access');
  await assertRefused(t, tamperSignature(pair.refresh), 'refresh', 'refresh');
});

test('attack: a payload changed to another user (signature kept) is refused', async () => {
  const t = await world();
  const pair = await obtain(t);
  await assertRefused(t, tamperPayload(pair.access, { user_id: 2 }), 'access', 'access');
  await assertRefused(t, tamperPayload(pair.refresh, { user_id: 2 }), 'refresh', 'refresh');
});

test('attack: alg none is refused', async () => {
  const t = await world();
  const pair = await obtain(t);
  await assertRefused(t, unsigned(pair.access), 'access', 'access');
  await assertRefused(t, unsigned(pair.refresh), 'refresh', 'refresh');
});

test('attack: an expired token is refused', async () => {
  const t = await world();
  const yesterday = Date.now() - 25 * 3600 * 1000;
  const access = await signJwt(t.config.secretKey, 'access', 1, 5 * 3600, yesterday);
  const refreshToken = await signJwt(t.config.secretKey, 'refresh', 1, 24 * 3600 - 60, yesterday);
  await assertRefused(t, access, 'access', 'access');
  await assertRefused(t, refreshToken, 'refresh', 'refresh');
  const body = (await account(t, `Bearer ${access}`)).body as { messages: { message: string }[] };
  assert.equal(body.messages[0].message, 'Token is expired');
});

test('attack: the wrong token type is refused (refresh as access, access as refresh)', async () => {
  const t = await world();
  const pair = await obtain(t);
  const refreshAsAccess = await account(t, `Bearer ${pair.refresh}`);
  assert.equal(refreshAsAccess.status, 401);
  const accessAsRefresh = await refresh(t, pair.access);
  assert.equal(accessAsRefresh.status, 401);
  assert.deepEqual(accessAsRefresh.body, { detail: 'Token has wrong type', code: 'token_not_valid' });
  const forgedType = await signJwt(t.config.secretKey, 'access', 1, 60);
  assert.equal((await refresh(t, forgedType)).status, 401);
});

test('attack: a blacklisted refresh token is refused', async () => {
  const t = await world();
  const pair = await obtain(t);
  assert.equal((await refresh(t, pair.refresh)).status, 200);
  await assertRefused(t, pair.refresh, 'refresh', 'blacklisted');
});

test("attack: a token signed with another server's secret is refused", async () => {
  const t = await world();
  const otherSecret = 'another-server-secret-another-server-secret';
  await assertRefused(t, await signJwt(otherSecret, 'access', 1, 3600), 'access', 'access');
  await assertRefused(t, await signJwt(otherSecret, 'refresh', 1, 3600), 'refresh', 'refresh');
});

test('attack: the tokens of a deleted user are refused', async () => {
  const t = await world();
  const pair = await obtain(t);
  await t.db.delete(users).where(eq(users.id, 1));
  const asBearer = await account(t, `Bearer ${pair.access}`);
  assert.equal(asBearer.status, 401);
  assert.equal((asBearer.body as { code: string }).code, 'user_not_found');
  await assertRefused(t, pair.access, 'access', 'access');
  const asRefresh = await refresh(t, pair.refresh);
  assert.equal(asRefresh.status, 401);
  assert.equal((asRefresh.body as { code: string }).code, 'no_active_account');
});

test('attack: garbage and malformed Bearer headers are 401', async () => {
  const t = await world();
  for (const header of ['Bearer', 'Bearer a b', 'Bearer not.a.jwt', 'Bearer eyJhbGciOiJIUzI1NiJ9..']) {
    const response = await account(t, header);
    assert.equal(response.status, 401, header);
    assert.match(String(response.headers['www-authenticate']), /^Bearer/);
  }
});

test('deactivating a user ends their access and refresh tokens', async () => {
  const t = await world();
  const pair = await obtain(t);
  await t.db.transaction((tx) => deactivateUser(tx, 1));
  await assertRefused(t, pair.access, 'access', 'access');
  await assertRefused(t, pair.refresh, 'refresh', 'refresh');
  const again = await t.request({ method: 'POST', url: '/api/token/', ...json({ username: 'alice', password: 'alice-password' }) });
  assert.equal(again.status, 401);
});

test('changing the password ends tokens issued before, while new ones work at once', async () => {
  const t = await world();
  const pair = await obtain(t);
  await t.db.transaction((tx) => setPassword(tx, 1, 'a-new-password'));
  await assertRefused(t, pair.access, 'access', 'access');
  await assertRefused(t, pair.refresh, 'refresh', 'refresh');
  const old = await t.request({ method: 'POST', url: '/api/token/', ...json({ username: 'alice', password: 'alice-password' }) });
  assert.equal(old.status, 401);
  const fresh = await obtain(t, 'alice', 'a-new-password');
  assert.equal((await account(t, `Bearer ${fresh.access}`)).status, 200);
  assert.equal((await verify(t, fresh.refresh)).status, 200);
  assert.equal((await refresh(t, fresh.refresh)).status, 200);
});
