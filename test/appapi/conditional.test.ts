import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { Database } from '../../src/db/client.js';
import { modules, organisations, phases, projects } from '../../src/db/schema/index.js';
import { contentTypeId } from '../../src/features/contenttypes/registry.js';
import { Browser } from '../accounts/client.js';
import { basicWorld, load, tokenHeader } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

/** The basic world with enough ideas that the list is worth compressing. */
async function world() {
  const test = await createTestApp();
  const fixture = basicWorld();
  fixture.ideas = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, module: 1, creator: 5, name: `Idea ${i + 1}`, description: 'A longer description. '.repeat(5) }));
  await load(test.db, fixture);
  return { ...test, auth: await tokenHeader(test.db, 5) };
}

const URLS = ['/api/app-projects/', '/api/app-projects/project/', '/api/modules/1/ideas/'];

/** Date frozen at a whole second: requests of a test fall into one second until it ticks. */
const freezeTime = (t: { mock: { timers: { enable(options: { apis: 'Date'[]; now: number }): void } } }) =>
  t.mock.timers.enable({ apis: ['Date'], now: Math.ceil(Date.now() / 1000) * 1000 });

/** An answer and the number of SQL statements it cost. */
async function counted(app: FastifyInstance, database: Database, options: InjectOptions) {
  const before = database.stats.queries;
  const response = await app.inject(options);
  return { response, statements: database.stats.queries - before };
}

test('app-projects (list and detail) and the ideas list: a strong ETag, and If-None-Match answered with 304 without a body', async () => {
  const { app, auth } = await world();
  for (const url of URLS) {
    const first = await app.inject({ url, headers: auth });
    assert.equal(first.statusCode, 200, url);
    const tag = String(first.headers.etag);
    assert.match(tag, /^"[\w-]{27}"$/, `${url}: a strong tag`);
    assert.equal(first.headers['cache-control'], 'private, no-cache');
    assert.match(String(first.headers.vary), /Authorization/);

    const again = await app.inject({ url, headers: { ...auth, 'if-none-match': tag } });
    assert.equal(again.statusCode, 304, url);
    assert.equal(again.body, '');
    assert.equal(again.headers.etag, tag);
    assert.equal(again.headers['content-type'], undefined);

    const listed = await app.inject({ url, headers: { ...auth, 'if-none-match': `"other", W/${tag}` } });
    assert.equal(listed.statusCode, 304, `${url}: weak comparison over a list of tags`);
    const stale = await app.inject({ url, headers: { ...auth, 'if-none-match': '"something-else"' } });
    assert.equal(stale.statusCode, 200);
    assert.equal(stale.body, first.body);
  }
});

test('a change to the data changes the tag; the old tag then gets the full answer', async () => {
  const { app, auth } = await world();
  const url = '/api/modules/1/ideas/';
  const before = await app.inject({ url, headers: auth });
  const created = await app.inject({ method: 'POST', url, headers: auth, payload: { name: 'A new idea', description: 'Text', category: 1 } });
  assert.equal(created.statusCode, 201);
  assert.equal(created.headers.etag, undefined, 'writes carry no tag');
  const after = await app.inject({ url, headers: { ...auth, 'if-none-match': String(before.headers.etag) } });
  assert.equal(after.statusCode, 200);
  assert.notEqual(after.headers.etag, before.headers.etag);
  assert.equal((JSON.parse(after.body) as unknown[]).length, 31);
});

test('the tag depends on who asks: another user with another language gets another body and tag', async () => {
  const { app, db, auth } = await world();
  const other = await tokenHeader(db, 6);
  const mine = await app.inject({ url: '/api/app-projects/', headers: auth });
  const german = await app.inject({ url: '/api/app-projects/', headers: { ...other, cookie: 'language=de' } });
  assert.notEqual(german.body, mine.body);
  assert.notEqual(german.headers.etag, mine.headers.etag);
});

