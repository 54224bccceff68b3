import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { desc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { projects } from '../../src/db/schema/index.js';
import { ideas } from '../../src/features/ideas/schema.js';
import { mapIdeas } from '../../src/features/mapideas/schema.js';
import { proposals } from '../../src/features/budgeting/schema.js';
import { pollQuestions, polls } from '../../src/features/polls/schema.js';
import { liveEventMedia } from '../../src/features/interactiveevents/schema.js';
import { Browser, type UploadFile } from '../me/accounts/client.js';
import { dashboardApp, signedIn } from '../manage/world.js';

const png = async (name: string, width: number, height: number): Promise<UploadFile> => ({
  name,
  filename: `${name}.png`,
  type: 'image/png',
  data: await sharp({ create: { width, height, channels: 3, background: '#3a7' } }).png().toBuffer(),
});
const fields = { name: 'Project', description: 'A project', access: 'PUBLIC', image_copyright: 'City', image_alt_text: 'Square', tile_image_copyright: 'Me', tile_image_alt_text: 'Green' };

/** Project 1 ("project") with a header and a tile image uploaded through the basic settings. */
async function withImages() {
  const t = await dashboardApp();
  const initiator = await signedIn(t.app, 'initiator');
  const saved = await initiator.postMultipart('/org/dashboard/projects/project/basic/', fields, [await png('image', 1500, 500), await png('tile_image', 800, 400)]);
  assert.equal(saved.status, 302);
  const stored = async (id: number) => (await t.db.select().from(projects).where(eq(projects.id, id)))[0];
  const served = async (path: string | null) => path !== null && existsSync(join(t.config.dataDir, 'media', path)) && (await new Browser(t.app).download(`/media/${path}`)).status === 200;
  return { ...t, initiator, stored, served };
}

test('issue 21 finding 14: a duplicate shares the stored images (content-addressed); removing or replacing the copy\'s leaves the original\'s', async () => {
  const { db, initiator, stored, served } = await withImages();
  const original = await stored(1);
  assert.equal((await initiator.post('/org/dashboard/projects/project/duplicate/', {})).status, 302);
  // The copy is the newest project (named "Copy of …" in the organisation's language).
  const [copy] = await db.select().from(projects).orderBy(desc(projects.id)).limit(1);
  assert.ok(copy.image && copy.tileImage);
  assert.equal(copy.image, original.image, 'one content, one stored file');
  assert.equal(copy.tileImage, original.tileImage);
  assert.ok((await served(copy.image)) && (await served(copy.tileImage)));
  const copyBasic = `/org/dashboard/projects/${copy.slug}/basic/`;
  assert.equal((await initiator.postMultipart(copyBasic, { ...fields, tile_image_clear: 'on' }, await png('image', 1600, 600))).status, 302);
  assert.ok(await served(original.image), 'replacing the copy\'s header image keeps the original\'s');
  assert.ok(await served(original.tileImage), 'removing the copy\'s tile image keeps the original\'s');
});

test('issue 21 finding 15: deleting a project removes its header, tile and idea images', async () => {
  const { db, initiator, stored, served, config } = await withImages();
  const project = await stored(1);
  const ideaImage = 'ideas/images/race-test.png';
  mkdirSync(join(config.dataDir, 'media', 'ideas/images'), { recursive: true });
  writeFileSync(join(config.dataDir, 'media', ideaImage), (await png('x', 10, 10)).data);
  await db.insert(ideas).values({ moduleId: 1, creatorId: 5, name: 'With image', description: 'x', image: ideaImage });
  assert.ok((await served(project.image)) && (await served(project.tileImage)) && (await served(ideaImage)));
  assert.equal((await initiator.post('/org/dashboard/projects/project/delete/', {})).status, 302);
  for (const path of [project.image, project.tileImage, ideaImage]) assert.equal(await served(path), false, `${path} is gone`);
});

test('issue 36.10: deleting a project removes the images of its map ideas, proposals, poll questions and event', async () => {
  const { db, initiator, served, config } = await withImages();
  const image = async (path: string) => {
    mkdirSync(join(config.dataDir, 'media', path, '..'), { recursive: true });
    writeFileSync(join(config.dataDir, 'media', path), (await png('x', 10, 10)).data);
    return path;
  };
  const point = { type: 'Feature' as const, geometry: { type: 'Point' as const, coordinates: [13.4, 52.5] as [number, number] }, properties: {} };
  const paths = [await image('mapideas/images/map.png'), await image('budgeting/images/proposal.png'), await image('polls/images/question.png'), await image('interactiveevents/images/event.png')];
  await db.insert(mapIdeas).values({ moduleId: 1, creatorId: 5, name: 'Map idea', description: 'x', image: paths[0], point });
  await db.insert(proposals).values({ moduleId: 1, creatorId: 5, name: 'Proposal', description: 'x', image: paths[1], point });
  const [poll] = await db.insert(polls).values({ moduleId: 1, creatorId: 2 }).returning({ id: polls.id });
  await db.insert(pollQuestions).values({ pollId: poll.id, label: 'Which?', image: paths[2] });
  await db.insert(liveEventMedia).values({ moduleId: 1, eventImage: paths[3] });
  for (const path of paths) assert.ok(await served(path), path);
  assert.equal((await initiator.post('/org/dashboard/projects/project/delete/', {})).status, 302);
  for (const path of paths) assert.equal(await served(path), false, `${path} is gone`);
});
