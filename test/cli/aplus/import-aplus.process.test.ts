import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openDatabase } from '../../../src/db/client.js';
import * as s from '../../../src/db/schema/index.js';
import { clonePostgresTemplate, migratedDataDir } from '../../database.js';
import { programArgs } from '../../processes.js';
import { APLUS_SAMPLE as DIR } from './sample.js';

function manage(where: { dataDir: string; databaseUrl: string | null }, ...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: where.dataDir, SEED_DEMO: 'false', NODE_ENV: 'development' };
  delete env.DATABASE_URL;
  if (where.databaseUrl) env.DATABASE_URL = where.databaseUrl;
  const result = spawnSync(process.execPath, programArgs('manage', ...args), { env, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

// The whole sample is imported twice in this file (a dry run and the import): each run costs CPU.
test('import-aplus on the sample: a dry run with its report writes nothing, the import places every row the report says, a second run is refused', async () => {
  const dataDir = await migratedDataDir('allmende-aplus-');
  const clone = await clonePostgresTemplate();
  if (clone) after(() => clone.drop());
  const where = { dataDir, databaseUrl: clone?.url ?? null };
  const args = ['import-aplus', '--dump', `${DIR}/dump-plain.json`, '--media', `${DIR}/media.tar.gz`];

  const reportFile = join(dataDir, 'report.json');
  const dry = manage(where, ...args, '--dry-run', '--report', reportFile);
  assert.equal(dry.status, 0, dry.stderr);
  assert.match(dry.stdout, /^Dry run \(nothing written\)/);
  assert.match(dry.stdout, /a4comments\.comment\s+44\s+44\s+0/);
  assert.match(dry.stdout, /a4_candy_offlineevents\.offlineevent\s+2\s+2\s+0/);
  assert.match(dry.stdout, /a4_candy_notifications\.notification\s+90\s+90\s+0/);
  assert.match(dry.stdout, /a4_candy_cms_settings\.organisationsettings\s+1\s+1\s+0/);
  assert.match(dry.stdout, /Skipped on purpose[^]*auth\.permission \(495\)/);
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  assert.equal(report.models['a4_candy_users.user'].imported, 15);
  assert.equal(readFileSync(join(dataDir, 'report.txt'), 'utf8').trim(), dry.stdout.trim(), 'the readable summary beside the JSON');

  const imported = manage(where, ...args);
  assert.equal(imported.status, 0, imported.stderr);
  assert.match(imported.stdout, /^Imported: /);
  // 28: every file of media.tar.gz, the topic's image (ideas/images/topic.png) included.
  assert.match(imported.stdout, /Media: 28 files copied, 0 missing in MEDIA/);

  const again = manage(where, ...args);
  assert.equal(again.status, 1);
  assert.equal(again.stderr.trim(), 'Error: the database is not empty (15 users, 2 organisations): import-aplus fills an empty Allmende only, so a second run changes nothing');

  const database = await openDatabase(where);
  try {
    assert.equal(await database.db.$count(s.users), 15);
    assert.equal(await database.db.$count(s.comments), 44);
    assert.equal(await database.db.$count(s.ratings), 51);
  } finally {
    await database.close();
  }
});
