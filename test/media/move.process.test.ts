import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { buildApp } from '../../src/app.js';
import { type Config, testConfig } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { mediaFiles, projects } from '../../src/db/schema/index.js';
import { ideas } from '../../src/features/ideas/schema.js';
import type { FastifyInstance } from 'fastify';
import { moveMedia } from '../../src/media/move.js';
import { openMediaFiles } from '../../src/media/store.js';
import { clonePostgresTemplate } from '../database.js';
import { createTestApp } from '../helpers.js';
import { load } from '../fixtures.js';
import { dashboardWorld, signedIn } from '../manage/world.js';
import { programArgs } from '../processes.js';

const png = async (name: string, width: number, height: number) => ({ name, filename: `${name}.png`, type: 'image/png', data: await sharp({ create: { width, height, channels: 3, background: '#3a7' } }).png().toBuffer() });
const filesIn = (dir: string) => (existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length : 0);

test('manage media-move: the files go into the database and back out, each row\'s file stays reachable, a second run moves nothing', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'allmende-media-move-'));
  const clone = await clonePostgresTemplate();
  after(async () => {
    await clone?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, SEED_DEMO: 'false', NODE_ENV: 'development', SECRET_KEY: 'media-move-test-secret-key-media-move-test' };
  delete env.DATABASE_URL;
  delete env.MEDIA_STORE;
  if (clone) env.DATABASE_URL = clone.url;
  const manage = (...args: string[]) => spawnSync(process.execPath, programArgs('manage', 'media-move', ...args), { env, encoding: 'utf8' });

  /** An app on the test's database with the given store; closed (with the database) after `use`. */
  async function withApp<T>(mediaStore: Config['mediaStore'], use: (app: FastifyInstance, database: Database) => Promise<T>): Promise<T> {
    const database = await openDatabase({ databaseUrl: clone?.url ?? null, dataDir });
    await database.migrate();
    const app = await buildApp({ config: testConfig({ dataDir, mediaStore, databaseUrl: clone?.url ?? null }), database });
    try {
      return await use(app, database);
    } finally {
      await app.close();
      await database.close();
    }
  }
  const status = (app: FastifyInstance, paths: string[]) => Promise.all(paths.map(async (path) => `${path} ${(await app.inject({ method: 'GET', url: `/media/${path}` })).statusCode}`));

  // Uploaded in the directory store, and one file of an older upload (a random name) that a row names.
  const paths = await withApp('directory', async (app, { db }) => {
    await load(db, dashboardWorld());
    const initiator = await signedIn(app, 'initiator');
    const fields = { name: 'Draft plan', description: 'x', access: 'PUBLIC', image_copyright: 'City', image_alt_text: 'Square', tile_image_copyright: 'Me', tile_image_alt_text: 'Green' };
    assert.equal((await initiator.postMultipart('/org/dashboard/projects/draft-plan/basic/', fields, [await png('image', 1500, 500), await png('tile_image', 800, 400)])).status, 302);
    const [project] = await db.select().from(projects).where(eq(projects.id, 2));
    const legacy = 'ideas/images/0b6f0a8e-older-upload.png';
    mkdirSync(join(dataDir, 'media', 'ideas', 'images'), { recursive: true });
    writeFileSync(join(dataDir, 'media', legacy), (await png('x', 600, 400)).data);
    await db.insert(ideas).values({ moduleId: 1, creatorId: 5, name: 'Older', description: 'x', image: legacy });
    return [project.image, project.tileImage, `variants/w480/${project.tileImage}`, `variants/w960/${project.image}`, legacy].filter((path): path is string => Boolean(path));
  });
  const reachable = paths.map((path) => `${path} 200`);
  assert.equal(paths.length, 5);
  assert.equal(filesIn(join(dataDir, 'media')), 7, 'two images, four smaller copies, the older file');

  const into = manage('--to', 'database');
  assert.equal(into.status, 0, into.stderr);
  assert.match(into.stdout, /^Media moved to the database: 7 moved, 0 already there, 0 failed\.\nSet MEDIA_STORE=database for the server to read them there\.$/m);
  assert.equal(filesIn(join(dataDir, 'media')), 0, 'nothing left on this machine');
  await withApp('database', async (app, { db }) => {
    assert.deepEqual(await status(app, paths), reachable);
    assert.equal((await db.select({ path: mediaFiles.path }).from(mediaFiles)).length, 7);
  });
  const again = manage('--to', 'database');
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stdout, /^Media moved to the database: 0 moved, 0 already there, 0 failed\./);

  const out = manage('--to', 'directory');
  assert.equal(out.status, 0, out.stderr);
  assert.match(out.stdout, /^Media moved to the directory: 7 moved, 0 already there, 0 failed\./);
  await withApp('directory', async (app, { db }) => {
    assert.deepEqual(await status(app, paths), reachable);
    assert.equal((await db.select({ path: mediaFiles.path }).from(mediaFiles)).length, 0);
  });

  const refused = manage('--to', 's3');
  assert.equal(refused.status, 1);
  assert.equal(refused.stderr.trim(), 'Error: media-move needs --to directory or --to database');
});

test('a file the target holds with other content is not moved: it stays in both stores and is counted as failed, the others move', async () => {
  const t = await createTestApp();
  const directory = openMediaFiles('directory', { dataDir: t.config.dataDir, db: t.db });
  const database = openMediaFiles('database', { dataDir: t.config.dataDir, db: t.db });
  await directory.write('ideas/images/a.png', Buffer.from('a'));
  await directory.write('ideas/images/b.png', Buffer.from('b'));
  await database.write('ideas/images/b.png', Buffer.from('other b'));
  const failures: string[] = [];
  const counts = await moveMedia(directory, database, (path) => failures.push(path));
  assert.deepEqual(counts, { moved: 1, present: 0, failed: 1 });
  assert.deepEqual(failures, ['ideas/images/b.png']);
  assert.deepEqual(await directory.paths(), ['ideas/images/b.png']);
  assert.deepEqual(await database.paths(), ['ideas/images/a.png', 'ideas/images/b.png']);
  assert.equal(String(await database.read('ideas/images/b.png')), 'other b');
});
