import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
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
