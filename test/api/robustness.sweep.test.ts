import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApp } from '../helpers.js';
import { basicWorld, load, tokenHeader } from '../fixtures.js';

interface OpenApi {
  paths: Record<string, Record<string, unknown>>;
}

const BAD_IDS = ['abc', '0', '-1', '99999999999', '1.5', '%00', "1'--"];
const BAD_BODIES: { type: string; payload: string }[] = [
  { type: 'application/json', payload: '{"broken": ' },
  { type: 'application/json', payload: '[1, 2, 3]' },
  { type: 'application/json', payload: '"just a string"' },
  { type: 'application/json', payload: JSON.stringify({ name: 123, description: ['x'], comment: { a: 1 }, value: 'high', category: 'abc', labels: 'x', is_blocked: 'maybe', feedback_text: 7, content_type: 'x', object_pk: 'y', username: 5, password: null, refresh: 1, token: [] }) },
  { type: 'application/json', payload: JSON.stringify({ name: 'a\u0000b', description: 'nul\u0000', comment: 'nul\u0000', feedback_text: '\u0000', username: '\u0000', password: '\u0000' }) },
  { type: 'application/json', payload: JSON.stringify({ name: 'x'.repeat(100_000), description: 'y'.repeat(100_000), comment: 'z'.repeat(100_000) }) },
  { type: 'application/x-www-form-urlencoded', payload: 'name=%ZZ&category=abc&labels=x&labels=y' },
  { type: 'multipart/form-data; boundary=xyz', payload: '--xyz\r\nContent-Disposition: form-data; name="name"\r\n\r\nbroken' },
  { type: 'text/plain', payload: 'hello' },
];

/** Every API route, with hostile ids and bodies, as anonymous and as a signed-in user: never a 5xx. */
test('no API route answers a server error to bad input', { timeout: 600_000 }, async () => {
  const { db, request } = await createTestApp();
  await load(db, { ...basicWorld(), ideas: [{ id: 1, module: 1, creator: 5, name: 'Idea', description: 'x', category: 1 }], comments: [{ id: 1, creator: 6, target: { type: 'idea', id: 1 }, comment: 'c' }] });
  const schema = (await request({ method: 'GET', url: '/api/schema/' })).body as OpenApi;
  const paths = Object.keys(schema.paths).filter((path) => path.startsWith('/api/'));
  assert.ok(paths.length >= 15, `the OpenAPI document lists the API (${paths.length} paths)`);
  const callers = [{}, await tokenHeader(db, 5), await tokenHeader(db, 1)];
  const failures: string[] = [];
  for (const path of paths) {
    // The live channel's event streams (…/live/) never end by themselves: test/features/interactiveevents/live.test.ts and test/features/moderation/live-queue.test.ts hold them over real connections.
    const methods = Object.keys(schema.paths[path]).map((m) => m.toUpperCase()).filter((m) => m !== 'HEAD' && !(m === 'GET' && path.endsWith('/live/')));
    const urls = new Set([path.replace(/\{[^}]+\}/g, '1')]);
    for (const id of BAD_IDS) urls.add(path.replace(/\{[^}]+\}/g, encodeURIComponent(id)));
    for (const url of urls) {
      for (const method of methods) {
        for (const headers of callers) {
          const bodies = method === 'GET' || method === 'DELETE' ? [null] : BAD_BODIES;
          for (const body of bodies) {
            const response = await request({
              method: method as 'GET',
              url,
              headers: body ? { ...headers, 'content-type': body.type } : headers,
              ...(body ? { payload: body.payload } : {}),
            });
            if (response.status >= 500) failures.push(`${method} ${url} ${body?.type ?? ''} ${body?.payload.slice(0, 40) ?? ''} → ${response.status} ${response.text.slice(0, 120)}`);
          }
        }
      }
    }
  }
  assert.deepEqual(failures, []);
});

const PAGE_PATHS = [
  '/', '/org/', '/nope/', '/org/ideas/2026-00001/', '/org/ideas/9999-99999/', '/org/ideas/abc/', '/org/projects/project/', '/org/projects/project/follow/',
  '/org/projects/nope/', '/org/projects/module/module-1/', '/account/', '/account/account_deletion/', '/accounts/confirm-email/abc/', '/accounts/login/',
  '/accounts/logout/', '/accounts/oidc/nope/login/', '/accounts/oidc/nope/login/callback/', '/accounts/password/change/', '/accounts/password/reset/',
  '/accounts/password/reset/done/', '/accounts/password/reset/key/abc/', '/accounts/signup/', '/accounts/guest/', '/accounts/guest/convert/', '/profile/user/', '/profile/%00/', '/userdashboard/',
  '/userdashboard/moderation/', '/userdashboard/moderation/detail/project/', '/userdashboard/moderation/detail/project/comments/abc/',
  '/userdashboard/overview/', '/userdashboard/overview/activities/?before=abc', '/userdashboard/overview/following/', '/i18n/setlang/',
];

/** Every page, read and posted to with hostile bodies, signed in (session) or not: never a 5xx. */
test('no page answers a server error to bad input', { timeout: 600_000 }, async () => {
  const { db, request } = await createTestApp();
  await load(db, { ...basicWorld(), ideas: [{ id: 1, module: 1, creator: 5, name: 'Idea', description: 'x', category: 1, created: '2026-01-02T00:00:00Z' }] });
  const page = await request({ method: 'GET', url: '/accounts/login/' });
  const csrf = /csrftoken=([^;]+)/.exec(String(page.headers['set-cookie']))?.[1] ?? '';
  const login = await request({
    method: 'POST',
    url: '/accounts/login/',
    headers: { cookie: `csrftoken=${csrf}`, 'content-type': 'application/x-www-form-urlencoded' },
    payload: `login=moderator&password=moderator-password&csrfmiddlewaretoken=${csrf}`,
  });
  const session = /sessionid=([^;]+)/.exec(String(login.headers['set-cookie']))?.[1];
  assert.ok(session, 'signed in');
  const callers = [{ cookie: `csrftoken=${csrf}` }, { cookie: `csrftoken=${csrf}; sessionid=${session}`, 'x-csrftoken': csrf }];
  const failures: string[] = [];
  for (const url of PAGE_PATHS) {
    for (const headers of callers) {
      const get = await request({ method: 'GET', url, headers: { ...headers, accept: 'text/html' } });
      if (get.status >= 500) failures.push(`GET ${url} → ${get.status}`);
      for (const body of BAD_BODIES) {
        const post = await request({ method: 'POST', url, headers: { ...headers, accept: 'text/html', 'content-type': body.type }, payload: body.payload });
        if (post.status >= 500) failures.push(`POST ${url} ${body.type} ${body.payload.slice(0, 40)} → ${post.status} ${post.text.slice(0, 200)}`);
      }
    }
  }
  assert.deepEqual(failures, []);
});
