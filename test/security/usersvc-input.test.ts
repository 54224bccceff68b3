import assert from 'node:assert/strict';
import { test } from 'node:test';
import { usersvcLogins, usersvcUsers } from '../../src/db/schema/usersvc.js';
import { adminHeaders, sessionHeaders, usersvcTestApp } from '../usersvc/helpers.js';

test('F12: NUL bytes in user/session-service e-mail, token and service-id fields are 4xx and store nothing', async () => {
  const app = await usersvcTestApp();
  const kurt = await app.addUser('Kurt');
  const token = await app.openSession(kurt.headers, kurt.id);
  const usersBefore = await app.db.select().from(usersvcUsers);

  const created = await app.request({ method: 'POST', url: '/user', headers: adminHeaders, payload: { udName: 'Nul', udEmail: 'nul\u0000@example.org', udPassword: 'a-long-password' } });
  assert.equal(created.status, 400);
  const changed = await app.request({ method: 'PUT', url: `/user/${kurt.id}/email`, headers: adminHeaders, payload: JSON.stringify('kurt\u0000@example.org') });
  assert.equal(changed.status, 400);
  assert.deepEqual(await app.db.select().from(usersvcUsers), usersBefore);

  for (const [method, url, headers] of [
    ['GET', '/session/%00abc', {}],
    ['DELETE', '/session/%00abc', adminHeaders],
    ['POST', '/session/%00abc/login/service', adminHeaders],
    ['GET', '/session/%00abc/login/service', adminHeaders],
    ['POST', `/session/${token}/login/svc%00`, sessionHeaders(token)],
    ['DELETE', `/session/${token}/login/svc%00`, sessionHeaders(token)],
  ] as const) {
    const response = await app.request({ method, url, headers });
    assert.ok(response.status >= 400 && response.status < 500, `${method} ${url}: ${response.status} ${response.text}`);
  }
  assert.deepEqual(await app.db.select().from(usersvcLogins), []);
});
