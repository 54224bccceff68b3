import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { buildApp } from '../../src/app.js';
import { type Config, ConfigError, loadConfig, testConfig } from '../../src/config.js';
import * as schema from '../../src/db/schema/index.js';
import { projects } from '../../src/db/schema/index.js';
import { mediaColumns } from '../../src/media/references.js';
import { MODULE_TYPES } from '../../src/module-types.js';
import type { UploadFile } from '../me/accounts/client.js';
import { createTestApp, type TestApp } from '../helpers.js';
import { load } from '../fixtures.js';
import { dashboardWorld, signedIn } from '../manage/world.js';

const BASIC = '/org/dashboard/projects/draft-plan/basic/';
const fields = { name: 'Draft plan', description: 'Not yet out', access: 'PUBLIC', image_copyright: 'City', image_alt_text: 'Square', tile_image_copyright: 'Me', tile_image_alt_text: 'Green' };
const png = async (name: string, width: number, height: number, background = '#3a7'): Promise<UploadFile> => ({
  name,
  filename: `${name}.png`,
  type: 'image/png',
  data: await sharp({ create: { width, height, channels: 3, background } }).png().toBuffer(),
});
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const filesIn = (dir: string) => (existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length : 0);

/** Another app instance on the same database, with a data directory of its own (another machine). */
async function secondInstance(t: TestContext, first: TestApp, overrides: Partial<Config> = {}): Promise<FastifyInstance> {
  const dataDir = mkdtempSync(join(tmpdir(), 'allmende-second-'));
  const app = await buildApp({ config: testConfig({ dataDir, mediaStore: 'database', ...overrides }), database: first.database });
  await app.ready();
  t.after(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return app;
}

/** The draft project's header and tile image uploaded through the dashboard form of `t`. */
async function uploadProjectImages(t: TestApp) {
  const initiator = await signedIn(t.app, 'initiator');
  const saved = await initiator.postMultipart(BASIC, fields, [await png('image', 1500, 500), await png('tile_image', 800, 400)]);
  assert.equal(saved.status, 302, saved.text);
  const [project] = await t.db.select().from(projects).where(eq(projects.id, 2));
  assert.ok(project.image && project.tileImage);
  return { initiator, project: { image: project.image, tileImage: project.tileImage } };
}

test('MEDIA_STORE=database: an image uploaded through one instance is served by another on the same database, its smaller copies too; nothing lands on the first one\'s disk', async (t) => {
  const first = await createTestApp({ mediaStore: 'database' });
  await load(first.db, dashboardWorld());
  const { project } = await uploadProjectImages(first);
  assert.match(project.image, /^projects\/backgrounds\/[0-9a-f]{64}\.png$/, 'the path names the content');
  assert.equal(filesIn(join(first.config.dataDir, 'media')), 0);

  const second = await secondInstance(t, first);
  for (const path of [project.image, project.tileImage, `variants/w480/${project.tileImage}`, `variants/w960/${project.image}`]) {
    const served = await second.inject({ method: 'GET', url: `/media/${path}` });
    assert.equal(served.statusCode, 200, path);
    assert.equal(served.headers['content-type'], 'image/png');
    assert.equal(served.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(served.headers.etag, `"${sha256(served.rawPayload)}"`, 'the ETag is the content\'s SHA-256');
  }
  const header = await second.inject({ method: 'GET', url: `/media/${project.image}` });
  assert.ok(project.image.includes(sha256(header.rawPayload)), 'the URL holds the hash of what it serves');
  const again = await second.inject({ method: 'GET', url: `/media/${project.image}`, headers: { 'if-none-match': String(header.headers.etag) } });
  assert.equal(again.statusCode, 304);
  assert.equal(again.rawPayload.length, 0);
  assert.equal(again.headers.etag, header.headers.etag);
  const changed = await second.inject({ method: 'GET', url: `/media/${project.image}`, headers: { 'if-none-match': '"other"' } });
  assert.equal(changed.statusCode, 200);
  const page = await (await signedIn(second, 'initiator')).get(BASIC);
  assert.match(page.text, new RegExp(`<img src="/media/${project.image}"`), 'the other instance\'s page names the same URL');
});

test('MEDIA_STORE=database: an avatar (with its thumbnail) uploaded through the settings page is served by another instance; a replaced one is gone from both', async (t) => {
  const first = await createTestApp({ mediaStore: 'database' });
  await load(first.db, dashboardWorld());
  const second = await secondInstance(t, first);
  const initiator = await signedIn(first.app, 'initiator');
  const account = { username: 'initiator', email: 'initiator@example.org', language: 'en' };
  const saved = await initiator.postMultipart('/account/', account, await png('avatar', 300, 300));
  assert.equal(saved.status, 302, saved.text);
  const [user] = await first.db.select().from(schema.users).where(eq(schema.users.username, 'initiator'));
  assert.ok(user.avatar);
  const thumbnail = user.avatar.replace(/\.png$/, '.avatar.png');
  for (const path of [user.avatar, thumbnail]) assert.equal((await second.inject({ method: 'GET', url: `/media/${path}` })).statusCode, 200, path);
  const replacing = await initiator.postMultipart('/account/', account, await png('avatar', 300, 300, '#a37'));
  assert.equal(replacing.status, 302);
  for (const path of [user.avatar, thumbnail]) assert.equal((await second.inject({ method: 'GET', url: `/media/${path}` })).statusCode, 404, `${path} is removed`);
});

for (const mediaStore of ['directory', 'database'] as const) {
  test(`${mediaStore} store: unknown hashes, odd paths and odd copies are 404, never 500`, async () => {
    const t = await createTestApp({ mediaStore });
    for (const url of [
      `/media/projects/backgrounds/${'0'.repeat(64)}.png`,
      '/media/..%2Fsecret_key',
      '/media/../secret_key',
      '/media/projects/.hidden.png',
      `/media/${'a/'.repeat(300)}x.png`,
      `/media/variants/w480/projects/backgrounds/${'0'.repeat(64)}.png`,
      '/media/variants/w12/projects/x.png',
      '/media/variants/w480/../x.png',
      '/media/',
    ]) {
      let answer = await t.request({ method: 'GET', url });
      // A path the HTTP layer resolves out of /media/ ('/media/../secret_key' is '/secret_key') may be
      // sent on to its slashed form, as Django's APPEND_SLASH does: that is a page address, not a file.
      if (answer.status === 301) answer = await t.request({ method: 'GET', url: String(answer.headers.location) });
      assert.equal(answer.status, 404, url);
    }
  });
}

test('every column that names an image is one the removal checks (a file named by a row is never removed)', async () => {
  const named = new Set(mediaColumns().map((column) => `${getTableConfig(column.table as PgTable).name}.${column.name}`));
  assert.ok(MODULE_TYPES.length > 0, 'the module types (and their media columns) are registered');
  // Every table of the migrated database, the floor's and the module types' (schema-drift.process.test.ts holds the Drizzle schema to it).
  const t = await createTestApp();
  const result = await t.db.execute(
    sql`select table_name, column_name from information_schema.columns where table_schema = 'public' and data_type in ('text', 'character varying') and column_name ~ '(^|_)(image|logo|avatar|document)$'`,
  );
  const imageLike = (result as unknown as { rows: { table_name: string; column_name: string }[] }).rows.map((row) => `${row.table_name}.${row.column_name}`);
  assert.deepEqual([...imageLike].sort(), [...named].sort());
});

test('MEDIA_STORE is directory or database; database needs an explicit SECRET_KEY (one key for every instance)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'allmende-config-'));
  assert.equal(loadConfig({ DATA_DIR: dataDir }).mediaStore, 'directory');
  assert.equal(loadConfig({ DATA_DIR: dataDir, MEDIA_STORE: 'database', SECRET_KEY: 'k'.repeat(40) }).mediaStore, 'database');
  assert.throws(() => loadConfig({ DATA_DIR: dataDir, MEDIA_STORE: 's3' }), (error: unknown) => error instanceof ConfigError && /MEDIA_STORE must be directory or database/.test(error.message));
  assert.throws(() => loadConfig({ DATA_DIR: dataDir, MEDIA_STORE: 'database' }), (error: unknown) => error instanceof ConfigError && /SECRET_KEY must be set with MEDIA_STORE=database/.test(error.message));
  rmSync(dataDir, { recursive: true, force: true });
});
