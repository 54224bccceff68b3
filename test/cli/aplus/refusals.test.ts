import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { AplusImportError, importAplus } from '../../../src/cli/aplus/import.js';
import { checkPassword } from '../../../src/core/users/passwords.js';
import * as floor from '../../../src/db/schema/index.js';
import { ideas } from '../../../src/features/ideas/schema.js';
import { createTestDatabase } from '../../database.js';
import { smallDump, writeDump } from './dumps.js';

const s = { ...floor, ideas };

/** One database for the file: every refused or dry run must leave it empty, so the last test imports into it. */
const database = await createTestDatabase();
after(() => database.close());
const { db } = database;
const store = { mediaStore: 'database' as const, dataDir: '' };
const run = (files: { dump: string; media: string }, dryRun = false) => importAplus(db, { ...files, dryRun, store });

async function assertEmpty() {
  for (const table of [s.users, s.organisations, s.projects, s.ideas, s.comments, s.mediaFiles]) assert.equal(await db.$count(table), 0);
}

async function refused(files: { dump: string; media: string }, message: RegExp) {
  await assert.rejects(run(files), (error: unknown) => error instanceof AplusImportError && message.test(error.message) && !error.message.includes('\n'));
  await assertEmpty();
}

test('a cut-off dump is refused with one line, and nothing is written', async () => {
  const text = JSON.stringify(smallDump(), null, 1);
  await refused(writeDump(text.slice(0, Math.floor(text.length * 0.8))), /is not complete JSON \(cut off or damaged after \d+ records/);
});

test('a JSON file that is not a dumpdata file, or a Django dump of another project, is refused with one line', async () => {
  await refused(writeDump('{"users": []}'), /is not a Django dumpdata file \(its top level is not a JSON array\)/);
  await refused(writeDump('[{"name": "x"}]'), /is not a Django dumpdata file: record 0 has no "model" and "fields"/);
  await refused(writeDump([{ model: 'auth.user', pk: 1, fields: { username: 'x' } }]), /is not an adhocracy\+ dump/);
  await refused(writeDump('[]'), /holds no records/);
});

test('a dump without pks (--natural-primary), a missing dump, a missing or wrong MEDIA are refused with one line', async () => {
  const files = writeDump(smallDump().map((r) => (r.model === 'a4_candy_users.user' ? { ...r, pk: null as unknown as number } : r)));
  await refused(files, /a4_candy_users\.user record \d+ has no pk \(a dump made with --natural-primary cannot be imported; use --natural-foreign only\)/);
  const good = writeDump(smallDump());
  await refused({ dump: `${good.dump}.gone`, media: good.media }, /^cannot read the dump .*\.gone$/);
  await refused({ dump: good.dump, media: `${good.media}/gone` }, /the media .*\/gone does not exist \(give the old media\/ folder or a \.tar\.gz of it\)/);
  await refused({ dump: good.dump, media: good.dump }, /the media .*dump\.json is neither a folder nor a \.tar\.gz/);
});

test('an organisation or project whose slug is one of Allmende\'s paths, and a newsletter with an unknown target group, stop the import naming the row', async () => {
  const slug = smallDump().map((r) => (r.model === 'a4_candy_organisations.organisation' ? { ...r, fields: { ...r.fields, slug: 'accounts' } } : r));
  await refused(writeDump(slug), /^a4_candy_organisations\.organisation pk 2: slug "accounts" is a path of Allmende and cannot be a slug; rename it in a\+ before the dump$/);
  const newsletter = [...smallDump(), { model: 'a4_candy_newsletters.newsletter', pk: 1, fields: { creator: ['anna'], sender_name: 'Stadt', sender: '', subject: 'Hallo', body: '<p>Hi</p>', sent: null, receivers: 7, project: null, organisation: 2, created: '2025-03-01T10:00:00Z' } }];
  await refused(writeDump(newsletter), /^a4_candy_newsletters\.newsletter pk 1: receivers 7 is none of 0 \(platform\), 1 \(organisation\), 2 \(project\), 3 \(initiators\)$/);
});

test('a row that breaks a rule stops the import with its model and pk, and the database stays as before', async () => {
  const dump = smallDump();
  const idea = dump.find((r) => r.model === 'a4_candy_ideas.idea');
  const item = dump.find((r) => r.model === 'a4modules.item');
  if (!idea || !item) throw new Error('the small dump has an idea');
  item.fields.module = 99;
  await refused(writeDump(dump), /^a4modules\.item pk 40: module 99 is not a module of the dump$/);
  const twice = smallDump();
  const anna = twice.find((r) => r.model === 'a4_candy_users.user');
  if (!anna) throw new Error('the small dump has a user');
  twice.push({ ...anna, pk: 8 });
  await refused(writeDump(twice), /^a4_candy_users\.user pk \d+: .*(already exists|duplicate)/i);
});

test('a dry run reads everything and says per model what it would import and what it cannot place, writing nothing', async () => {
  const report = await run(writeDump(smallDump(false)), true);
  assert.equal(report.dryRun, true);
  assert.deepEqual(report.models['a4comments.comment'], { found: 2, imported: 2, cannotPlace: {} });
  assert.deepEqual(report.models['a4_candy_offlineevents.offlineevent'], { found: 1, imported: 1, cannotPlace: {} });
  assert.equal(report.models['a4_candy_activities.activity'].skipped?.kind, 'no home yet');
  assert.deepEqual(Object.values(report.models['a4_candy_activities.activity'].cannotPlace), [1]);
  assert.equal(report.models['auth.permission'].skipped?.kind, 'on purpose');
  assert.deepEqual(report.media_files.missing, [{ path: 'users/images/missing.png', model: 'a4_candy_users.user', pk: '7' }]);
  await assertEmpty();
});

test('a plain dump (content types by pk) imports: the old password works, replies and ratings find their objects; a second run is refused', async () => {
  const files = writeDump(smallDump(false));
  const report = await run(files);
  assert.equal(report.models['a4ratings.rating'].imported, 1);
  const [anna] = await db.select().from(s.users).where(eq(s.users.username, 'anna'));
  assert.deepEqual([anna.id, anna.emailVerified, anna.avatar, anna.bio], [7, true, null, 'Hallo'], 'a missing avatar file is reported, not fatal');
  assert.equal((await checkPassword('password', anna.password)).ok, true);
  const comments = await db.select({ id: s.comments.id, type: s.comments.contentType, on: s.comments.objectPk, removed: s.comments.isRemoved }).from(s.comments).orderBy(s.comments.id);
  assert.deepEqual(comments, [
    { id: 5, type: 'idea', on: 40, removed: false },
    { id: 6, type: 'comment', on: 5, removed: true },
  ]);
  const [idea] = await db.select({ id: s.ideas.id, created: s.ideas.created, slug: s.ideas.legacySlug }).from(s.ideas);
  assert.deepEqual(idea, { id: 40, created: new Date('2025-02-03T10:00:00Z'), slug: 'baume' });
  const [project] = await db.select({ lat: s.projects.pointLat, lng: s.projects.pointLng }).from(s.projects);
  assert.deepEqual(project, { lat: 52.5, lng: 13.4 });
  await assert.rejects(run(files), /^Error: the database is not empty \(1 users, 1 organisations\): import-aplus fills an empty Allmende only/);
  assert.equal(await db.$count(s.comments), 2, 'nothing duplicated');
});
