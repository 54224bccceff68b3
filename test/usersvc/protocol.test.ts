import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adminHeaders, usersvcTestApp } from './helpers.js';

test('any other combination of X-Thentos-* headers is 400 "bad authentication headers"', async () => {
  const app = await usersvcTestApp();
  const combinations = [
    { 'x-thentos-password': 'pw' },
    { 'x-thentos-user': 'root' },
    { 'x-thentos-service': 'svc' },
    { 'x-thentos-user': 'root', 'x-thentos-service': 'svc', 'x-thentos-password': 'pw' },
    { 'x-thentos-session': 'token', 'x-thentos-password': 'pw' },
    { 'x-thentos-session': 'token', 'x-thentos-service': 'svc' },
  ];
  for (const headers of combinations) {
    for (const [method, url] of [['GET', '/user'], ['POST', '/service'], ['GET', '/session/abc']] as const) {
      const response = await app.request({ method, url, headers });
      assert.equal(response.status, 400, `${method} ${url} ${JSON.stringify(headers)}`);
      assert.equal(response.text, 'bad authentication headers');
    }
  }
});

test('an unknown path under the service is a plain-text 404 "not found"; the platform keeps its JSON 404', async () => {
  const app = await usersvcTestApp();
  for (const url of ['/user/1/password', '/session/a/b', '/service/x', '/user/', '/session/', '/session/a/login/b/c']) {
    const response = await app.request({ method: 'GET', url, headers: adminHeaders });
    assert.equal(response.status, 404, url);
    assert.equal(response.text, 'not found');
    assert.match(String(response.headers['content-type']), /^text\/plain/);
  }
  const platform = await app.request({ method: 'GET', url: '/users/1/2/3/' });
  assert.equal(platform.status, 404);
  assert.deepEqual(platform.body, { detail: 'Not found.' });
});

test('a known path with a wrong method is 405 "method not allowed"', async () => {
  const app = await usersvcTestApp();
  const cases = [
    ['PUT', '/user'],
    ['DELETE', '/user'],
    ['GET', '/session'],
    ['POST', '/user/1'],
    ['POST', '/user/1/name'],
    ['PUT', '/session/abc'],
    ['PUT', '/session/abc/login/svc'],
    ['PATCH', '/service'],
  ] as const;
  for (const [method, url] of cases) {
    const response = await app.request({ method, url, headers: adminHeaders });
    assert.equal(response.status, 405, `${method} ${url}`);
    assert.equal(response.text, 'method not allowed');
    assert.ok(response.headers.allow);
  }
});

test('bodies are JSON whatever the Content-Type, and any JSON value is accepted at the top level', async () => {
  const app = await usersvcTestApp();
  const kurt = await app.addUser('kurt');
  for (const contentType of [undefined, 'application/json', 'application/x-www-form-urlencoded', 'text/plain']) {
    const headers: Record<string, string> = { ...kurt.headers, ...(contentType ? { 'content-type': contentType } : {}) };
    const session = await app.request({ method: 'POST', url: '/session', headers, payload: String(kurt.id) });
    assert.equal(session.status, 201, contentType);
    const name = await app.request({ method: 'PUT', url: `/user/${kurt.id}/name`, headers, payload: '"kurt"' });
    assert.equal(name.status, 200, contentType);
  }
  const broken = await app.request({ method: 'PUT', url: `/user/${kurt.id}/name`, headers: kurt.headers, payload: '"kurt' });
  assert.equal(broken.status, 400);
  assert.equal(broken.text, 'Invalid JSON in request body');
});

test('successful answers: GET/PUT 200, POST 201, DELETE 204 with an empty body', async () => {
  const app = await usersvcTestApp();
  const kurt = await app.addUser('kurt');
  const token = await app.openSession(kurt.headers, kurt.id);
  const put = await app.request({ method: 'PUT', url: `/user/${kurt.id}/email`, headers: kurt.headers, payload: '"k@example.org"' });
  assert.equal(put.status, 200);
  const post = await app.request({ method: 'POST', url: `/session/${token}/login/s`, headers: kurt.headers });
  assert.equal(post.status, 201);
  const del = await app.request({ method: 'DELETE', url: `/session/${token}`, headers: kurt.headers });
  assert.equal(del.status, 204);
  assert.equal(del.text, '');
});

test('HEAD works where GET does', async () => {
  const app = await usersvcTestApp();
  const response = await app.request({ method: 'HEAD', url: '/session/abc' });
  assert.equal(response.status, 200);
});

test('the service\'s routes are in the OpenAPI document', async () => {
  const app = await usersvcTestApp();
  const response = await app.request({ method: 'GET', url: '/api/schema/' });
  const paths = Object.keys((response.body as { paths: Record<string, unknown> }).paths);
  for (const path of ['/user', '/user/{userid}/name', '/session/{token}/login/{sid}', '/service']) assert.ok(paths.includes(path), path);
});
