import assert from 'node:assert/strict';
import { eq } from 'drizzle-orm';
import { test } from 'node:test';
import { usersvcServices } from '../../src/db/schema/usersvc.js';
import { adminHeaders, serviceHeaders, usersvcTestApp } from './helpers.js';

test('POST /service is open to anyone: 201 with [service id, service key], both random and URL-safe', async () => {
  const app = await usersvcTestApp();
  const response = await app.request({ method: 'POST', url: '/service' });
  assert.equal(response.status, 201);
  assert.match(String(response.headers['content-type']), /^application\/json/);
  const [id, key] = response.body as [string, string];
  assert.match(id, /^[A-Za-z0-9_-]{22,}$/);
  assert.match(key, /^[A-Za-z0-9_-]{22,}$/);
  const second = await app.addService();
  assert.notEqual(second.id, id);
  assert.notEqual(second.key, key);
});

test('only a hash of the service key is stored', async () => {
  const app = await usersvcTestApp();
  const service = await app.addService();
  const [row] = await app.db.select().from(usersvcServices).where(eq(usersvcServices.id, service.id));
  assert.notEqual(row.keyHash, service.key);
  assert.ok(!row.keyHash.includes(service.key));
});

test('GET /service lists the service ids, sorted, for the admin only', async () => {
  const app = await usersvcTestApp();
  const ids = [(await app.addService()).id, (await app.addService()).id, (await app.addService()).id];
  const listed = await app.request({ method: 'GET', url: '/service', headers: adminHeaders });
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body, [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  const kurt = await app.addUser('kurt');
  const service = await app.addService();
  for (const headers of [{}, kurt.headers, service.headers]) {
    const response = await app.request({ method: 'GET', url: '/service', headers });
    assert.equal(response.status, 401);
  }
});

test('a service authenticates with its id and key; a wrong key or unknown id is 401', async () => {
  const app = await usersvcTestApp();
  const service = await app.addService();
  const ok = await app.request({ method: 'GET', url: `/session/x/login/${service.id}`, headers: service.headers });
  assert.equal(ok.status, 200);
  for (const headers of [serviceHeaders(service.id, `${service.key}x`), serviceHeaders('unknown', service.key)]) {
    const response = await app.request({ method: 'POST', url: '/service', headers });
    assert.equal(response.status, 401);
    assert.equal(response.text, 'unauthorized');
  }
});
