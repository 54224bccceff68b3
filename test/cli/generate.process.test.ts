import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { generate, GENERATED_PASSWORD } from '../../src/cli/generate.js';
import { openDatabase, type DbOrTx } from '../../src/db/client.js';
import { clonePostgresTemplate, migratedDataDir } from '../database.js';
import { createTestApp } from '../helpers.js';
import { programArgs } from '../processes.js';

async function counts(db: DbOrTx) {
  const result = (await db.execute(
    sql.raw(`SELECT (SELECT count(*) FROM users) users, (SELECT count(*) FROM organisations) organisations, (SELECT count(*) FROM projects) projects,
      (SELECT count(*) FROM modules) modules, (SELECT count(*) FROM phases) phases, (SELECT count(*) FROM ideas) ideas,
      (SELECT count(*) FROM comments) comments, (SELECT count(*) FROM actions) actions`),
  )) as unknown as { rows: Record<string, string | number>[] };
  return Object.fromEntries(Object.entries(result.rows[0]).map(([k, v]) => [k, Number(v)]));
}

test('manage generate: adds the asked numbers all-or-nothing, prints a summary; bad arguments are one clear line', async () => {
  const dataDir = await migratedDataDir('allmende-generate-');
  const clone = await clonePostgresTemplate();
  if (clone) after(() => clone.drop());
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, SEED_DEMO: 'false', NODE_ENV: 'development' };
  delete env.DATABASE_URL;
  if (clone) env.DATABASE_URL = clone.url;
  const manage = (...args: string[]) => spawnSync(process.execPath, programArgs('manage', 'generate', ...args), { env, encoding: 'utf8' });

  const done = manage('--users', '5', '--organisations', '2', '--projects', '4', '--ideas', '8', '--comments', '30', '--actions', '30');
  assert.equal(done.status, 0, done.stderr);
  assert.match(done.stdout, /Generated 5 users, 2 organisations, 4 projects, 8 ideas, 30 comments, 30 actions in [\d.]+ s\./);

  const refused = manage('--comments', '10', '--projects', 'many');
  assert.equal(refused.status, 1);
  assert.equal(refused.stderr.trim(), 'Error: --projects takes a whole number up to 100000000');

  const database = await openDatabase({ databaseUrl: clone?.url ?? null, dataDir });
  try {
    assert.deepEqual(await counts(database.db), { users: 5, organisations: 2, projects: 4, modules: 4, phases: 4, ideas: 8, comments: 30, actions: 30 });
  } finally {
    await database.close();
  }
});

test('generated data hangs together: ids continue after existing rows, the app lists it, generated users log in', async () => {
  const { db, request } = await createTestApp();
  await db.transaction((tx) => generate(tx, { users: 4, organisations: 1, projects: 20, ideas: 40, comments: 100, actions: 100 }));
  await db.transaction((tx) => generate(tx, { users: 1, organisations: 0, projects: 0, ideas: 0, comments: 10, actions: 10 }));
  assert.deepEqual(await counts(db), { users: 5, organisations: 1, projects: 20, modules: 20, phases: 20, ideas: 40, comments: 110, actions: 110 });

  const orphans = (await db.execute(
    sql.raw(`SELECT count(*) n FROM comments c LEFT JOIN ideas i ON c.content_type = 'idea' AND i.id = c.object_pk
      LEFT JOIN modules m ON m.id = i.module_id WHERE i.id IS NULL OR m.project_id <> c.project_id`),
  )) as unknown as { rows: { n: string | number }[] };
  assert.equal(Number(orphans.rows[0].n), 0, 'every comment is on an idea of its project');

  const busy = (await db.execute(
    sql.raw(`SELECT count(*) n FROM actions WHERE target_creator_id = (SELECT min(id) FROM users)`),
  )) as unknown as { rows: { n: string | number }[] };
  assert.ok(Number(busy.rows[0].n) > 10, 'the first generated user has a busy activity feed');

  const login = await request({ method: 'POST', url: '/api/login/', payload: { username: 'gen_user_1', password: GENERATED_PASSWORD } });
  assert.equal(login.status, 200);
  const token = (login.body as { token: string }).token;
  const listed = await request({ url: '/api/app-projects/', headers: { authorization: `Token ${token}` } });
  assert.equal(listed.status, 200);
  const shown = (listed.body as unknown[]).length;
  assert.ok(shown > 0 && shown < 20, `some, not all projects are in the app list (${shown})`);
  const [project] = listed.body as { published_modules: number[] }[];
  const created = await request({
    method: 'POST',
    url: `/api/modules/${project.published_modules[0]}/ideas/`,
    headers: { authorization: `Token ${token}` },
    payload: { name: 'After generating', description: 'Sequences continue after the generated ids' },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal((created.body as { pk: number }).pk, 41);
});
