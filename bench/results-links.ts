/**
 * The results link form (issue 39) with many contributions, on PostgreSQL:
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/results-links.ts [topics]
 * Creates a scratch database with one project whose topic module holds `topics` topics and one
 * result, then times the form's first page, a page deep down and two searches (`loadLinkable`).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import '../src/module-types.js';
import { loadFixture } from '../src/cli/loaddata.js';
import { withClient, withDatabase } from '../src/db/admin.js';
import { openPostgres } from '../src/db/client.js';
import { results } from '../src/features/results/schema.js';
import { loadLinkable } from '../src/features/results/queries.js';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const count = Number(process.argv[2] ?? 10_000);
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
  await loadFixture(
    database.db,
    {
      users: [{ id: 1, username: 'me', email: 'me@example.org', password: 'x-password' }],
      organisations: [{ id: 1, slug: 'org', name: 'Org' }],
      projects: [{ id: 1, slug: 'p', name: 'P', organisation: 1 }],
      modules: [{ id: 1, project: 1, name: 'M', blueprint_type: 'TP', phases: [{ type: 'a4_candy_topicprio:prioritize', start_date: null, end_date: null }] }],
    },
    { baseDir: process.cwd() },
  );
  await timed(`insert ${count} topics`, async () => {
    await database.db.execute(sql.raw(`INSERT INTO topics (module_id, creator_id, name, description) SELECT 1, 1, 'Topic ' || lpad(g::text, 6, '0'), 'x' FROM generate_series(1, ${count}) g`));
    await database.db.execute(sql.raw('ANALYZE'));
  });
  const [result] = await database.db.insert(results).values({ projectId: 1, title: 'Result' }).returning({ id: results.id });
  const pages = Math.ceil(count / 50);
  for (const [label, query] of [
    ['first page', { search: '', page: 1 }],
    ['first page again', { search: '', page: 1 }],
    [`page ${pages}`, { search: '', page: pages }],
    ['search "topic 000951" (one)', { search: 'topic 000951', page: 1 }],
    ['search "Topic 00" (many), page 2', { search: 'Topic 00', page: 2 }],
  ] as const) {
    const found = await timed(label, () => loadLinkable(database.db, 1, result.id, query));
    console.log(`  ${found.count} match, ${found.items.length} shown`);
  }
} finally {
  await database.close();
  await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}
