import assert from 'node:assert/strict';
import { test } from 'node:test';
import zlib, { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { Database } from '../../src/db/client.js';
import { modules, organisations, phases, projects } from '../../src/db/schema/index.js';
import { contentTypeId } from '../../src/core/contenttypes/registry.js';
import { Browser } from '../me/accounts/client.js';
import { basicWorld, load, tokenHeader } from '../fixtures.js';
import { createTestApp, freezeTime } from '../helpers.js';

/** The basic world with enough ideas, and project information, that the lists are worth compressing (≥ 1 KB). */
async function world() {
  const test = await createTestApp();
  const fixture = basicWorld();
  fixture.projects = fixture.projects?.map((project) => ({ ...project, information: '<p>What the park will look like.</p>'.repeat(40) }));
  fixture.ideas = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, module: 1, creator: 5, name: `Idea ${i + 1}`, description: 'A longer description. '.repeat(5) }));
  await load(test.db, fixture);
  return { ...test, auth: await tokenHeader(test.db, 5) };
}

const URLS = ['/api/app-projects/', '/api/app-projects/project/', '/api/modules/1/ideas/'];

/** An answer and the number of SQL statements it cost. */
async function counted(app: FastifyInstance, database: Database, options: InjectOptions) {
  const before = database.stats.queries;
  const response = await app.inject(options);
  return { response, statements: database.stats.queries - before };
}

