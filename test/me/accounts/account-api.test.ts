import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from 'sharp';
import { createTestApp } from '../../helpers.js';
import { basicWorld, load, tokenHeader } from '../../fixtures.js';

async function world() {
  const app = await createTestApp();
  await load(app.db, basicWorld());
  return { ...app, auth: await tokenHeader(app.db, 5) };
}

const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#3366aa' } }).png().toBuffer();

function multipart(fields: Record<string, string>, file?: { name: string; data: Buffer }) {
  const boundary = 'allmendeboundary';
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`), file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(parts) };
}

test('PATCH /api/account/ changes the language; GET shows it', async () => {
  const { request, auth } = await world();
  const patched = await request({ method: 'PATCH', url: '/api/account/', headers: auth, payload: { language: 'de' } });
  assert.equal(patched.status, 200);
  assert.equal((patched.body as { language: string }).language, 'de');
  const shown = await request({ method: 'GET', url: '/api/account/', headers: auth });
  assert.deepEqual(shown.body, patched.body);
});

test('PUT /api/account/ needs a valid username that nobody else has (case-insensitively)', async () => {
  const { request, auth } = await world();
  const missing = await request({ method: 'PUT', url: '/api/account/', headers: auth, payload: { language: 'en' } });
  assert.equal(missing.status, 400);
  assert.deepEqual(missing.body, { username: ['This field is required.'] });
  const taken = await request({ method: 'PUT', url: '/api/account/', headers: auth, payload: { username: 'OTHER' } });
  assert.equal(taken.status, 400);
  assert.deepEqual(taken.body, { username: ['A user with that username already exists.'] });
  const invalid = await request({ method: 'PUT', url: '/api/account/', headers: auth, payload: { username: '<script>' } });
  assert.equal(invalid.status, 400);
  assert.ok('username' in (invalid.body as object));
  const renamed = await request({ method: 'PUT', url: '/api/account/', headers: auth, payload: { username: 'Renamed User' } });
  assert.equal(renamed.status, 200);
  assert.equal((renamed.body as { username: string }).username, 'Renamed User');
  const badLanguage = await request({ method: 'PATCH', url: '/api/account/', headers: auth, payload: { language: 'fr' } });
  assert.equal(badLanguage.status, 400);
});

test('an avatar uploads as multipart: the thumbnail is made, served and replaced by the next one', async () => {
  const { request, auth } = await world();
  const first = multipart({ username: 'user' }, { name: 'user_image', data: await png(300, 300) });
  const uploaded = await request({ method: 'PUT', url: '/api/account/', headers: { ...auth, ...first.headers }, payload: first.payload });
  assert.equal(uploaded.status, 200, uploaded.text);
  const image = (uploaded.body as { user_image: string }).user_image;
  assert.match(image, /^http:\/\/localhost(:\d+)?\/media\/users\/images\/[\w-]+\.png$/);
  const served = await request({ method: 'GET', url: new URL(image).pathname });
  assert.equal(served.status, 200);
  const second = multipart({}, { name: 'user_image', data: await png(250, 260) });
  const replaced = await request({ method: 'PATCH', url: '/api/account/', headers: { ...auth, ...second.headers }, payload: second.payload });
  assert.equal(replaced.status, 200);
  assert.notEqual((replaced.body as { user_image: string }).user_image, image);
  assert.equal((await request({ method: 'GET', url: new URL(image).pathname })).status, 404, 'the replaced avatar is removed');
});

test('a too small or broken avatar is a 400 field error and changes nothing', async () => {
  const { request, auth } = await world();
  for (const data of [await png(100, 100), Buffer.from('not an image')]) {
    const body = multipart({ language: 'de' }, { name: 'user_image', data });
    const response = await request({ method: 'PATCH', url: '/api/account/', headers: { ...auth, ...body.headers }, payload: body.payload });
    assert.equal(response.status, 400);
    assert.ok('user_image' in (response.body as object));
  }
  const shown = await request({ method: 'GET', url: '/api/account/', headers: auth });
  assert.deepEqual([(shown.body as { language: string }).language, (shown.body as { user_image: null }).user_image], ['en', null]);
});

test('the account API: anonymous 401 before any body check, other methods 405, other media types 415', async () => {
  const { request, auth } = await world();
  const anonymous = await request({ method: 'PUT', url: '/api/account/', payload: { username: '' } });
  assert.equal(anonymous.status, 401);
  assert.ok(anonymous.headers['www-authenticate']);
  const deleted = await request({ method: 'DELETE', url: '/api/account/', headers: auth });
  assert.equal(deleted.status, 405);
  const text = await request({ method: 'PATCH', url: '/api/account/', headers: { ...auth, 'content-type': 'text/plain' }, payload: 'language=de' });
  assert.equal(text.status, 415);
});
