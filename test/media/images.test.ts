import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { modules, users } from '../../src/db/schema/index.js';
import { ideas } from '../../src/features/ideas/schema.js';
import { IMAGE_LIMITS } from '../../src/media/images.js';
import { Browser } from '../me/accounts/client.js';
import { basicWorld, load, tokenHeader } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

type Json = Record<string, unknown>;

function multipart(fields: [string, string][], file?: { name: string; data: Buffer }) {
  const boundary = '----allmendeImageBoundary';
  const parts: Buffer[] = fields.map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="upload"\r\nContent-Type: image/png\r\n\r\n`), file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 50, b: 50 } } }).png().toBuffer();

/** A PNG cut off in the middle of its pixel data: the header still reads as a valid 800×600 image. */
const truncatedPng = async () => {
  const noisy = await sharp(Buffer.from(Array.from({ length: 800 * 600 * 3 }, (_, i) => (i * 7919) % 251)), { raw: { width: 800, height: 600, channels: 3 } }).png().toBuffer();
  return noisy.subarray(0, Math.floor(noisy.length / 2));
};

/** A decompression bomb's header: a valid PNG whose IHDR announces 16000×16000 pixels (its data is tiny). */
const hugePixelPng = async () => {
  const small = Buffer.from(await png(1, 1));
  small.writeUInt32BE(16000, 16);
  small.writeUInt32BE(16000, 20);
  small.writeUInt32BE(crc32(small.subarray(12, 29)), 29);
  return small;
};

/** A large photo with camera metadata and a GPS position. */
const geotaggedPhoto = () =>
  sharp({ create: { width: 4000, height: 3000, channels: 3, background: { r: 20, g: 120, b: 60 } } })
    .jpeg()
    .withExif({ IFD0: { Make: 'PhoneCam', Artist: 'Secret Person' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 31/1 0/1' } })
    .toBuffer();

const mediaFiles = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)) : []);

test('every upload goes through one image ingest: refused files store nothing, kept ones are downscaled and without metadata', async (t) => {
  const app = await createTestApp();
  await load(app.db, basicWorld());
  const media = join(app.config.dataDir, 'media');
  const user = await tokenHeader(app.db, 5);
  const ideaCount = async () => (await app.db.select({ n: count() }).from(ideas))[0].n;
  const postIdea = (file: Buffer) => {
    const body = multipart([['name', 'With image'], ['description', 'd'], ['category', '1']], { name: 'image', data: file });
    return app.request({ method: 'POST', url: '/api/modules/1/ideas/', headers: { ...user, ...body.headers }, payload: body.payload });
  };

  await t.test('API: a truncated PNG or a huge-pixel PNG as idea image is a 400 field error, nothing stored', async () => {
    const truncated = await postIdea(await truncatedPng());
    assert.equal(truncated.status, 400, truncated.text);
    assert.deepEqual(truncated.body, { image: ['Upload a valid image. The file you uploaded was either not an image or a corrupted image.'] });
    const bomb = await postIdea(await hugePixelPng());
    assert.equal(bomb.status, 400, bomb.text);
    assert.deepEqual(bomb.body, { image: [`The image must not have more than ${IMAGE_LIMITS.maxPixels / 1_000_000} million pixels.`] });
    assert.equal(await ideaCount(), 0);
    assert.deepEqual(mediaFiles(media), []);
  });

  await t.test('API: a truncated PNG as avatar is a 400, no avatar and no orphan file', async () => {
    const body = multipart([['username', 'user']], { name: 'user_image', data: await truncatedPng() });
    const response = await app.request({ method: 'PUT', url: '/api/account/', headers: { ...user, ...body.headers }, payload: body.payload });
    assert.equal(response.status, 400, response.text);
    assert.ok((response.body as Json).user_image);
    assert.equal((await app.db.select().from(users).where(eq(users.id, 5)))[0].avatar, null);
    assert.deepEqual(mediaFiles(media), []);
  });

  await t.test('API: a large geotagged photo is stored downscaled, upright and without its EXIF', async () => {
    const response = await postIdea(await geotaggedPhoto());
    assert.equal(response.status, 201, response.text);
    const path = new URL(String((response.body as Json).image)).pathname;
    assert.match(path, /\.jpg$/);
    const stored = await sharp(join(app.config.dataDir, path)).metadata();
    assert.deepEqual([stored.format, stored.width, stored.height], ['jpeg', IMAGE_LIMITS.maxSide, IMAGE_LIMITS.maxSide * 0.75]);
    assert.equal(stored.exif, undefined, 'no EXIF (camera, author, GPS) is kept');
    const served = await app.app.inject({ method: 'GET', url: path });
    assert.equal(served.statusCode, 200);
    assert.doesNotMatch(served.rawPayload.toString('latin1'), /Secret Person|PhoneCam/);
  });

  await t.test('pages: a truncated or huge-pixel PNG shows the message beside the image field, nothing stored', async () => {
    const before = await ideaCount();
    const files = mediaFiles(media);
    const [module] = await app.db.select().from(modules).where(eq(modules.id, 1));
    const browser = new Browser(app.app);
    await browser.login('user', 'user-password');
    for (const data of [await truncatedPng(), await hugePixelPng()]) {
      const page = await browser.postMultipart(`/org/ideas/create/module/${module.slug}/`, { name: 'Bench', description: 'x', category: '1', right_of_use: 'on' }, { name: 'image', filename: 'a.png', data, type: 'image/png' });
      assert.equal(page.status, 400);
      assert.match(page.text, /id="id_image_errors"[^>]*><li>(Upload a valid image|The image must not have more than)/);
    }
    const avatar = await browser.postMultipart('/account/', { username: 'user', email: 'user@example.org', language: 'en' }, { name: 'avatar', filename: 'a.png', data: await truncatedPng(), type: 'image/png' });
    assert.equal(avatar.status, 400);
    assert.match(avatar.text, /Upload a valid image/);
    assert.equal(await ideaCount(), before);
    assert.deepEqual(mediaFiles(media), files);
  });
});
