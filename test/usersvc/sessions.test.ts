import assert from 'node:assert/strict';
import { eq, sql } from 'drizzle-orm';
import { test } from 'node:test';
import { usersvcLogins, usersvcSessions } from '../../src/db/schema/usersvc.js';
import { adminHeaders, sessionHeaders, usersvcTestApp, type UsersvcTestApp } from './helpers.js';

async function sessionRow(app: UsersvcTestApp, token: string) {
  const [row] = await app.db.select().from(usersvcSessions).where(eq(usersvcSessions.token, token));
  return row;
}

async function expire(app: UsersvcTestApp, token: string): Promise<void> {
  await app.db.update(usersvcSessions).set({ endsAt: sql`now() - interval '1 second'` }).where(eq(usersvcSessions.token, token));
}

test('POST /session: the user trades name and password for a URL-safe token; GET /session/:token is true', async () => {
  const app = await usersvcTestApp();
  const kurt = await app.addUser('kurt');
  const response = await app.request({ method: 'POST', url: '/session', headers: kurt.headers, payload: String(kurt.id) });
  assert.equal(response.status, 201);
  assert.match(String(response.headers['content-type']), /^application\/json/);
  const token = response.body as string;
  assert.match(token, /^[A-Za-z0-9_-]{22,}$/);
  const active = await app.request({ method: 'GET', url: `/session/${token}` });
  assert.equal(active.status, 200);
  assert.equal(active.text, 'true');
});

test('a second POST /session returns the same token, restarts its lifetime and clears its logins', async () => {
  const app = await usersvcTestApp();
  const kurt = await app.addUser('kurt');
  const token = await app.openSession(kurt.headers, kurt.id);
  await app.request({ method: 'POST', url: `/session/${token}/login/svc`, headers: kurt.headers });
  await app.db.update(usersvcSessions).set({ endsAt: sql`now() + interval '1 minute'` }).where(eq(usersvcSessions.token, token));
  const again = await app.openSession(sessionHeaders(token), kurt.id);
  assert.equal(again, token);
  const row = await sessionRow(app, token);
  assert.ok(row.endsAt.getTime() - Date.now() > 13 * 24 * 3600 * 1000);
  const logins = await app.db.select().from(usersvcLogins).where(eq(usersvcLogins.token, token));
  assert.equal(logins.length, 0);
});

test('the session lifetime comes from the configuration (14 days by default)', async () => {
  const app = await usersvcTestApp({ usersvcSessionLifetimeSeconds: 600 });
  const kurt = await app.addUser('kurt');
  const row = await sessionRow(app, await app.openSession(kurt.headers, kurt.id));
  assert.equal(row.endsAt.getTime() - row.startsAt.getTime(), 600_000);
  assert.equal(row.timeoutSeconds, 600);
});

test('only the user herself may open her session: not the admin, not another user, not anonymous', async () => {
  const app = await usersvcTestApp();
  const kurt = await app.addUser('kurt');
  const dave = await app.addUser('dave');
  for (const headers of [adminHeaders, dave.headers, {}]) {
    const response = await app.request({ method: 'POST', url: '/session', headers, payload: String(kurt.id) });
    assert.equal(response.status, 401);
    assert.equal(response.text, 'unauthorized');
  }
});

test('POST /session for a missing user: 404 for the admin, 401 for others; a non-integer body is 400', async () => {
  const app = await usersvcTestApp();
  const dave = await app.addUser('dave');
  const admin = await app.request({ method: 'POST', url: '/session', headers: adminHeaders, payload: '77' });
  assert.equal(admin.status, 404);
  assert.equal(admin.text, 'user not found');
  const other = await app.request({ method: 'POST', url: '/session', headers: dave.headers, payload: '77' });
  assert.equal(other.status, 401);
  for (const payload of ['"77"', '{"id": 2}', '1.5', '']) {
    const bad = await app.request({ method: 'POST', url: '/session', headers: dave.headers, payload });
    assert.equal(bad.status, 400, payload);
  }
});

test('a session token authenticates its user (X-Thentos-Session); a token that does not count is 404', async () => {
  const app = await usersvcTestApp();
  const kurt = await app.addUser('kurt');
  const token = await app.openSession(kurt.headers, kurt.id);
  const name = await app.request({ method: 'GET', url: `/user/${kurt.id}/name`, headers: sessionHeaders(token) });
  assert.equal(name.body, 'kurt');
  const unknown = await app.request({ method: 'GET', url: `/user/${kurt.id}/name`, headers: sessionHeaders('no-such-token') });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.text, 'session not found');
  await expire(app, token);
  const expired = await app.request({ method: 'GET', url: `/user/${kurt.id}/name`, headers: sessionHeaders(token) });
  assert.equal(expired.status, 404);
});