test('gzip or brotli when the client asks, for large JSON and pages; the tag names the encoding, and still matches', async () => {
  const { app, auth } = await world();
  const url = '/api/modules/1/ideas/';
  const plain = await app.inject({ url, headers: auth });
  assert.equal(plain.headers['content-encoding'], undefined, 'no Accept-Encoding: identity');

  const br = await app.inject({ url, headers: { ...auth, 'accept-encoding': 'gzip, deflate, br' } });
  assert.equal(br.headers['content-encoding'], 'br');
  assert.match(String(br.headers.vary), /Accept-Encoding/i);
  assert.equal(brotliDecompressSync(br.rawPayload).toString(), plain.body);
  assert.equal(br.headers.etag, String(plain.headers.etag).replace(/"$/, '-br"'));

  const gzip = await app.inject({ url, headers: { ...auth, 'accept-encoding': 'gzip' } });
  assert.equal(gzip.headers['content-encoding'], 'gzip');
  assert.equal(gunzipSync(gzip.rawPayload).toString(), plain.body);
  assert.ok(gzip.rawPayload.length < plain.rawPayload.length / 3);

  const revalidated = await app.inject({ url, headers: { ...auth, 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) } });
  assert.equal(revalidated.statusCode, 304);
  assert.equal(revalidated.rawPayload.length, 0);

  const page = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip' } });
  assert.equal(page.statusCode, 200);
  assert.equal(page.headers['content-encoding'], 'gzip');
  assert.match(gunzipSync(page.rawPayload).toString(), /<html/);

  const small = await app.inject({ url: '/healthz', headers: { 'accept-encoding': 'gzip' } });
  assert.equal(small.headers['content-encoding'], undefined, 'small answers stay as they are');
});

test('app-projects: a repeated request costs the token and the data version only; a 304 loads and serialises nothing', async (t) => {
  freezeTime(t);
  const { app, database, auth } = await world();
  for (const url of ['/api/app-projects/', '/api/app-projects/project/']) {
    const first = await counted(app, database, { url, headers: auth });
    assert.equal(first.response.statusCode, 200);
    assert.equal(first.statements, 3, `${url}: token, data version, list`);
    const tag = String(first.response.headers.etag);
    const again = await counted(app, database, { url, headers: { ...auth, 'if-none-match': tag } });
    assert.deepEqual([again.response.statusCode, again.statements, again.response.body], [304, 2, ''], `${url}: token and data version`);
    const plain = await counted(app, database, { url, headers: auth });
    assert.deepEqual([plain.response.statusCode, plain.statements, plain.response.headers.etag], [200, 2, tag]);
    assert.equal(plain.response.body, first.response.body);
  }
  const missing = await counted(app, database, { url: '/api/app-projects/no-such-project/', headers: auth });
  assert.deepEqual([missing.response.statusCode, missing.statements], [404, 3]);
  assert.equal((await counted(app, database, { url: '/api/app-projects/no-such-project/', headers: auth })).statements, 2, 'a kept "not found"');
});

test('app-projects: a write to an organisation, project, module or phase changes answer and tag on the very next request, whoever wrote it', async (t) => {
  freezeTime(t);
  const { app, db, database, config, auth } = await world();
  const url = '/api/app-projects/project/';
  let tag = String((await app.inject({ url, headers: auth })).headers.etag);
  /** The next answer to the last tag: a full one with a new tag. */
  const changed = async () => {
    const response = await app.inject({ url, headers: { ...auth, 'if-none-match': tag } });
    assert.equal(response.statusCode, 200);
    assert.notEqual(response.headers.etag, tag);
    tag = String(response.headers.etag);
    return response.json<Record<string, unknown>>();
  };

  // Plain SQL, as another instance or a script writes: within the same second, only the data version tells.
  await db.update(organisations).set({ title: 'The Organisation' }).where(eq(organisations.id, 1));
  assert.equal((await changed()).organisation, 'The Organisation');
  await db.update(projects).set({ name: 'Renamed' }).where(eq(projects.id, 1));
  assert.equal((await changed()).name, 'Renamed');
  await db.update(modules).set({ blueprintType: 'IC' }).where(eq(modules.id, 1));
  assert.equal((await changed()).single_idea_collection_module, 1);
  await db.update(phases).set({ endDate: new Date(Date.now() + 3 * 3600 * 1000) }).where(eq(phases.moduleId, 1));
  assert.equal((await changed()).participation_time_display, '3 hours remaining');

  // Another instance on the same database, through the dashboard.
  const other = await buildApp({ config, database });
  t.after(() => other.close());
  const initiator = new Browser(other);
  assert.equal((await initiator.login('initiator', 'initiator-password')).status, 302);
  const saved = await initiator.post('/org/dashboard/projects/project/information/', { information: '<p>New plans</p>' });
  assert.equal(saved.status, 302);
  assert.equal((await changed()).information, '<p>New plans</p>');
  await db.delete(phases).where(eq(phases.moduleId, 1));
  assert.equal((await app.inject({ url, headers: { ...auth, 'if-none-match': tag } })).statusCode, 404, 'no phase ahead: not listed');
});

test('app-projects: what users write all the time (ideas, comments, ratings, follows) leaves the data version alone', async (t) => {
  freezeTime(t);
  const { app, database, auth } = await world();
  const url = '/api/app-projects/';
  const tag = String((await app.inject({ url, headers: auth })).headers.etag);
  const write = async (options: InjectOptions) => {
    const response = await app.inject({ ...options, headers: auth });
    assert.ok(response.statusCode < 300, `${options.url}: ${response.statusCode} ${response.body}`);
    const polled = await counted(app, database, { url, headers: { ...auth, 'if-none-match': tag } });
    assert.deepEqual([polled.response.statusCode, polled.statements], [304, 2], `after ${options.method} ${options.url}`);
    return response.json<{ id: number }>();
  };
  await write({ method: 'POST', url: '/api/modules/1/ideas/', payload: { name: 'Another idea', description: 'Text', category: 1 } });
  const comment = await write({ method: 'POST', url: `/api/contenttypes/${contentTypeId('idea')}/objects/1/comments/`, payload: { comment: 'Agreed' } });
  await write({ method: 'POST', url: `/api/contenttypes/${contentTypeId('comment')}/objects/${comment.id}/ratings/`, payload: { value: 1 } });
  await write({ method: 'PUT', url: '/api/follows/project/', payload: { enabled: false } });
});
