import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { projects } from '../../src/db/schema/index.js';
import { ideas } from '../../src/features/ideas/schema.js';
import { Browser, type UploadFile } from '../me/accounts/client.js';
import { dashboardApp, signedIn } from './world.js';

const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#3a7' } }).png().toBuffer();
const upload = async (name: string, width: number, height: number): Promise<UploadFile> => ({ name, filename: `${name}.png`, type: 'image/png', data: await png(width, height) });
const BASIC = '/org/dashboard/projects/project/basic/';
const fields = { name: 'Project', description: 'About the park', access: 'PUBLIC', tile_image_copyright: 'Me', tile_image_alt_text: 'A green square' };

test('the tile image shows on the tiles of the start and organisation pages, with two smaller copies made at upload for srcset', async () => {
  const { app, db, config } = await dashboardApp();
  const media = join(config.dataDir, 'media');
  const initiator = await signedIn(app, 'initiator');
  assert.equal((await initiator.postMultipart(BASIC, fields, await upload('tile_image', 2000, 1000))).status, 302);
  const [project] = await db.select().from(projects).where(eq(projects.id, 1));
  const tile = project.tileImage ?? '';
  for (const width of [480, 960]) {
    const copy = join(media, 'variants', `w${width}`, tile);
    assert.ok(existsSync(copy), `w${width} made at upload`);
    assert.equal((await sharp(copy).metadata()).width, width);
  }
  const srcset = `/media/variants/w480/${tile} 480w, /media/variants/w960/${tile} 960w, /media/${tile} 2000w`; // the file's own width (issue 36.12)
  const visitor = new Browser(app);
  for (const path of ['/', '/org/']) {
    const page = (await visitor.get(path)).text;
    assert.match(page, new RegExp(`<img class="tile-image" src="/media/${tile}" srcset="${srcset}" sizes="[^"]+" alt="A green square" width="400" height="225" loading="lazy"/>`), path);
  }
  const variant = await visitor.download(`/media/variants/w480/${tile}`);
  assert.equal(variant.status, 200);
  assert.equal(variant.headers['content-type'], 'image/png');
  assert.equal(variant.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.equal((await sharp(variant.body).metadata()).width, 480);
  const original = await visitor.download(`/media/${tile}`);
  assert.equal(original.headers['cache-control'], 'public, max-age=31536000, immutable', 'content never changes under a stored name');

  // Removing the image removes its copies.
  assert.equal((await initiator.postMultipart(BASIC, { ...fields, tile_image_clear: 'on' })).status, 302);
  assert.ok(!existsSync(join(media, 'variants', 'w480', tile)));
  assert.equal((await visitor.download(`/media/variants/w480/${tile}`)).status, 404);
});

test('an image stored before (without copies) gets them on the first request; odd variant addresses are 404', async () => {
  const { app, config } = await dashboardApp();
  const relative = 'ideas/images/0b6c7e0e-old-upload.png';
  const file = join(config.dataDir, 'media', relative);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, await png(1200, 800));
  const visitor = new Browser(app);
  const made = await visitor.download(`/media/variants/w960/${relative}`);
  assert.equal(made.status, 200);
  assert.equal((await sharp(made.body).metadata()).width, 960);
  assert.ok(existsSync(join(config.dataDir, 'media', 'variants', 'w960', relative)), 'kept for the next request');
  for (const bad of ['w500/ideas/images/x.png', `w480/ideas/images/missing.png`, 'w480/ideas/images/x.svg', 'w480/..%2F..%2Fsecret.png', 'big/ideas/images/x.png']) {
    assert.equal((await visitor.download(`/media/variants/${bad}`)).status, 404, bad);
  }
});

test('no image widens a page: every image fits its column', async () => {
  const { app } = await dashboardApp();
  assert.match((await new Browser(app).get('/static/site.css')).text, /\nimg \{ max-width: 100%; height: auto; \}/);
});

test('a srcset never claims a width larger than the file it names; idea images get one too (issue 36.12)', async () => {
  const { app, db, config } = await dashboardApp();
  const initiator = await signedIn(app, 'initiator');
  assert.equal((await initiator.postMultipart(BASIC, fields, await upload('tile_image', 700, 400))).status, 302);
  const [project] = await db.select().from(projects).where(eq(projects.id, 1));
  const tile = project.tileImage ?? '';
  const page = (await new Browser(app).get('/org/')).text;
  assert.match(page, new RegExp(`srcset="/media/variants/w480/${tile} 480w, /media/${tile} 700w"`), 'no 960 copy of a 700 pixel image, and the image at its own width');

  const relative = 'ideas/images/1600-wide.png';
  mkdirSync(join(config.dataDir, 'media', 'ideas/images'), { recursive: true });
  writeFileSync(join(config.dataDir, 'media', relative), await png(1600, 900));
  const [idea] = await db.insert(ideas).values({ moduleId: 1, creatorId: 5, name: 'With image', description: 'x', image: relative }).returning();
  const ref = `${idea.created.getUTCFullYear()}-${String(idea.id).padStart(5, '0')}`;
  const ideaPage = await new Browser(app).get(`/org/ideas/${ref}/`);
  assert.equal(ideaPage.status, 200);
  assert.match(ideaPage.text, new RegExp(`<img src="/media/${relative}" srcset="/media/variants/w480/${relative} 480w, /media/variants/w960/${relative} 960w, /media/${relative} 1600w" sizes="[^"]+"`));
  assert.doesNotMatch(ideaPage.text, /2048w/);
});

test('static files are linked under their content hash and cached for a year there (issue 36.12)', async () => {
  const { app } = await dashboardApp();
  const visitor = new Browser(app);
  const page = (await visitor.get('/')).text;
  const css = /<link rel="stylesheet" href="(\/static\/v\/([0-9a-f]{16})\/site\.css)"/.exec(page);
  assert.ok(css, 'the page links the hashed name');
  const hashed = await visitor.download(css[1]);
  assert.equal(hashed.status, 200);
  assert.equal(hashed.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.match(String(hashed.headers['content-type']), /^text\/css/);
  assert.match(page, /<script src="\/static\/v\/[0-9a-f]{16}\/timeago\.js" defer/);
  const outdated = await visitor.download('/static/v/0000000000000000/site.css');
  assert.equal(outdated.status, 301);
  assert.equal(outdated.headers.location, css[1]);
  for (const bad of ['/static/v/0000000000000000/../app.ts', '/static/v/0000000000000000/missing.css', '/static/v/xyz/site.css']) assert.ok([400, 404].includes((await visitor.download(bad)).status), bad);
  const plain = await visitor.download('/static/site.css');
  assert.equal(plain.status, 200, 'the plain name still answers');
  assert.doesNotMatch(String(plain.headers['cache-control']), /immutable/);
});
