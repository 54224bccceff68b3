import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { projects } from '../../src/db/schema/index.js';
import type { UploadFile } from '../me/accounts/client.js';
import { dashboardApp, signedIn } from './world.js';

const BASIC = '/org/dashboard/projects/draft-plan/basic/';
const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#3a7' } }).png().toBuffer();
const upload = async (name: string, width: number, height: number): Promise<UploadFile> => ({ name, filename: `${name}.png`, type: 'image/png', data: await png(width, height) });
const fields = { name: 'Draft plan', description: 'Not yet out', access: 'PUBLIC' };

test('basic settings: header and tile image with copyright and alt text through the image ingest; errors beside the fields, nothing stored on refusal; replace and remove', async () => {
  const { app, db, config } = await dashboardApp();
  const media = (path: string | null) => path !== null && existsSync(join(config.dataDir, 'media', path));
  const stored = async () => (await db.select().from(projects).where(eq(projects.id, 2)))[0];
  const initiator = await signedIn(app, 'initiator');
  const form = await initiator.get(BASIC);
  assert.match(form.text, /enctype="multipart\/form-data"/);
  assert.match(form.text, /<input id="id_tile_image" name="tile_image" type="file" accept="image\/png,image\/jpeg,image\/gif"/);

  const header = await upload('image', 1500, 500);
  const missing = await initiator.postMultipart(BASIC, fields, [header, await upload('tile_image', 500, 300)]);
  assert.equal(missing.status, 400);
  assert.match(missing.text, /id="id_image_copyright_errors"[^>]*><li>Please add copyright information./);
  assert.match(missing.text, /id="id_tile_image_alt_text_errors"[^>]*><li>Please add an alternative text for this image./);
  const small = await initiator.postMultipart(BASIC, { ...fields, tile_image_copyright: 'Me', tile_image_alt_text: 'Green' }, await upload('tile_image', 499, 300));
  assert.equal(small.status, 400);
  assert.match(small.text, /id="id_tile_image_errors"[^>]*><li>Image must be at least 500 pixels wide and 300 pixels tall./);
  assert.equal((await stored()).tileImage, null, 'a refused form stores nothing');

  const withRights = { ...fields, image_copyright: 'City archive', image_alt_text: 'The square', tile_image_copyright: 'Me', tile_image_alt_text: 'Green' };
  const saved = await initiator.postMultipart(BASIC, withRights, [header, await upload('tile_image', 800, 400)]);
  assert.equal(saved.status, 302);
  const first = await stored();
  assert.match(first.image ?? '', /^projects\/backgrounds\/[\w-]+\.png$/);
  assert.ok(media(first.image) && media(first.tileImage));
  assert.equal(first.imageCopyright, 'City archive');
  assert.match((await initiator.get(BASIC)).text, new RegExp(`<img src="/media/${first.image}" alt="The square"`));

  assert.equal((await initiator.postMultipart(BASIC, { ...withRights, image_copyright: '' })).status, 400, 'a kept image still needs its copyright');
  assert.equal((await initiator.postMultipart(BASIC, { ...withRights, tile_image_clear: 'on' }, await upload('image', 1600, 600))).status, 302);
  const second = await stored();
  assert.notEqual(second.image, first.image);
  assert.ok(media(second.image) && !media(first.image), 'the replaced image is removed');
  assert.equal(second.tileImage, null);
  assert.equal(second.tileImageCopyright, '');
  assert.ok(!media(first.tileImage), 'the removed tile image is gone');
  const moderator = await signedIn(app, 'moderator');
  assert.equal((await moderator.postMultipart(BASIC, withRights, header)).status, 403);
});