test('GET /session/:token is false for an unknown token and does not extend an active session', async () => {
  const app = await usersvcTestApp();
  const kurt = await app.addUser('kurt');
  const token = await app.openSession(kurt.headers, kurt.id);
  const unknown = await app.request({ method: 'GET', url: '/session/unknown-token' });
  assert.equal(unknown.status, 200);
  assert.equal(unknown.body, false);
  const before = await sessionRow(app, token);
  await app.request({ method: 'GET', url: `/session/${token}` });
  const after = await sessionRow(app, token);
  assert.equal(after.endsAt.getTime(), before.endsAt.getTime());
});

test('an expired session stops counting at once, and the next POST /session gives a new token and purges it', async () => {
  const app = await usersvcTestApp();
  const kurt = await app.addUser('kurt');
  const dave = await app.addUser('dave');
  const token = await app.openSession(kurt.headers, kurt.id);
  const daves = await app.openSession(dave.headers, dave.id);
  await expire(app, token);
  await expire(app, daves);
  const active = await app.request({ method: 'GET', url: `/session/${token}` });
  assert.equal(active.body, false);
  const login = await app.request({ method: 'POST', url: `/session/${token}/login/svc`, headers: kurt.headers });
  assert.equal(login.status, 401);
  const fresh = await app.openSession(kurt.headers, kurt.id);
  assert.notEqual(fresh, token);
  assert.equal(await sessionRow(app, token), undefined);
  assert.equal(await sessionRow(app, daves), undefined);
});

test('DELETE /session/:token: the owner or the admin ends it (204, empty); others get 401', async () => {
  const app = await usersvcTestApp();
  const kurt = await app.addUser('kurt');
  const dave = await app.addUser('dave');
  const token = await app.openSession(kurt.headers, kurt.id);
  for (const headers of [dave.headers, {}]) {
    const refused = await app.request({ method: 'DELETE', url: `/session/${token}`, headers });
    assert.equal(refused.status, 401);
  }
  const ended = await app.request({ method: 'DELETE', url: `/session/${token}`, headers: sessionHeaders(token) });
  assert.equal(ended.status, 204);
  assert.equal(ended.text, '');
  assert.equal((await app.request({ method: 'GET', url: `/session/${token}` })).body, false);
  const daves = await app.openSession(dave.headers, dave.id);
  const byAdmin = await app.request({ method: 'DELETE', url: `/session/${daves}`, headers: adminHeaders });
  assert.equal(byAdmin.status, 204);
  assert.equal((await app.request({ method: 'GET', url: `/session/${daves}` })).body, false);
});

test('DELETE of an unknown session: a quiet 204 for the admin, 401 for others', async () => {
  const app = await usersvcTestApp();
  const dave = await app.addUser('dave');
  const admin = await app.request({ method: 'DELETE', url: '/session/unknown', headers: adminHeaders });
  assert.equal(admin.status, 204);
  const other = await app.request({ method: 'DELETE', url: '/session/unknown', headers: dave.headers });
  assert.equal(other.status, 401);
});

test('the single-sign-on flow: the user logs in to a service, the service checks it, the user logs out', async () => {
  const app = await usersvcTestApp();
  const kurt = await app.addUser('kurt');
  const service = await app.addService();
  const token = await app.openSession(kurt.headers, kurt.id);
  const check = () => app.request({ method: 'GET', url: `/session/${token}/login/${service.id}`, headers: service.headers });
  assert.equal((await check()).body, false);
  const login = await app.request({ method: 'POST', url: `/session/${token}/login/${service.id}`, headers: sessionHeaders(token) });
  assert.equal(login.status, 201);
  assert.equal(login.text, '[]');
  const yes = await check();
  assert.equal(yes.status, 200);
  assert.equal(yes.body, true);
  const byAdmin = await app.request({ method: 'GET', url: `/session/${token}/login/${service.id}`, headers: adminHeaders });
  assert.equal(byAdmin.body, true);
  const logout = await app.request({ method: 'DELETE', url: `/session/${token}/login/${service.id}`, headers: kurt.headers });
  assert.equal(logout.status, 204);
  assert.equal(logout.text, '');
  assert.equal((await check()).body, false);
});

