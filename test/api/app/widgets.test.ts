import assert from 'node:assert/strict';
import { test } from 'node:test';
import { basicWorld, load } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { Browser } from '../../me/accounts/client.js';

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

const SITE = 'https://beteiligung.example.org';
const IDEA_COMMENTS = '/api/contenttypes/4/objects/1/comments/';

/** A signed-in browser session on an app whose BASE_URL is SITE, reached through a proxy from 127.0.0.1 (so X-Forwarded-Proto counts). */
async function signedIn() {
  const t = await createTestApp({ baseUrl: SITE, trustProxy: ['127.0.0.1'] });
  await load(t.db, { ...basicWorld(), ideas: [{ id: 1, module: 1, creator: 4, name: 'Idea', description: 'x' }] });
  const browser = new Browser(t.app);
  assert.equal((await browser.login('user', 'user-password')).status, 302);
  /** A JSON POST of a comment with the browser's cookies; `headers` add or replace the CSRF header and the origin headers. */
  const comment = (headers: Record<string, string>, cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ')) =>
    t.request({ method: 'POST', url: IDEA_COMMENTS, payload: { comment: 'Through the widget' }, headers: { cookie, 'x-csrftoken': browser.csrf, ...headers } });
  return { ...t, browser, comment };
}

test("CSRF: an unsafe request's Origin must be the site's, even with a valid token (Django 4)", async () => {
  const { comment } = await signedIn();
  assert.equal((await comment({ origin: SITE })).status, 201);
  assert.equal((await comment({})).status, 201, 'no Origin over HTTP: the token decides, as in Django');
  for (const origin of ['https://evil.example', 'https://sub.beteiligung.example.org', 'http://beteiligung.example.org', 'null']) {
    const refused = await comment({ origin });
    assert.equal(refused.status, 403, origin);
    assert.equal((refused.body as { detail: string }).detail, `CSRF Failed: Origin checking failed - ${origin} does not match any trusted origins.`);
  }
});

test('CSRF over HTTPS without Origin: the Referer must be of the site', async () => {
  const { comment } = await signedIn();
  const https = { 'x-forwarded-proto': 'https' };
  assert.equal((await comment({ ...https, referer: `${SITE}/org/ideas/2024-00001/` })).status, 201);
  assert.equal(((await comment(https)).body as { detail: string }).detail, 'CSRF Failed: Referer checking failed - no Referer.');
  assert.equal((await comment({ ...https, referer: 'https://evil.example/page' })).status, 403);
});

test('the CSRF cookie lives a year and is signed: a value made up elsewhere (a sibling subdomain) does not pass', async () => {
  const { request, comment, browser } = await signedIn();
  const page = await request({ method: 'GET', url: '/accounts/login/' });
  assert.match(String(page.headers['set-cookie']), /csrftoken=[\w-]{24}\.[\w-]{43}; Max-Age=31449600; Path=\//);
  const session = browser.cookies.get('sessionid') ?? '';
  for (const made of ['a'.repeat(32), `${'a'.repeat(24)}.${'b'.repeat(43)}`]) {
    const refused = await comment({ 'x-csrftoken': made }, `sessionid=${session}; csrftoken=${made}`);
    assert.equal(refused.status, 403, made);
    assert.equal((refused.body as { detail: string }).detail, 'CSRF Failed: CSRF cookie not set.');
  }
  assert.equal((await comment({})).status, 201, 'the real cookie still passes');
});

test('anonymous API requests without a session need no CSRF token (as DRF); token callers neither', async () => {
  const { request } = await signedIn();
  const login = await request({ method: 'POST', url: '/api/login/', payload: { username: 'user', password: 'user-password' }, headers: { origin: 'https://evil.example' } });
  assert.equal(login.status, 200);
  const token = (login.body as { token: string }).token;
  const posted = await request({ method: 'POST', url: IDEA_COMMENTS, payload: { comment: 'From the app' }, headers: { authorization: `Token ${token}`, origin: 'https://evil.example' } });
  assert.equal(posted.status, 201);
});
