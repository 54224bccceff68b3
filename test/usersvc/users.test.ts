import assert from 'node:assert/strict';
import { eq } from 'drizzle-orm';
import { test } from 'node:test';
import { usersvcUsers } from '../../src/db/schema/usersvc.js';
import { uniqueViolation } from '../../src/usersvc/services.js';
import { createTestApp } from '../helpers.js';
import { ADMIN, adminHeaders, userHeaders, usersvcTestApp } from './helpers.js';

test('the admin from the configuration exists at start and lists the user ids', async () => {
  const { request } = await usersvcTestApp();
  const response = await request({ method: 'GET', url: '/user', headers: adminHeaders });
  assert.equal(response.status, 200);
  assert.match(String(response.headers['content-type']), /^application\/json/);
  assert.deepEqual(response.body, [1]);
});

test('without a configured admin nobody can manage users: there is no built-in password', async () => {
  const { request } = await createTestApp();
  for (const [name, password] of [['god', 'god'], ['admin', 'admin'], ['root', 'root-password-1']]) {
    const response = await request({ method: 'GET', url: '/user', headers: userHeaders(name, password) });
    assert.equal(response.status, 401);
    assert.equal(response.text, 'unauthorized');
  }
});

test('an admin creates users: 201 with the new id, and GET /user lists ids in ascending order', async () => {
  const app = await usersvcTestApp();
  const response = await app.request({
    method: 'POST',
    url: '/user',
    headers: adminHeaders,
    payload: { udName: 'Kurt Cobain', udEmail: 'cobain@nirvana.com', udPassword: 'smells like' },
  });
  assert.equal(response.status, 201);
  assert.equal(response.text, '2');
  const other = await app.addUser('Dave Grohl');
  assert.equal(other.id, 3);
  const list = await app.request({ method: 'GET', url: '/user', headers: adminHeaders });
  assert.deepEqual(list.body, [1, 2, 3]);
});

test('user ids are never used again after a delete', async () => {
  const app = await usersvcTestApp();
  const first = await app.addUser('first');
  const second = await app.addUser('second');
  const deleted = await app.request({ method: 'DELETE', url: `/user/${second.id}`, headers: adminHeaders });
  assert.equal(deleted.status, 204);
  const third = await app.addUser('third');
  assert.ok(third.id > second.id, `${third.id} > ${second.id}`);
  const list = await app.request({ method: 'GET', url: '/user', headers: adminHeaders });
  assert.deepEqual(list.body, [1, first.id, third.id]);
});

test('only an admin may create or list users', async () => {
  const app = await usersvcTestApp();
  const plain = await app.addUser('plain');
  const body = { udName: 'new', udEmail: 'new@example.org', udPassword: 'pw' };
  for (const headers of [{}, plain.headers]) {
    const created = await app.request({ method: 'POST', url: '/user', headers, payload: body });
    assert.equal(created.status, 401);
    assert.equal(created.text, 'unauthorized');
    const listed = await app.request({ method: 'GET', url: '/user', headers });
    assert.equal(listed.status, 401);
  }
});

test('wrong credentials are 401: a wrong password or an unknown user name', async () => {
  const { request } = await usersvcTestApp();
  for (const headers of [userHeaders(ADMIN.name, 'wrong'), userHeaders('nobody', ADMIN.password)]) {
    const response = await request({ method: 'GET', url: '/user', headers });
    assert.equal(response.status, 401);
    assert.equal(response.text, 'unauthorized');
    assert.match(String(response.headers['content-type']), /^text\/plain/);
  }
});

test('e-mail addresses (case-insensitively) and names are unique: 403, the e-mail checked first', async () => {
  const app = await usersvcTestApp();
  await app.addUser('kurt', 'kurt@example.org');
  const post = (udName: string, udEmail: string) =>
    app.request({ method: 'POST', url: '/user', headers: adminHeaders, payload: { udName, udEmail, udPassword: 'pw' } });
  const sameEmail = await post('other', 'KURT@example.org');
  assert.equal(sameEmail.status, 403);
  assert.equal(sameEmail.text, 'email already in use');
  const sameName = await post('kurt', 'other@example.org');
  assert.equal(sameName.status, 403);
  assert.equal(sameName.text, 'user name already in use');
  const both = await post('kurt', 'kurt@example.org');
  assert.equal(both.text, 'email already in use');
});