test('app-projects (list and detail) and the ideas list: a strong ETag, and If-None-Match answered with 304 without a body', async (t) => {
  freezeTime(t); // the app list is computed per second: a tick between two requests could change it
  const { app, auth } = await world();
  for (const url of URLS) {
    const first = await app.inject({ url, headers: auth });
    assert.equal(first.statusCode, 200, url);
    const tag = String(first.headers.etag);
    assert.match(tag, /^"[\w-]{27}"$/, `${url}: a strong tag`);
    assert.equal(first.headers['cache-control'], 'private, no-cache');
    assert.equal(first.headers.vary, 'accept-encoding, accept-language, authorization, cookie');

    const again = await app.inject({ url, headers: { ...auth, 'if-none-match': tag } });
    assert.equal(again.statusCode, 304, url);
    assert.equal(again.body, '');
    assert.equal(again.headers.etag, tag);
    assert.equal(again.headers['content-type'], undefined);
    assert.equal(again.headers.vary, first.headers.vary, 'a 304 names what the 200 depends on');

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

/** gzip and brotli, with their decoders and the zlib function the server encodes with (watched, to count encodings). */
const CODED = [
  { coding: 'gzip', decode: gunzipSync, encoder: 'gzip' },
  { coding: 'br', decode: brotliDecompressSync, encoder: 'brotliCompress' },
] as const;

test('app-projects: gzip and brotli forms are encoded once per kept answer and sent as kept; the tag names the coding and gets a 304', async (t) => {
  freezeTime(t);
  const { app, database, auth } = await world();
  for (const url of ['/api/app-projects/', '/api/app-projects/project/']) {
    const plain = await app.inject({ url, headers: auth });
    assert.ok(plain.rawPayload.length >= 1024, `${url} is worth compressing`);
    for (const { coding, decode, encoder } of CODED) {
      const encodings = t.mock.method(zlib, encoder);
      const headers = { ...auth, 'accept-encoding': coding };
      const overlapping = await Promise.all([1, 2, 3].map(() => app.inject({ url, headers })));
      for (const response of overlapping) {
        assert.equal(response.headers['content-encoding'], coding);
        assert.equal(response.headers.etag, String(plain.headers.etag).replace(/"$/, `-${coding}"`));
        assert.match(String(response.headers.vary), /accept-encoding/);
        assert.equal(decode(response.rawPayload).toString(), plain.body);
        assert.equal(Number(response.headers['content-length']), response.rawPayload.length);
      }
      const again = await counted(app, database, { url, headers });
      assert.equal(again.statements, 2, 'token and data version');
      assert.deepEqual(again.response.rawPayload, overlapping[0].rawPayload);
      assert.equal(encodings.mock.callCount(), 1, `${url}: four ${coding} answers, one encoding (overlapping requests share it)`);

      const revalidated = await counted(app, database, { url, headers: { ...headers, 'if-none-match': String(again.response.headers.etag) } });
      assert.deepEqual([revalidated.response.statusCode, revalidated.statements, revalidated.response.rawPayload.length], [304, 2, 0]);
      assert.equal(revalidated.response.headers.etag, again.response.headers.etag);
      assert.equal(revalidated.response.headers['content-encoding'], undefined);
      assert.match(String(revalidated.response.headers.vary), /accept-encoding/);
      const plainTag = await app.inject({ url, headers: { ...headers, 'if-none-match': String(plain.headers.etag) } });
      assert.equal(plainTag.statusCode, 304, 'the tag of the plain body names the same answer');
      encodings.mock.restore();
    }
  }
});

test('app-projects: a write changes the coded answer too; an answer below 1 KB is sent as it is', async (t) => {
  freezeTime(t);
  const { app, db, auth } = await world();
  const url = '/api/app-projects/project/';
  const headers = { ...auth, 'accept-encoding': 'gzip' };
  const before = await app.inject({ url, headers });
  assert.equal(before.headers['content-encoding'], 'gzip');
  const encodings = t.mock.method(zlib, 'gzip');

  await db.update(projects).set({ name: 'Renamed' }).where(eq(projects.id, 1));
  const after = await app.inject({ url, headers: { ...headers, 'if-none-match': String(before.headers.etag) } });
  assert.equal(after.statusCode, 200);
  assert.equal(after.headers['content-encoding'], 'gzip');
  assert.match(String(after.headers.etag), /-gzip"$/);
  assert.notEqual(after.headers.etag, before.headers.etag);
  assert.equal(JSON.parse(gunzipSync(after.rawPayload).toString()).name, 'Renamed');
  assert.equal(encodings.mock.callCount(), 1, 'the new answer is encoded');

  await db.update(projects).set({ information: '<p>Short</p>' }).where(eq(projects.id, 1));
  const small = await app.inject({ url, headers });
  assert.equal(small.statusCode, 200);
  assert.ok(small.rawPayload.length < 1024);
  assert.equal(small.headers['content-encoding'], undefined);
  assert.doesNotMatch(String(small.headers.etag), /-gzip"$/);
  assert.match(String(small.headers.vary), /accept-encoding/);
  assert.equal(small.json<{ information: string }>().information, '<p>Short</p>');
  assert.equal(encodings.mock.callCount(), 1, 'nothing encoded for a small answer');
});

test('app-projects negotiates the coding as @fastify/compress does for the other answers, and encodes its kept answer itself', async (t) => {
  freezeTime(t);
  const { app, auth } = await world();
  const encoders = { gzip: t.mock.method(zlib, 'gzip'), br: t.mock.method(zlib, 'brotliCompress') };
  const expected: Record<string, 'gzip' | 'br' | undefined> = {
    gzip: 'gzip',
    br: 'br',
    'gzip, deflate, br': 'br',
    'br;q=0.5, gzip': 'gzip',
    'gzip;q=0.5, br;q=0.5': 'br',
    'br;q=0, gzip;q=0.8': 'gzip',
    'gzip;q=0': undefined,
    'br;q=0, gzip;q=0': undefined,
    identity: undefined,
    'identity;q=1, gzip;q=0.5': 'gzip',
    deflate: undefined,
    '*': 'gzip',
    '*;q=0': undefined,
    'br;q=0, *;q=0.1': 'gzip',
    'x-gzip': 'gzip',
    'GZIP, BR': 'br',
    '': undefined,
  };
  for (const [accepted, coding] of Object.entries(expected)) {
    t.mock.timers.tick(1000); // a new second: a new kept answer, encoded on its first demand
    const before = { gzip: encoders.gzip.mock.callCount(), br: encoders.br.mock.callCount() };
    const kept = await app.inject({ url: '/api/app-projects/', headers: { ...auth, 'accept-encoding': accepted } });
    const compressed = await app.inject({ url: '/api/modules/1/ideas/', headers: { ...auth, 'accept-encoding': accepted } });
    assert.equal(compressed.headers['content-encoding'], coding, `@fastify/compress, Accept-Encoding: ${accepted}`);
    assert.equal(kept.headers['content-encoding'], coding, `kept answer, Accept-Encoding: ${accepted}`);
    const encoded = { gzip: encoders.gzip.mock.callCount() - before.gzip, br: encoders.br.mock.callCount() - before.br };
    assert.deepEqual(encoded, { gzip: coding === 'gzip' ? 1 : 0, br: coding === 'br' ? 1 : 0 }, `encoded by the kept answer, Accept-Encoding: ${accepted}`);
  }
  const refused = await app.inject({ url: '/api/app-projects/', headers: { ...auth, 'accept-encoding': 'gzip', 'x-no-compression': '1' } });
  assert.equal(refused.headers['content-encoding'], undefined);
});