test('logins are a set: two POSTs record one login, one DELETE removes it; DELETE of an absent login is fine', async () => {
  const app = await usersvcTestApp();
  const kurt = await app.addUser('kurt');
  const token = await app.openSession(kurt.headers, kurt.id);
  for (let i = 0; i < 2; i++) {
    const response = await app.request({ method: 'POST', url: `/session/${token}/login/svc`, headers: kurt.headers });
    assert.equal(response.status, 201);
  }
  const rows = await app.db.select().from(usersvcLogins).where(eq(usersvcLogins.token, token));
  assert.deepEqual(rows.map((row) => row.serviceId), ['svc']);
  const absent = await app.request({ method: 'DELETE', url: `/session/${token}/login/other`, headers: kurt.headers });
  assert.equal(absent.status, 204);
  await app.request({ method: 'DELETE', url: `/session/${token}/login/svc`, headers: kurt.headers });
  const left = await app.db.select().from(usersvcLogins).where(eq(usersvcLogins.token, token));
  assert.equal(left.length, 0);
});

test('only the admin or the service itself may ask whether a session is logged in to that service', async () => {
  const app = await usersvcTestApp();
  const kurt = await app.addUser('kurt');
  const service = await app.addService();
  const other = await app.addService();
  const token = await app.openSession(kurt.headers, kurt.id);
  await app.request({ method: 'POST', url: `/session/${token}/login/${service.id}`, headers: kurt.headers });
  for (const headers of [other.headers, kurt.headers, sessionHeaders(token), {}]) {
    const response = await app.request({ method: 'GET', url: `/session/${token}/login/${service.id}`, headers });
    assert.equal(response.status, 401);
  }
  const wrongKey = await app.request({
    method: 'GET',
    url: `/session/${token}/login/${service.id}`,
    headers: { ...service.headers, 'x-thentos-password': 'wrong' },
  });
  assert.equal(wrongKey.status, 401);
  const unknownToken = await app.request({ method: 'GET', url: `/session/nope/login/${service.id}`, headers: service.headers });
  assert.equal(unknownToken.status, 200);
  assert.equal(unknownToken.body, false);
});

test('adding or removing a login is for the session\'s user or the admin; a missing session is 404 for the admin only', async () => {
  const app = await usersvcTestApp();
  const kurt = await app.addUser('kurt');
  const dave = await app.addUser('dave');
  const token = await app.openSession(kurt.headers, kurt.id);
  for (const method of ['POST', 'DELETE'] as const) {
    for (const headers of [dave.headers, {}]) {
      const response = await app.request({ method, url: `/session/${token}/login/svc`, headers });
      assert.equal(response.status, 401, method);
    }
    const missingAdmin = await app.request({ method, url: '/session/nope/login/svc', headers: adminHeaders });
    assert.equal(missingAdmin.status, 404);
    assert.equal(missingAdmin.text, 'session not found');
    const missingUser = await app.request({ method, url: '/session/nope/login/svc', headers: dave.headers });
    assert.equal(missingUser.status, 401);
  }
  const byAdmin = await app.request({ method: 'POST', url: `/session/${token}/login/svc`, headers: adminHeaders });
  assert.equal(byAdmin.status, 201);
});

test('adding a login and a successful login check extend the session to now + its lifetime', async () => {
  const app = await usersvcTestApp({ usersvcSessionLifetimeSeconds: 3600 });
  const kurt = await app.addUser('kurt');
  const service = await app.addService();
  const token = await app.openSession(kurt.headers, kurt.id);
  const shorten = () => app.db.update(usersvcSessions).set({ endsAt: sql`now() + interval '10 seconds'` }).where(eq(usersvcSessions.token, token));
  const remaining = async () => (await sessionRow(app, token)).endsAt.getTime() - Date.now();
  await shorten();
  await app.request({ method: 'POST', url: `/session/${token}/login/${service.id}`, headers: kurt.headers });
  assert.ok((await remaining()) > 3000 * 1000);
  await shorten();
  await app.request({ method: 'GET', url: `/session/${token}/login/${service.id}`, headers: service.headers });
  assert.ok((await remaining()) > 3000 * 1000);
  await shorten();
  await app.request({ method: 'GET', url: `/session/${token}/login/not-logged-in`, headers: adminHeaders });
  assert.ok((await remaining()) < 60 * 1000, 'a failed check does not extend');
});