test('names that differ only by case or surrounding space are one user: 403, stored trimmed, login in any case', async () => {
  const app = await usersvcTestApp();
  const post = (udName: string, udEmail: string) =>
    app.request({ method: 'POST', url: '/user', headers: adminHeaders, payload: { udName, udEmail, udPassword: 'pw' } });
  const created = await post(' Kurt Cobain ', 'kurt@example.org');
  assert.equal(created.status, 201);
  for (const name of ['kurt cobain', 'KURT COBAIN', 'Kurt Cobain\u00a0', '  kurt Cobain']) {
    const twin = await post(name, `${name.trim().length}-${name.charCodeAt(0)}@example.org`);
    assert.equal(twin.status, 403, JSON.stringify(name));
    assert.equal(twin.text, 'user name already in use');
  }
  const id = created.body as number;
  const stored = await app.request({ method: 'GET', url: `/user/${id}/name`, headers: adminHeaders });
  assert.equal(stored.text, '"Kurt Cobain"');
  const other = await post('Courtney', 'courtney@example.org');
  const rename = await app.request({ method: 'PUT', url: `/user/${other.body as number}/name`, headers: adminHeaders, payload: '" kurt COBAIN"' });
  assert.equal(rename.status, 403);
  const login = await app.request({ method: 'GET', url: `/user/${id}/name`, headers: userHeaders('kurt cobain', 'pw') });
  assert.equal(login.status, 200);
});

test('two simultaneous POST /user with one name: exactly one wins, the other gets 403', async () => {
  const app = await usersvcTestApp();
  const post = (email: string) =>
    app.request({ method: 'POST', url: '/user', headers: adminHeaders, payload: { udName: 'twin', udEmail: email, udPassword: 'pw' } });
  const answers = await Promise.all([post('one@example.org'), post('two@example.org'), post('three@example.org')]);
  assert.deepEqual(answers.map((a) => a.status).sort(), [201, 403, 403]);
  for (const loser of answers.filter((a) => a.status === 403)) assert.equal(loser.text, 'user name already in use');
  const rows = await app.db.select().from(usersvcUsers).where(eq(usersvcUsers.name, 'twin'));
  assert.equal(rows.length, 1);
});

test('two simultaneous POST /user with one e-mail address: exactly one wins', async () => {
  const app = await usersvcTestApp();
  const post = (name: string) =>
    app.request({ method: 'POST', url: '/user', headers: adminHeaders, payload: { udName: name, udEmail: 'same@example.org', udPassword: 'pw' } });
  const answers = await Promise.all([post('a'), post('b')]);
  assert.deepEqual(answers.map((a) => a.status).sort(), [201, 403]);
});

test('passwords are stored as argon2id hashes and never returned', async () => {
  const app = await usersvcTestApp();
  const user = await app.addUser('hashed');
  const [row] = await app.db.select().from(usersvcUsers).where(eq(usersvcUsers.id, user.id));
  assert.match(row.passwordHash, /^\$argon2id\$/);
  assert.ok(!row.passwordHash.includes(user.password));
  for (const url of [`/user/${user.id}/name`, `/user/${user.id}/email`, '/user']) {
    const response = await app.request({ method: 'GET', url, headers: adminHeaders });
    assert.ok(!response.text.includes(user.password));
  }
});

test('a bad POST /user body is a plain-text 400', async () => {
  const { request } = await usersvcTestApp();
  const cases: [string, RegExp][] = [
    ['{"udName": ', /^Invalid JSON in request body$/],
    ['', /^Invalid request body/],
    ['12', /^Invalid request body/],
    ['{"udName": "x", "udEmail": "x@example.org"}', /udPassword/],
    ['{"udName": 5, "udEmail": "x@example.org", "udPassword": "pw"}', /udName/],
    ['{"udName": "x", "udEmail": "no address", "udPassword": "pw"}', /^email is not an e-mail address$/],
    ['{"udName": " ", "udEmail": "x@example.org", "udPassword": "pw"}', /^user name must not be empty$/],
    ['{"udName": "a\\nb", "udEmail": "x@example.org", "udPassword": "pw"}', /control characters/],
  ];
  for (const [payload, message] of cases) {
    const response = await request({ method: 'POST', url: '/user', headers: { ...adminHeaders, 'content-type': 'application/json' }, payload });
    assert.equal(response.status, 400, payload);
    assert.match(String(response.headers['content-type']), /^text\/plain/);
    assert.match(response.text, message, payload);
  }
});

