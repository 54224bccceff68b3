import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { compactProjectInsights, countContribution } from '../../src/core/insights/services.js';
import { loadProjectInsights } from '../../src/core/insights/queries.js';
import { basicWorld, daysFromNow, load, tokenHeader } from '../fixtures.js';
import { createTestApp } from '../helpers.js';
import { postgresSuite } from '../database.js';
import { INSIGHTS_COMPACT_INTERVAL_MS } from '../../src/jobs/background.js';
import { withDatabase } from '../../src/db/admin.js';

const WRITERS = 20;

/** basicWorld with 20 writers and a phase in which ideas are added, commented on and rated. */
function writersWorld() {
  const world = basicWorld();
  const writers = Array.from({ length: WRITERS }, (_, i) => ({ id: 100 + i, username: `writer${i}`, email: `writer${i}@example.org`, language: 'en' as const }));
  world.users = [...(world.users ?? []), ...writers];
  world.modules = (world.modules ?? []).map((module) => ({ ...module, phases: [{ type: 'a4_candy_ideas:collect_feedback', start_date: daysFromNow(-1), end_date: daysFromNow(10) }] }));
  world.ideas = [{ id: 1, module: 1, creator: 5, name: 'First', description: 'x', category: 1 }];
  return { world, writers };
}

async function writersApp() {
  const testApp = await createTestApp();
  const { world, writers } = writersWorld();
  await load(testApp.db, world);
  const headers = await Promise.all(writers.map((writer) => tokenHeader(testApp.db, writer.id)));
  const types = (await testApp.request({ method: 'GET', url: '/api/contenttypes/' })).body as { id: number; model: string }[];
  const ideaType = types.find((ct) => ct.model === 'idea')?.id;
  /** Each writer adds an idea, comments on the first idea and rates it, all at once. */
  const write = () =>
    Promise.all(
      headers.flatMap((auth, w) => [
        testApp.request({ method: 'POST', url: '/api/modules/1/ideas/', headers: auth, payload: { name: `Idea ${w}`, description: 'x', category: 1 } }),
        testApp.request({ method: 'POST', url: `/api/contenttypes/${ideaType}/objects/1/comments/`, headers: auth, payload: { comment: `Comment ${w}` } }),
        testApp.request({ method: 'POST', url: `/api/contenttypes/${ideaType}/objects/1/ratings/`, headers: auth, payload: { value: 1 } }),
      ]),
    );
  return { ...testApp, write };
}

test('statistics: 20 concurrent writers of one project are each counted once, before and after the rows are merged', async () => {
  const { db, write } = await writersApp();
  const answers = await write();
  assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([201]), answers.find((a) => a.status !== 201)?.text);
  const expected = { ideas: 1 + WRITERS, comments: WRITERS, ratings: WRITERS, votes: 0, participants: 1 + WRITERS };
  const before = await loadProjectInsights(db, 1);
  assert.deepEqual(before.totals, expected);
  await compactProjectInsights(db);
  const merged = await loadProjectInsights(db, 1);
  assert.deepEqual(merged, before, 'merging changes no figure');
  const rows = (await db.execute(sql`select count(*)::integer as n from project_insight_days where project_id = 1 group by day`)) as unknown as { rows: { n: number }[] };
  assert.ok(rows.rows.every((row) => row.n === 1), 'one row per day after merging');
});

/**
 * A writer holds its transaction open after counting a contribution to the project today; 20 writers
 * of the same project meanwhile add ideas, comments and ratings. They finish without waiting for it
 * (with a shared day row they would wait on its lock until it commits), and no lock is seen waiting
 * while they run (pg_locks sampled). PostgreSQL only: PGlite runs one statement at a time.
 */
if (postgresSuite) test('statistics on PostgreSQL: 20 concurrent writers of one project never wait on a shared row', async () => {
  const { db, write } = await writersApp();
  const [named] = ((await db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] }).rows;
  assert.ok(named && process.env.TEST_DATABASE_URL);
  const url = withDatabase(process.env.TEST_DATABASE_URL, named.name);
  const holder = new pg.Client({ connectionString: url });
  const sampler = new pg.Client({ connectionString: url });
  await Promise.all([holder.connect(), sampler.connect()]);
  try {

  await holder.query('begin');
  await holder.query(`insert into project_insight_participants (project_id, user_id) values (1, 1) on conflict do nothing`);
  await holder.query(`insert into project_insight_days (project_id, day, ideas, participants) values (1, (now() at time zone 'UTC')::date, 1, 1)`);

  const waits: unknown[] = [];
  let done = false;
  const writing = write().finally(() => {
    done = true;
  });
  while (!done) {
    const { rows } = await sampler.query(
      `select l.locktype, l.relation::regclass::text as relation, a.wait_event_type, a.wait_event, a.query
       from pg_locks l join pg_stat_activity a on a.pid = l.pid
       where not l.granted and a.datname = current_database()`,
    );
    waits.push(...rows);
    if (rows.length > 0) break;
  }
  await holder.query('commit');
  const answers = await writing;
  assert.deepEqual(waits, [], 'no writer waited on a lock');
  assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([201]));
  const insights = await loadProjectInsights(db, 1);
  assert.deepEqual(insights.totals, { ideas: 2 + WRITERS, comments: WRITERS, ratings: WRITERS, votes: 0, participants: 2 + WRITERS });
  await countContribution(db, 1, 1, 'comments', new Date());
  assert.equal((await loadProjectInsights(db, 1)).totals.participants, 2 + WRITERS, 'a known participant is not counted again');
  } finally {
    await Promise.all([holder.end(), sampler.end()]);
  }
});

test('the background work merges each project day\'s statistics rows every 10 minutes', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const { app, db } = await createTestApp();
  await load(db, basicWorld());
  const day = "'2026-03-01'";
  await db.execute(sql.raw(`insert into project_insight_days (project_id, day, ideas, comments, participants) values (1, ${day}, 1, 0, 1), (1, ${day}, 0, 1, 0), (1, ${day}, 0, 1, 1)`));
  const rows = async () => ((await db.execute(sql.raw(`select ideas, comments, ratings, participants from project_insight_days where day = ${day}`))) as unknown as { rows: unknown[] }).rows;
  t.mock.timers.tick(INSIGHTS_COMPACT_INTERVAL_MS - 1);
  assert.equal((await rows()).length, 3, 'nothing merged before the interval is up');
  t.mock.timers.tick(1);
  // Closing the app waits for a run that is going on.
  await app.close();
  assert.deepEqual(await rows(), [{ ideas: 1, comments: 2, ratings: 0, participants: 2 }]);
});
