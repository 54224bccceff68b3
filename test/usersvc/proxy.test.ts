import assert from 'node:assert/strict';
import { eq, sql } from 'drizzle-orm';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { usersvcSessions } from '../../src/db/schema/usersvc.js';
import { adminHeaders, sessionHeaders, usersvcTestApp } from './helpers.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real upstream on loopback that records what reached it and answers 418 with a header and a body. */
async function upstream(): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(418, { 'content-type': 'text/plain', 'x-upstream': 'yes' });
      response.end(`upstream says hello to ${request.url}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function proxyApp(targets: Record<string, string>) {
  const app = await usersvcTestApp({ usersvcProxyTargets: targets });
  const kurt = await app.addUser('Kurt Cobain');
  const token = await app.openSession(kurt.headers, kurt.id);
  return { app, kurt, token };
}

test('without configured targets /proxy-test answers 404 "proxying not activated"', async () => {
  const app = await usersvcTestApp();
  for (const method of ['GET', 'POST'] as const) {
    const response = await app.request({ method, url: '/proxy-test/anything', headers: adminHeaders });
    assert.equal(response.status, 404);
    assert.equal(response.text, 'proxying not activated');
  }
});

test('the proxy forwards method, sub-path, query and body, adds the user and strips client X-Thentos-* headers', async () => {
  const target = await upstream();
  const { app, token } = await proxyApp({ helloworld: target.url });
  const response = await app.request({
    method: 'POST',
    url: '/proxy-test/some/path?x=1&y=two',
    headers: { ...sessionHeaders(token), 'content-type': 'application/json', 'x-custom': 'dropped', 'x-thentos-user': 'mallory', 'x-thentos-groups': '["admin"]' },
    payload: '{"hello": "world"}',
  });
  assert.equal(response.status, 418);
  assert.equal(response.headers['x-upstream'], 'yes');
  assert.equal(response.text, 'upstream says hello to /proxy-test/some/path?x=1&y=two');
  const [seen] = target.seen;
  assert.equal(seen.method, 'POST');
  assert.equal(seen.url, '/proxy-test/some/path?x=1&y=two');
  assert.equal(seen.body, '{"hello": "world"}');
  assert.equal(seen.headers['content-type'], 'application/json');
  assert.equal(seen.headers['x-custom'], undefined, 'only the headers the contract names are forwarded');
  assert.equal(seen.headers['x-thentos-user'], 'Kurt Cobain');
  assert.equal(seen.headers['x-thentos-groups'], '[]');
  assert.equal(seen.headers['x-thentos-session'], undefined);
});

test('the proxy serves /proxy-test itself and any method', async () => {
  const target = await upstream();
  const { app, token } = await proxyApp({ helloworld: target.url });
  for (const method of ['GET', 'PUT', 'DELETE', 'PATCH'] as const) {
    const response = await app.request({ method, url: '/proxy-test', headers: sessionHeaders(token) });
    assert.equal(response.status, 418, method);
  }
  assert.deepEqual(
    target.seen.map((s) => `${s.method} ${s.url}`),
    ['GET /proxy-test', 'PUT /proxy-test', 'DELETE /proxy-test', 'PATCH /proxy-test'],
  );
});

test('the proxy needs an active session: none, unknown or expired is 404 "session not found" and nothing is forwarded', async () => {
  const target = await upstream();
  const { app, token } = await proxyApp({ helloworld: target.url });
  await app.db.update(usersvcSessions).set({ endsAt: sql`now() - interval '1 second'` }).where(eq(usersvcSessions.token, token));
  for (const headers of [{}, sessionHeaders('unknown'), sessionHeaders(token), { 'x-thentos-user': 'Kurt Cobain' }]) {
    const response = await app.request({ method: 'GET', url: '/proxy-test/x', headers });
    assert.equal(response.status, 404);
    assert.equal(response.text, 'session not found');
  }
  assert.equal(target.seen.length, 0);
});

test('with several targets the service is chosen by X-Thentos-Service', async () => {
  const one = await upstream();
  const two = await upstream();
  const { app, token } = await proxyApp({ one: one.url, two: two.url });
  const missing = await app.request({ method: 'GET', url: '/proxy-test/', headers: sessionHeaders(token) });
  assert.equal(missing.status, 404);
  assert.equal(missing.text, 'headers do not contain service id');
  const unknown = await app.request({ method: 'GET', url: '/proxy-test/', headers: { ...sessionHeaders(token), 'x-thentos-service': 'three' } });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.text, 'proxy not configured for service three');
  const response = await app.request({ method: 'GET', url: '/proxy-test/a', headers: { ...sessionHeaders(token), 'x-thentos-service': 'two' } });
  assert.equal(response.status, 418);
  assert.equal(one.seen.length, 0);
  assert.equal(two.seen.length, 1);
  assert.equal(two.seen[0].headers['x-thentos-service'], undefined);
});

test('a target with a base path keeps it in front of the original path', async () => {
  const target = await upstream();
  const { app, token } = await proxyApp({ helloworld: `${target.url}/base/` });
  await app.request({ method: 'GET', url: '/proxy-test/x?q=1', headers: sessionHeaders(token) });
  assert.equal(target.seen[0].url, '/base/proxy-test/x?q=1');
});

test('a proxied request extends the session', async () => {
  const target = await upstream();
  const { app, token } = await proxyApp({ helloworld: target.url });
  await app.db.update(usersvcSessions).set({ endsAt: sql`now() + interval '10 seconds'` }).where(eq(usersvcSessions.token, token));
  await app.request({ method: 'GET', url: '/proxy-test/x', headers: sessionHeaders(token) });
  const [row] = await app.db.select().from(usersvcSessions).where(eq(usersvcSessions.token, token));
  assert.ok(row.endsAt.getTime() - Date.now() > 24 * 3600 * 1000);
});

test('an unreachable upstream is 502', async () => {
  const target = await upstream();
  const { app, token } = await proxyApp({ helloworld: 'http://127.0.0.1:1' });
  const response = await app.request({ method: 'GET', url: '/proxy-test/x', headers: sessionHeaders(token) });
  assert.equal(response.status, 502);
  assert.equal(response.text, 'proxy target not reachable');
  assert.equal(target.seen.length, 0);
});

test('a user name beyond Latin-1 reaches the upstream as UTF-8 bytes', async () => {
  const target = await upstream();
  const app = await usersvcTestApp({ usersvcProxyTargets: { helloworld: target.url } });
  const user = await app.addUser('Jürgen 李', 'juergen@example.org');
  const token = await app.openSession(user.headers, user.id);
  const response = await app.request({ method: 'GET', url: '/proxy-test', headers: sessionHeaders(token) });
  assert.equal(response.status, 418);
  const raw = String(target.seen[0].headers['x-thentos-user']);
  assert.equal(Buffer.from(raw, 'latin1').toString('utf8'), 'Jürgen 李');
});

/** Sends a raw request line to a listening app (no client-side path normalisation). */
function rawRequest(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, method: 'GET', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: response.headers }));
    });
    request.on('error', reject);
    request.end();
  });
}

test('F6: the proxied path cannot leave the target base path, not with .. nor with its encodings', async () => {
  const target = await upstream();
  const { app, token } = await proxyApp({ helloworld: `${target.url}/base/` });
  await app.app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.app.server.address() as AddressInfo).port;
  const tricks = [
    '/proxy-test/../../admin',
    '/proxy-test/../admin',
    '/proxy-test/%2e%2e/%2e%2e/admin',
    '/proxy-test/%2E%2E/admin',
    '/proxy-test/.%2e/admin',
    '/proxy-test/%252e%252e/admin',
    '/proxy-test/..%2fadmin',
    '/proxy-test/..%5cadmin',
    '/proxy-test/..\\admin',
    '/proxy-test/x/../../../admin?q=1',
  ];
  for (const path of tricks) {
    const response = await rawRequest(port, path, sessionHeaders(token));
    assert.equal(response.status, 400, path);
    assert.equal(response.body, 'invalid path');
  }
  assert.equal(target.seen.length, 0, 'nothing reached the upstream');
  const fine = await rawRequest(port, '/proxy-test/a.b/..c/%2e%2ex?q=..', sessionHeaders(token));
  assert.equal(fine.status, 418);
  assert.equal(target.seen[0].url, '/base/proxy-test/a.b/..c/%2e%2ex?q=..');
});

test('F7: the platform\'s cookies and Authorization never reach the upstream, and its Set-Cookie never comes back', async () => {
  const seen: IncomingHttpHeaders[] = [];
  const server = http.createServer((request, response) => {
    seen.push(request.headers);
    response.writeHead(200, { 'content-type': 'text/plain', 'set-cookie': ['sessionid=evil; Path=/', 'csrftoken=evil; Path=/'], etag: '"v1"' });
    response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { app, token } = await proxyApp({ helloworld: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  const response = await app.request({
    method: 'GET',
    url: '/proxy-test/x',
    headers: {
      ...sessionHeaders(token),
      cookie: 'sessionid=platform-session; csrftoken=platform-csrf',
      authorization: 'Token 0123456789abcdef0123456789abcdef01234567',
      'proxy-authorization': 'Basic eDp5',
      'x-forwarded-for': '10.0.0.1',
      accept: 'text/plain',
      'accept-language': 'de',
      'if-none-match': '"v0"',
    },
  });
  assert.equal(response.status, 200);
  assert.equal(response.headers['set-cookie'], undefined);
  assert.equal(response.headers.etag, '"v1"');
  const [headers] = seen;
  for (const name of ['cookie', 'authorization', 'proxy-authorization', 'x-forwarded-for', 'x-thentos-session']) assert.equal(headers[name], undefined, name);
  assert.equal(headers.accept, 'text/plain');
  assert.equal(headers['accept-language'], 'de');
  assert.equal(headers['if-none-match'], '"v0"');
  assert.equal(headers['x-thentos-user'], 'Kurt Cobain');
});
