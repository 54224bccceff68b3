import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openDatabase } from '../../src/db/client.js';
import * as s from '../../src/db/schema/index.js';
import { paragraphs } from '../../src/features/documents/schema.js';
import { ideas } from '../../src/features/ideas/schema.js';
import { Browser } from '../me/accounts/client.js';
import { clonePostgresTemplate, migratedDataDir } from '../database.js';
import { createTestApp } from '../helpers.js';
import { everyKindFixture } from './world.js';
import { programArgs } from '../processes.js';

/** Each test gets its own migrated data dir, and on PostgreSQL runs its own database. */
async function place() {
  const dataDir = await migratedDataDir('allmende-cli-');
  const clone = await clonePostgresTemplate();
  if (clone) after(() => clone.drop());
  return { dataDir, databaseUrl: clone?.url ?? null };
}

function manage(where: { dataDir: string; databaseUrl: string | null }, ...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: where.dataDir, SEED_DEMO: 'false', NODE_ENV: 'development' };
  delete env.DATABASE_URL;
  if (where.databaseUrl) env.DATABASE_URL = where.databaseUrl;
  const result = spawnSync(process.execPath, programArgs('manage', ...args), { env, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function rowCounts(where: { dataDir: string; databaseUrl: string | null }) {
  const database = await openDatabase(where);
  try {
    const tables = { users: s.users, ideas, comments: s.comments, ratings: s.ratings, reports: s.reports, commentFeedback: s.commentFeedback, follows: s.follows, actions: s.actions, paragraphs };
    const counts: Record<string, number> = {};
    for (const [name, table] of Object.entries(tables)) counts[name] = (await database.db.select().from(table)).length;
    return counts;
  } finally {
    await database.close();
  }
}

test('loaddata stores every record kind, and a restart keeps everything', async () => {
  const where = await place();
  const file = join(where.dataDir, 'fixture.json');
  writeFileSync(file, JSON.stringify(everyKindFixture()));
  const loaded = manage(where, 'loaddata', file);
  assert.equal(loaded.status, 0, loaded.stderr);
  assert.match(loaded.stdout, /Loaded 3 users, 1 organisations, 1 projects, 1 modules, 1 ideas, 1 polls, 1 chapters, 1 paragraphs, 4 comments, 1 ratings, 1 reports, 1 comment_feedback, 1 follows\./);
  const expected = { users: 3, ideas: 1, comments: 4, ratings: 1, reports: 1, commentFeedback: 1, follows: 3, actions: 5, paragraphs: 1 };
  assert.deepEqual(await rowCounts(where), expected);
  assert.deepEqual(await rowCounts(where), expected, 'the second open (a restart) sees the same data');
});

test('a bad fixture gives one clear line, a non-zero exit and stores nothing', async () => {
  const where = await place();
  const fixture = everyKindFixture();
  (fixture.projects ?? [])[0].organisation = 9;
  const file = join(where.dataDir, 'bad.json');
  writeFileSync(file, JSON.stringify(fixture));
  const result = manage(where, 'loaddata', file);
  assert.equal(result.status, 1);
  assert.equal(result.stderr.trim(), 'Error: projects[0].organisation: no organisation 9');
  assert.equal((await rowCounts(where)).users, 0);
  const notJson = join(where.dataDir, 'broken.json');
  writeFileSync(notJson, '{"users": [');
  const broken = manage(where, 'loaddata', notJson);
  assert.equal(broken.status, 1);
  assert.match(broken.stderr, /is not valid JSON/);
});

test('createsuperuser (German unless --language says otherwise), then a duplicate is refused; unknown commands exit non-zero', async () => {
  const where = await place();
  const created = manage(where, 'createsuperuser', '--username', 'rooted', '--email', 'root@example.org', '--password', 'pw-123456');
  assert.equal(created.status, 0, created.stderr);
  const english = manage(where, 'createsuperuser', '--username', 'admin', '--email', 'admin@example.org', '--password', 'pw-123456', '--language', 'en');
  assert.equal(english.status, 0, english.stderr);
  assert.match(english.stdout, /Superuser "admin" created \(language: en\)\./);
  const french = manage(where, 'createsuperuser', '--username', 'franz', '--email', 'franz@example.org', '--password', 'pw-123456', '--language', 'fr');
  assert.equal(french.status, 1);
  assert.match(french.stderr, /--language must be one of en, de, got "fr"/);
  const database = await openDatabase(where);
  try {
    const rows = await database.db.select({ username: s.users.username, language: s.users.language, isSuperuser: s.users.isSuperuser }).from(s.users).orderBy(s.users.id);
    assert.deepEqual(rows, [
      { username: 'rooted', language: 'de', isSuperuser: true },
      { username: 'admin', language: 'en', isSuperuser: true },
    ]);
  } finally {
    await database.close();
  }
  const again = manage(where, 'createsuperuser', '--username', 'ROOTED', '--email', 'x@example.org', '--password', 'pw');
  assert.equal(again.status, 1);
  assert.match(again.stderr, /exists already/);
  const unknown = manage(where, 'frobnicate');
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /Unknown command "frobnicate"/);
});

test('createsuperuser refuses the e-mail addresses that signup refuses', async () => {
  const { app } = await createTestApp();
  const where = await place();
  for (const email of ['ops@localhost', 'ops<x>@example.org']) {
    const signup = await new Browser(app).post('/accounts/signup/', { username: 'opsteam', email, password1: 'a-long-secret', password2: 'a-long-secret', terms_of_use: 'on' });
    assert.equal(signup.status, 400);
    assert.match(signup.text, /Enter a valid email address\./);
    const cli = manage(where, 'createsuperuser', '--username', 'opsteam', '--email', email, '--password', 'pw-123456');
    assert.equal(cli.status, 1, cli.stderr);
    assert.match(cli.stderr, /the e-mail address is not valid/);
  }
  assert.equal((await rowCounts(where)).users, 0);
});

test('bad configuration stops the CLI with one clear line', async () => {
  const where = await place();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: where.dataDir, PORT: 'eighty' };
  const result = spawnSync(process.execPath, programArgs('manage', 'migrate'), { env, encoding: 'utf8' });
  assert.equal(result.status, 1);
  assert.equal(result.stderr.trim(), 'Configuration error: PORT must be a whole number, got "eighty"');
});

