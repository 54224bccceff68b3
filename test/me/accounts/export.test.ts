import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inflateRawSync } from 'node:zlib';
import sharp from 'sharp';
import { organisationTermsAgreements } from '../../../src/db/schema/index.js';
import { EXPORT_LIMIT } from '../../../src/me/accounts/export-pages.js';
import { basicWorld, load, tokenHeader } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { Browser } from './client.js';

type Json = Record<string, unknown>;

/** The entries of a zip archive (read from its central directory), name → content. */
function unzip(archive: Buffer): Map<string, Buffer> {
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end >= 0, 'a zip archive');
  const entries = new Map<string, Buffer>();
  let at = archive.readUInt32LE(end + 16);
  for (let i = 0; i < archive.readUInt16LE(end + 10); i++) {
    const [method, size, nameLength, extraLength, commentLength, local] = [10, 20, 28, 30, 32, 42].map((o) => (o === 20 || o === 42 ? archive.readUInt32LE(at + o) : archive.readUInt16LE(at + o)));
    const name = archive.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const start = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    const data = archive.subarray(start, start + size);
    entries.set(name, method === 8 ? inflateRawSync(data) : data);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function multipart(fields: [string, string][], file: { name: string; data: Buffer }) {
  const b = '----exportBoundary';
  const parts: Buffer[] = fields.map(([name, value]) => Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${file.name}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`), file.data, Buffer.from(`\r\n--${b}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${b}` } };
}

const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 10, g: 90, b: 200 } } }).png().toBuffer();

test('a signed-in user downloads all their own data as one zip, nobody else\'s, a few times an hour', async () => {
  const t = await createTestApp();
  const fixture = basicWorld();
  await load(t.db, {
    ...fixture,
    ideas: [
      { id: 1, module: 1, creator: 5, name: 'Idea of user', description: '<p>mine</p>', category: 1 },
      { id: 2, module: 1, creator: 6, name: 'Secret idea of other', description: '<p>other text</p>', category: 1 },
    ],
    comments: [
      { id: 1, creator: 5, target: { type: 'idea', id: 2 }, comment: 'comment of user' },
      { id: 2, creator: 6, target: { type: 'comment', id: 1 }, comment: 'reply of other' },
      { id: 3, creator: 6, target: { type: 'idea', id: 1 }, comment: 'other on the idea of user' },
    ],
    ratings: [
      { creator: 5, target: { type: 'idea', id: 2 }, value: 1 },
      { creator: 6, target: { type: 'idea', id: 1 }, value: -1 },
    ],
    reports: [
      { creator: 5, target: { type: 'comment', id: 2 }, description: 'report by user' },
      { creator: 6, target: { type: 'comment', id: 1 }, description: 'report by other' },
    ],
    follows: [{ creator: 5, project: 1 }],
  });
  await t.db.insert(organisationTermsAgreements).values([{ userId: 5, organisationId: 1 }, { userId: 6, organisationId: 1 }]);
  const token = await tokenHeader(t.db, 5);
  const avatar = multipart([['username', 'user']], { name: 'user_image', data: await png(300, 300) });
  assert.equal((await t.request({ method: 'PUT', url: '/api/account/', headers: { ...token, ...avatar.headers }, payload: avatar.payload })).status, 200);
  const withImage = multipart([['name', 'Idea with image'], ['description', 'pic'], ['category', '1']], { name: 'image', data: await png(700, 500) });
  assert.equal((await t.request({ method: 'POST', url: '/api/modules/1/ideas/', headers: { ...token, ...withImage.headers }, payload: withImage.payload })).status, 201);

  const browser = new Browser(t.app);
  const anonymous = await t.app.inject({ method: 'POST', url: '/account/export/', payload: {} });
  assert.notEqual(anonymous.statusCode, 200, 'no archive without a session');
  await browser.login('user', 'user-password');
  const settings = await browser.get('/account/');
  assert.match(settings.text, /<form method="post" action="\/account\/export\/">.*Download my data<\/button>/s);
  const download = () =>
    t.app.inject({
      method: 'POST',
      url: '/account/export/',
      headers: { cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'content-type': 'application/x-www-form-urlencoded' },
      payload: `csrfmiddlewaretoken=${browser.cookies.get('csrftoken')}`,
    });
  const response = await download();
  assert.equal(response.statusCode, 200, response.body);
  assert.equal(response.headers['content-type'], 'application/zip');
  assert.match(String(response.headers['content-disposition']), /^attachment; filename="allmende-data-5-\d{4}-\d\d-\d\d\.zip"$/);

  const files = unzip(response.rawPayload);
  const json = (name: string) => JSON.parse(files.get(name)?.toString('utf8') ?? 'null') as Json & Json[];
  assert.deepEqual([...files.keys()].filter((n) => n.endsWith('.json')).sort(), ['account.json', 'comments.json', 'follows.json', 'ideas.json', 'moderator_feedback.json', 'ratings.json', 'reports.json']);
  const account = json('account.json');
  assert.deepEqual([account.username, account.email], ['user', 'user@example.org']);
  assert.deepEqual((account.agreed_to_terms_of_use_of as Json[]).map((a) => a.organisation), ['Organisation'], "the organisations' terms the user agreed to");
  assert.deepEqual(json('ideas.json').map((i) => i.name), ['Idea of user', 'Idea with image']);
  assert.deepEqual(json('comments.json').map((c) => c.comment), ['comment of user']);
  assert.deepEqual(json('ratings.json').map((r) => [r.on, r.value]), [[{ type: 'idea', id: 2 }, 1]]);
  assert.deepEqual(json('reports.json').map((r) => r.description), ['report by user']);
  assert.deepEqual(json('follows.json').map((f) => f.project_slug), ['project']);
  for (const image of [account.avatar, json('ideas.json')[1].image]) {
    const data = files.get(String(image));
    assert.ok(data, `the archive holds ${String(image)}`);
    assert.equal((await sharp(data).metadata()).format, 'png');
  }
  const everything = [...files.values()].map((b) => b.toString('latin1')).join('\n');
  for (const foreign of ['other@example.org', 'Secret idea of other', 'other text', 'reply of other', 'other on the idea of user', 'report by other', 'moderator@example.org']) {
    assert.ok(!everything.includes(foreign), `nobody else's data: ${foreign}`);
  }

  for (let i = 1; i < EXPORT_LIMIT.perWindow; i++) assert.equal((await download()).statusCode, 200);
  const throttled = await download();
  assert.equal(throttled.statusCode, 429);
  assert.ok(Number(throttled.headers['retry-after']) > 0);
});
