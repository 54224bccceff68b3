import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { desc } from 'drizzle-orm';
import { ConfigError, loadConfig } from '../../src/config.js';
import { outbox } from '../../src/db/schema/index.js';
import { Browser, lastMail } from '../me/accounts/client.js';
import { basicWorld, load, tokenHeader } from '../fixtures.js';
import { createTestApp } from '../helpers.js';
import { programArgs } from '../processes.js';

const EVIL = { host: 'evil.example' };

async function world() {
  const t = await createTestApp();
  const base = basicWorld();
  await load(t.db, { ...base, ideas: [{ id: 1, module: 1, creator: 4, name: 'Idea', description: 'An idea' }] });
  return t;
}

const urlsIn = (text: string) => [...text.matchAll(/https?:\/\/[^\s"<>]+/g)].map((m) => m[0]);

test('F2: reset, confirmation and account-exists mails link to BASE_URL, whatever Host the request names', async () => {
  const { app, db, config } = await world();
  const browser = new Browser(app, EVIL);
  await browser.post('/accounts/password/reset/', { email: 'user@example.org' });
  await browser.post('/accounts/signup/', { username: 'newbie', email: 'newbie@example.org', password1: 'a-long-secret', password2: 'a-long-secret', terms_of_use: 'on' });
  await browser.post('/accounts/signup/', { username: 'again', email: 'user@example.org', password1: 'a-long-secret', password2: 'a-long-secret', terms_of_use: 'on' });
  const mails = await db.select().from(outbox).orderBy(desc(outbox.id));
  assert.ok(mails.length >= 3, 'reset, confirmation and account-exists mails were queued');
  const links = mails.flatMap((mail) => urlsIn(mail.body));
  assert.ok(links.length >= 3);
  for (const link of links) assert.ok(link.startsWith(`${config.baseUrl}/`), link);
  assert.ok(!mails.some((mail) => mail.body.includes('evil.example')));
});

test('F2: notices link to BASE_URL, not to the Host of the request that caused them', async () => {
  const { request, db, config } = await world();
  const response = await request({ method: 'POST', url: '/api/contenttypes/4/objects/1/comments/', headers: { ...EVIL, ...(await tokenHeader(db, 5)) }, payload: { comment: 'A comment' } });
  assert.equal(response.status, 201);
  const notice = await lastMail(db, 'member@example.org');
  assert.ok(notice, 'the idea creator got a notice');
  assert.doesNotMatch(notice.body, /evil\.example/);
  assert.ok(notice.body.includes(`${config.baseUrl}/`));
});

test('F2: without BASE_URL, links use the configured listen address, never the request Host', async () => {
  const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: mkdtempSync(join(tmpdir(), 'allmende-cfg-')), HOST: '127.0.0.1', PORT: '8123' });
  assert.equal(config.baseUrl, 'http://127.0.0.1:8123');
  assert.equal(loadConfig({ NODE_ENV: 'development', DATA_DIR: config.dataDir, HOST: '0.0.0.0', PORT: '80' }).baseUrl, 'http://localhost:80');
  rmSync(config.dataDir, { recursive: true, force: true });
  const { app, db } = await world();
  await new Browser(app, EVIL).post('/accounts/password/reset/', { email: 'user@example.org' });
  const mail = await lastMail(db, 'user@example.org');
  assert.ok(mail);
  assert.doesNotMatch(mail.body, /evil\.example/);
  assert.match(mail.body, /http:\/\/localhost(:80)?\/accounts\/password\/reset\/key\//);
});

test('F2: in production the server refuses to start without BASE_URL, with a one-line reason', () => {
  const secret = 'x'.repeat(40);
  assert.throws(() => loadConfig({ NODE_ENV: 'production', SECRET_KEY: secret }), (error: unknown) => error instanceof ConfigError && /BASE_URL must be set/.test(error.message));
  assert.equal(loadConfig({ NODE_ENV: 'production', SECRET_KEY: secret, BASE_URL: 'https://b.example/' }).baseUrl, 'https://b.example');
  const dataDir = mkdtempSync(join(tmpdir(), 'allmende-prod-'));
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', SECRET_KEY: secret, DATA_DIR: dataDir, PORT: '0' };
    delete env.BASE_URL;
    const run = spawnSync(process.execPath, programArgs('main'), { env, encoding: 'utf8', timeout: 300_000 });
    assert.equal(run.status, 2);
    const lines = run.stderr.trim().split('\n').filter((line) => !/ExperimentalWarning|--trace-warnings/.test(line));
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0], /^Configuration error: BASE_URL must be set when NODE_ENV=production/);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** Every variant of "leave the site" found by the probe and its relatives. */
const OFFSITE = [
  '/%09/evil.example/',
  '/\t/evil.example/',
  '/%0a/evil.example/',
  '/%0d%0a/evil.example/',
  '//evil.example/',
  '///evil.example/',
  '/\\evil.example/',
  '/%5Cevil.example/',
  '/%2F%2Fevil.example/',
  '%2F%2Fevil.example/',
  '/%2Fevil.example/',
  '/%252F%252Fevil.example/',
  '/%EF%BC%8Fevil.example/',
  '/／evil.example/',
  'https://evil.example/',
  'evil.example',
  '/。evil.example',
  '/%00',
  '/\0',
  '/%',
  ' //evil.example/',
];

const nextParam = (next: string) => encodeURIComponent(next).replace(/%25/g, '%');

test('F3: login and signup (GET, signed in) never redirect off-site and never answer 5xx, whatever next says', async () => {
  const { app } = await world();
  const browser = new Browser(app);
  await browser.login('user', 'user-password');
  for (const next of OFFSITE) {
    for (const url of ['/accounts/login/', '/accounts/signup/'].flatMap((form) => [`${form}?next=${nextParam(next)}`, `${form}?next=${encodeURIComponent(next)}`])) {
      const response = await browser.get(url);
      assert.equal(response.status, 302, url);
      assert.equal(response.location, '/userdashboard/overview/', url);
    }
  }
  assert.equal((await browser.get('/accounts/login/?next=/profile/user/%3Ftab%3Da%2520b')).location, '/profile/user/?tab=a%20b');
});

test('F3: the login form (anonymous GET) keeps only a same-origin next', async () => {
  const { app } = await world();
  for (const next of OFFSITE) {
    const response = await new Browser(app).get(`/accounts/login/?next=${nextParam(next)}`);
    assert.equal(response.status, 200, next);
    assert.match(response.text, /name="next" value="\/userdashboard\/overview\/"/, next);
  }
});

test('F3: login (POST) and the language switch follow only same-origin paths', async () => {
  const { app } = await world();
  for (const next of OFFSITE) {
    const login = await new Browser(app).post('/accounts/login/', { login: 'user', password: 'user-password', next });
    assert.equal(login.status, 302, next);
    assert.equal(login.location, '/userdashboard/overview/', next);
    const switched = await new Browser(app).post('/i18n/setlang/', { language: 'de', next });
    assert.equal(switched.status, 302, next);
    assert.equal(switched.location, '/', next);
  }
  const kept = await new Browser(app).post('/i18n/setlang/', { language: 'de', next: '/org/projects/project/?page=2' });
  assert.equal(kept.location, '/org/projects/project/?page=2');
});

test('F18: an Authorization header of an unknown scheme is 401, also where anonymous callers may read', async () => {
  const { request, db } = await world();
  const readable = ['/api/contenttypes/4/objects/1/comments/', '/api/modules/1/ideas/'];
  for (const url of readable) assert.equal((await request({ method: 'GET', url })).status, 200, url);
  for (const authorization of ['Basic dXNlcjp1c2VyLXBhc3N3b3Jk', 'Digest username="user"', 'user-password', 'Negotiate abc', '']) {
    for (const url of readable) {
      const response = await request({ method: 'GET', url, headers: { authorization } });
      assert.equal(response.status, 401, `${authorization} ${url}`);
      assert.ok(response.headers['www-authenticate'], 'says which scheme to use');
      assert.equal(typeof (response.body as { detail?: unknown }).detail, 'string');
    }
  }
  // The schemes the API speaks still work.
  assert.equal((await request({ method: 'GET', url: readable[0], headers: await tokenHeader(db, 5) })).status, 200);
  // Pages treat such a header as anonymous (a site behind HTTP basic auth keeps working).
  assert.equal((await request({ method: 'GET', url: '/accounts/login/', headers: { authorization: 'Basic dXNlcjpw' } })).status, 200);
});