test('seed-demo fills an empty database once; send-system-notices (also under its old name) records phase actions', async () => {
  const where = await place();
  const seeded = manage(where, 'seed-demo');
  assert.equal(seeded.status, 0, seeded.stderr);
  assert.match(seeded.stdout, /alice/);
  assert.equal(manage(where, 'seed-demo').status, 1);
  for (const name of ['send-system-notices', 'create-system-actions']) {
    const actions = manage(where, name);
    assert.equal(actions.status, 0, actions.stderr);
    assert.match(actions.stdout, /Phases started: \d+, projects started: \d+, phases ending soon: \d+, e-mails queued: \d+\./);
  }
});

test('delete-expired-guests deletes the guests inactive for --days (default GUEST_EXPIRY_DAYS) and keeps accounts; a bad --days is refused', async () => {
  const where = await place();
  const file = join(where.dataDir, 'guests.json');
  const longAgo = new Date(Date.now() - 60 * 24 * 60 * 60 * 1000).toISOString();
  const user = (id: number, username: string, isGuest: boolean) => ({ id, username, email: `${username}@example.org`, is_guest: isGuest, email_verified: !isGuest, date_joined: longAgo });
  writeFileSync(file, JSON.stringify({ users: [user(1, 'guest-0000000000a1', true), user(2, 'registered', false)] }));
  assert.equal(manage(where, 'loaddata', file).status, 0);
  const refused = manage(where, 'delete-expired-guests', '--days', 'soon');
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /--days takes a whole number from 1 to 36500/);
  const kept = manage(where, 'delete-expired-guests', '--days', '50');
  assert.equal(kept.status, 0, kept.stderr);
  assert.match(kept.stdout, /Expired guests deleted: 0\./, '60 days ago, less its session of 14 days, is not 50 days');
  const deleted = manage(where, 'delete-expired-guests');
  assert.equal(deleted.status, 0, deleted.stderr);
  assert.match(deleted.stdout, /Expired guests deleted: 1\./);
  assert.equal((await rowCounts(where)).users, 2, 'the account and the placeholder that holds what deleted accounts leave');
});
