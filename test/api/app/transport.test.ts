import assert from 'node:assert/strict';
import { test } from 'node:test';
import { basicWorld, load, tokenHeader } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';

/** The headers the adhocracy+ app sends on every request, with or without a body. */
const APP_HEADERS = { accept: 'application/json', 'content-type': 'application/json', 'accept-language': 'de' };

/** One app for the file: the tests run in order and only the DELETE test changes data. */
const world = setup();

async function setup() {
  const t = await createTestApp();
  await load(t.db, {
    ...basicWorld(),
    ideas: [
      { id: 1, module: 1, creator: 5, name: 'Idea', description: 'x', category: 1 },
      { id: 2, module: 1, creator: 5, name: 'Second', description: 'y', category: 1 },
      { id: 3, module: 1, creator: 5, name: 'Third', description: 'z', category: 1 },
    ],
    comments: [{ id: 1, creator: 5, target: { type: 'idea', id: 1 }, comment: 'c' }],
  });
  return t;
}

interface OpenApi {
  paths: Record<string, Record<string, unknown>>;
}

test('every API route answers the same without its trailing slash, for every method, and an empty JSON body is no body', async () => {
  const { request } = await world;
  const schema = (await request({ method: 'GET', url: '/api/schema/' })).body as OpenApi;
  const paths = Object.keys(schema.paths).filter((path) => path.startsWith('/api/') && path.endsWith('/'));
  assert.ok(paths.length >= 15, `the OpenAPI document lists the API (${paths.length} paths)`);
  const differences: string[] = [];
  for (const path of paths) {
    const url = path.replace(/\{[^}]+\}/g, '1');
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      // Anonymous callers change nothing, so both forms must give exactly the same answer.
      const slashed = await request({ method, url, headers: APP_HEADERS, payload: '' });
      const bare = await request({ method, url: url.slice(0, -1), headers: APP_HEADERS, payload: '' });
      const answer = (r: typeof slashed) => `${r.status} ${r.text}`;
      if (answer(bare) !== answer(slashed)) differences.push(`${method} ${url}: ${answer(slashed)} but without the slash ${answer(bare)}`);
      if (/JSON parse error/.test(slashed.text)) differences.push(`${method} ${url}: an empty JSON body was refused`);
    }
  }
  assert.deepEqual(differences, []);
});

test('a DELETE with Content-Type application/json and no body deletes an idea and removes a comment', async () => {
  const { db, request } = await world;
  const headers = { ...APP_HEADERS, ...(await tokenHeader(db, 5)) };
  assert.equal((await request({ method: 'DELETE', url: '/api/modules/1/ideas/2/', headers })).status, 204);
  assert.equal((await request({ method: 'DELETE', url: '/api/modules/1/ideas/3', headers, payload: '' })).status, 204);
  const comment = await request({ method: 'DELETE', url: '/api/contenttypes/4/objects/1/comments/1/', headers: { ...APP_HEADERS, ...(await tokenHeader(db, 3)) } });
  assert.equal(comment.status, 200, comment.text);
  assert.equal((comment.body as { is_censored: boolean }).is_censored, true);
});

test('GET with Content-Type application/json and no body, and a deep link without the slash', async () => {
  const { db, request } = await world;
  const headers = { ...APP_HEADERS, ...(await tokenHeader(db, 5)) };
  const project = await request({ method: 'GET', url: '/api/app-projects/project', headers });
  assert.equal(project.status, 200);
  assert.equal((project.body as { slug: string }).slug, 'project');
  const withQuery = await request({ method: 'GET', url: '/api/modules/1/ideas?ordering=x', headers });
  assert.equal(withQuery.status, 200);
  assert.equal((await request({ method: 'GET', url: '/api/app-projects/nope', headers })).status, 404);
});

test('a write with an empty JSON body gets field errors, a broken one still a parse error', async () => {
  const { db, request } = await world;
  const headers = { ...APP_HEADERS, ...(await tokenHeader(db, 5)) };
  const empty = await request({ method: 'POST', url: '/api/modules/1/ideas', headers, payload: '' });
  assert.equal(empty.status, 400);
  assert.deepEqual((empty.body as Record<string, string[]>).name, ['This field is required.']);
  const broken = await request({ method: 'POST', url: '/api/modules/1/ideas/', headers, payload: '{"name": ' });
  assert.equal(broken.status, 400);
  assert.match(broken.text, /JSON parse error/);
  const proto = await request({ method: 'POST', url: '/api/modules/1/ideas/', headers, payload: '{"__proto__": {"x": 1}, "name": "a"}' });
  assert.equal(proto.status, 400);
});

test('paths outside the API and paths that exist without a slash keep their own routes', async () => {
  const { request } = await world;
  assert.equal((await request({ method: 'POST', url: '/api/login', payload: { username: 'user', password: 'user-password' } })).status, 200);
  assert.equal((await request({ method: 'GET', url: '/api/nope' })).status, 404);
  // Outside the API a path without its slash is not served in place: Django's APPEND_SLASH sends a GET there (test/app/widgets.test.ts).
  const page = await request({ method: 'GET', url: '/accounts/login' });
  assert.deepEqual([page.status, page.headers.location], [301, '/accounts/login/']);
});