test('GET name and e-mail: the admin and the user herself, nobody else', async () => {
  const app = await usersvcTestApp();
  const kurt = await app.addUser('Kurt Cobain', 'cobain@nirvana.com');
  const dave = await app.addUser('Dave');
  for (const headers of [adminHeaders, kurt.headers]) {
    const name = await app.request({ method: 'GET', url: `/user/${kurt.id}/name`, headers });
    assert.equal(name.status, 200);
    assert.equal(name.text, '"Kurt Cobain"');
    const email = await app.request({ method: 'GET', url: `/user/${kurt.id}/email`, headers });
    assert.equal(email.status, 200);
    assert.equal(email.body, 'cobain@nirvana.com');
  }
  for (const headers of [dave.headers, {}]) {
    const response = await app.request({ method: 'GET', url: `/user/${kurt.id}/name`, headers });
    assert.equal(response.status, 401);
    assert.equal(response.text, 'unauthorized');
  }
});

test('a missing user is 404 for the admin and 401 for anyone else', async () => {
  const app = await usersvcTestApp();
  const dave = await app.addUser('Dave');
  for (const [method, url] of [['GET', '/user/99/name'], ['GET', '/user/99/email'], ['DELETE', '/user/99'], ['GET', '/user/99999999999/name']] as const) {
    const admin = await app.request({ method, url, headers: adminHeaders });
    assert.equal(admin.status, 404, url);
    assert.equal(admin.text, 'user not found');
    const other = await app.request({ method, url, headers: dave.headers });
    assert.equal(other.status, 401, url);
  }
  const put = await app.request({ method: 'PUT', url: '/user/99/name', headers: adminHeaders, payload: '"x"' });
  assert.equal(put.status, 404);
});

test('a user id that is not a number is 404 "not found"', async () => {
  const { request } = await usersvcTestApp();
  for (const url of ['/user/abc/name', '/user/-1/email', '/user/1.5', '/user/12abc/name']) {
    const response = await request({ method: url.endsWith('1.5') ? 'DELETE' : 'GET', url, headers: adminHeaders });
    assert.equal(response.status, 404, url);
    assert.equal(response.text, 'not found');
  }
});

test('PUT name: the user renames herself and signs in with the new name; duplicates are 403', async () => {
  const app = await usersvcTestApp();
  const kurt = await app.addUser('kurt');
  await app.addUser('dave');
  const renamed = await app.request({ method: 'PUT', url: `/user/${kurt.id}/name`, headers: kurt.headers, payload: '"Kurt Cobain"' });
  assert.equal(renamed.status, 200);
  assert.equal(renamed.text, '[]');
  const again = await app.request({ method: 'GET', url: `/user/${kurt.id}/name`, headers: userHeaders('Kurt Cobain', kurt.password) });
  assert.equal(again.body, 'Kurt Cobain');
  const oldName = await app.request({ method: 'GET', url: `/user/${kurt.id}/name`, headers: kurt.headers });
  assert.equal(oldName.status, 401);
  const taken = await app.request({ method: 'PUT', url: `/user/${kurt.id}/name`, headers: adminHeaders, payload: '"dave"' });
  assert.equal(taken.status, 403);
  assert.equal(taken.text, 'user name already in use');
  const same = await app.request({ method: 'PUT', url: `/user/${kurt.id}/name`, headers: adminHeaders, payload: '"Kurt Cobain"' });
  assert.equal(same.status, 200);
  const wrongType = await app.request({ method: 'PUT', url: `/user/${kurt.id}/name`, headers: adminHeaders, payload: '12' });
  assert.equal(wrongType.status, 400);
  assert.match(wrongType.text, /^Invalid request body/);
});

test('PUT name and e-mail by another user is 401 and changes nothing', async () => {
  const app = await usersvcTestApp();
  const kurt = await app.addUser('kurt');
  const dave = await app.addUser('dave');
  for (const field of ['name', 'email']) {
    const response = await app.request({ method: 'PUT', url: `/user/${kurt.id}/${field}`, headers: dave.headers, payload: '"x@example.org"' });
    assert.equal(response.status, 401);
  }
  const name = await app.request({ method: 'GET', url: `/user/${kurt.id}/name`, headers: adminHeaders });
  assert.equal(name.body, 'kurt');
});

