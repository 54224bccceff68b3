import assert from 'node:assert/strict';
import { test } from 'node:test';
import { basicWorld, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

/**
 * What adhocracy4's and adhocracy+'s own web widgets need of the transport: addresses without the
 * trailing slash (their login links), and CSRF as Django checks it.
 */

/** One app for the file: these tests change no data. */
const world = setup();

async function setup() {
  const t = await createTestApp();
  await load(t.db, basicWorld());
  return t;
}

test('GET and HEAD of an address without its trailing slash: 301 to the slashed address where it exists, query kept', async () => {
  const { request } = await world;
  for (const method of ['GET', 'HEAD'] as const) {
    const login = await request({ method, url: '/accounts/login?next=/org/projects/project/' });
    assert.equal(login.status, 301, method);
    assert.equal(login.headers.location, '/accounts/login/?next=/org/projects/project/');
    const project = await request({ method, url: '/org/projects/project' });
    assert.equal(project.status, 301);
    assert.equal(project.headers.location, '/org/projects/project/');
  }
  assert.equal((await request({ method: 'GET', url: '/accounts/login/?next=/x/' })).status, 200, 'the slashed address itself answers');
  assert.equal((await request({ method: 'GET', url: '/accounts/login/nothing/here' })).status, 404, 'no route with the slash either');
  assert.equal((await request({ method: 'GET', url: '/static/favicon.svg' })).status, 200, 'files keep their names');
});

test('never a redirect for other methods (their bodies would be lost), nor to another host', async () => {
  const { request } = await world;
  const post = await request({ method: 'POST', url: '/accounts/login', payload: 'login=a&password=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(post.status, 404);
  assert.equal(post.headers.location, undefined);
  for (const url of ['//evil.example', '//evil.example/org', '/\\evil.example']) {
    const answer = await request({ method: 'GET', url });
    assert.ok(!String(answer.headers.location ?? '').startsWith('//'), `${url} → ${String(answer.headers.location)}`);
  }
});
