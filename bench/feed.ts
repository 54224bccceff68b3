/**
 * The activity feed with a million activities, on PostgreSQL:
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/feed.ts [activities]
 * Creates a scratch database, gives one user `activities` comment actions (and as many feedback
 * actions), then times the first page, a page deep down (keyset) and the page's details.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { loadFixture } from '../src/cli/loaddata.js';
import { withClient, withDatabase } from '../src/db/admin.js';
import { openPostgres } from '../src/db/client.js';
import { feedEntries, feedPage } from '../src/me/dashboard/queries.js';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const count = Number(process.argv[2] ?? 1_000_000);
const name = `allmende_bench_${randomBytes(3).toString('hex')}`;

const admin = (statement: string) => withClient(adminUrl, (client) => client.query(statement));

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await fn();
  console.log(`${label}: ${(performance.now() - start).toFixed(1)} ms`);
  return result;
}

await admin(`CREATE DATABASE "${name}"`);
const database = openPostgres(withDatabase(adminUrl, name), { max: 2 });
try {
  await database.migrate();
  const users = ['me', 'other', 'moderator'].map((username, i) => ({ id: i + 1, username, email: `${username}@example.org`, password: 'x-password' }));
  await loadFixture(
    database.db,
    {
      users,
      organisations: [{ id: 1, slug: 'org', name: 'Org' }],
      projects: [{ id: 1, slug: 'p', name: 'P', organisation: 1 }],
      modules: [{ id: 1, project: 1, name: 'M', phases: [{ type: 'a4_candy_ideas:collect', start_date: null, end_date: null }] }],
      ideas: [{ id: 1, module: 1, creator: 1, name: 'Idea', description: 'x' }],
    },
    { baseDir: process.cwd() },
  );
  await timed(`insert ${count} comments and ${2 * count} actions`, async () => {
    await database.db.execute(sql.raw(`INSERT INTO comments (id, creator_id, content_type, object_pk, comment, project_id, created)
      SELECT 10 + g, 2, 'idea', 1, 'c' || g, 1, now() - (g || ' seconds')::interval FROM generate_series(1, ${count}) g`));
    await database.db.execute(sql.raw(`INSERT INTO actions (actor_id, verb, obj_type, obj_id, target_type, target_id, target_creator_id, project_id, timestamp)
      SELECT 2, 'add', 'comment', 10 + g, 'idea', 1, 1, 1, now() - (g || ' seconds')::interval FROM generate_series(1, ${count}) g`));
    await database.db.execute(sql.raw(`INSERT INTO actions (actor_id, verb, obj_type, obj_id, obj_comment_creator_id, project_id, timestamp)
      SELECT 3, 'add', 'moderatorcommentfeedback', g, 1, 1, now() - (g || ' seconds')::interval - interval '500 milliseconds' FROM generate_series(1, ${count}) g`));
    await database.db.execute(sql.raw('ANALYZE'));
  });
  const first = await timed('first page (21 ids)', () => feedPage(database.db, 1, 21));
  await timed('first page again', () => feedPage(database.db, 1, 21));
  await timed('its details (20 entries)', () => feedEntries(database.db, first.slice(0, 20)));
  const result = await database.db.execute(sql.raw(`SELECT id FROM actions WHERE target_creator_id = 1 ORDER BY timestamp DESC, id DESC OFFSET ${Math.floor(count / 2)} LIMIT 1`));
  const [deep] = (result as unknown as { rows: { id: number }[] }).rows;
  await timed(`a page after activity ${Math.floor(count / 2)} (keyset)`, () => feedPage(database.db, 1, 21, Number(deep.id)));
} finally {
  await database.close();
  await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}