test('PUT email: changes the address; another user\'s address (any case) is 403; her own again is fine', async () => {
  const app = await usersvcTestApp();
  const kurt = await app.addUser('kurt', 'kurt@example.org');
  await app.addUser('dave', 'dave@example.org');
  const changed = await app.request({ method: 'PUT', url: `/user/${kurt.id}/email`, headers: kurt.headers, payload: '"cobain@nirvana.com"' });
  assert.equal(changed.status, 200);
  assert.deepEqual(changed.body, []);
  const email = await app.request({ method: 'GET', url: `/user/${kurt.id}/email`, headers: kurt.headers });
  assert.equal(email.body, 'cobain@nirvana.com');
  const taken = await app.request({ method: 'PUT', url: `/user/${kurt.id}/email`, headers: kurt.headers, payload: '"DAVE@example.org"' });
  assert.equal(taken.status, 403);
  assert.equal(taken.text, 'email already in use');
  const own = await app.request({ method: 'PUT', url: `/user/${kurt.id}/email`, headers: kurt.headers, payload: '"Cobain@Nirvana.com"' });
  assert.equal(own.status, 200);
  const invalid = await app.request({ method: 'PUT', url: `/user/${kurt.id}/email`, headers: kurt.headers, payload: '"nirvana"' });
  assert.equal(invalid.status, 400);
});

test('DELETE /user: the user deletes herself (204, empty), her session ends; another user may not', async () => {
  const app = await usersvcTestApp();
  const kurt = await app.addUser('kurt');
  const dave = await app.addUser('dave');
  const token = await app.openSession(kurt.headers, kurt.id);
  const refused = await app.request({ method: 'DELETE', url: `/user/${kurt.id}`, headers: dave.headers });
  assert.equal(refused.status, 401);
  const deleted = await app.request({ method: 'DELETE', url: `/user/${kurt.id}`, headers: kurt.headers });
  assert.equal(deleted.status, 204);
  assert.equal(deleted.text, '');
  const active = await app.request({ method: 'GET', url: `/session/${token}` });
  assert.equal(active.body, false);
  const list = await app.request({ method: 'GET', url: '/user', headers: adminHeaders });
  assert.deepEqual(list.body, [1, dave.id]);
  const byAdmin = await app.request({ method: 'DELETE', url: `/user/${dave.id}`, headers: adminHeaders });
  assert.equal(byAdmin.status, 204);
});

test('a unique-index violation from the database is recognised (the path taken when two renames race)', async () => {
  const app = await usersvcTestApp();
  const kurt = await app.addUser('kurt', 'kurt@example.org');
  await app.addUser('dave', 'dave@example.org');
  const violation = async (values: { name?: string; email?: string }) => {
    try {
      await app.db.update(usersvcUsers).set(values).where(eq(usersvcUsers.id, kurt.id));
    } catch (error) {
      return uniqueViolation(error);
    }
    return 'no error';
  };
  assert.equal(await violation({ name: 'dave' }), 'name');
  assert.equal(await violation({ email: 'DAVE@example.org' }), 'email');
});

test('wrong passwords are throttled like platform logins: after the limit, 429 with Retry-After even for the right one', async () => {
  const app = await usersvcTestApp({ loginFailureLimit: 3 });
  const anna = await app.addUser('anna');
  for (let i = 0; i < 3; i++) {
    const wrong = await app.request({ method: 'GET', url: `/user/${anna.id}/name`, headers: userHeaders('anna', 'wrong-password') });
    assert.equal(wrong.status, 401);
  }
  const blocked = await app.request({ method: 'GET', url: `/user/${anna.id}/name`, headers: anna.headers });
  assert.equal(blocked.status, 429);
  assert.equal(blocked.text, 'too many failed logins');
  assert.ok(Number(blocked.headers['retry-after']) > 0);
  const admin = await app.request({ method: 'GET', url: '/user', headers: adminHeaders, remoteAddress: '10.0.0.9' });
  assert.equal(admin.status, 200, 'another account from another address is not affected');
});
