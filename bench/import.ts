/**
 * import-aplus against the physical limit (issue 35): a generated adhocracy+-shaped dump of
 * 100,000 users, 20,000 ideas, 1,000,000 comments and 500,000 ratings (`--scale 0.01` for a
 * hundredth) is imported into a fresh PostgreSQL database, and the same rows are written by one
 * server-side `COPY` per table into another: rows per second of both and the import's peak RSS.
 *
 *     BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/import.ts [--scale 1]
 *
 * BENCH_DATABASE_URL is an admin connection (it creates and drops two databases); the COPY reads
 * files from /tmp, so PostgreSQL must run on this machine. Figures go to docs/performance.md.
 */
import { once } from 'node:events';
import { chmodSync, createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { importAplus } from '../src/cli/aplus/import.js';
import { openDatabase } from '../src/db/client.js';

const { values } = parseArgs({ options: { scale: { type: 'string', default: '1' } } });
const scale = Number(values.scale);
const n = { users: Math.round(100_000 * scale), ideas: Math.round(20_000 * scale), comments: Math.round(1_000_000 * scale), ratings: Math.round(500_000 * scale) };
const adminUrl = process.env.BENCH_DATABASE_URL;
if (!adminUrl) throw new Error('set BENCH_DATABASE_URL to an admin connection of a local PostgreSQL');
const HASH = 'pbkdf2_sha256$1000000$kt3rXB01xU07F6QcDL8vYq$FPaLWZ8yuTq+YaDv+/iICc3j4sCmNbZ+zEj5nqEMlTs=';
const dir = mkdtempSync(join(tmpdir(), 'allmende-bench-import-'));
// The server-side COPY reads the CSV files as the postgres user.
chmodSync(dir, 0o755);
const PROJECTS = 20;
const at = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString();

/** Writes the dump record by record (never the whole file in memory), as dumpdata would. */
async function writeDump(file: string) {
  const out = createWriteStream(file);
  let first = true;
  const put = async (model: string, pk: number, fields: Record<string, unknown>) => {
    if (!out.write(`${first ? '[\n' : ',\n'}${JSON.stringify({ model, pk, fields })}`)) await once(out, 'drain');
    first = false;
  };
  await put('contenttypes.contenttype', 1, { app_label: 'a4_candy_ideas', model: 'idea' });
  await put('contenttypes.contenttype', 2, { app_label: 'a4comments', model: 'comment' });
  for (let i = 1; i <= n.users; i++) {
    await put('a4_candy_users.user', i, { username: `user${i}`, email: `user${i}@example.org`, password: HASH, is_active: true, date_joined: at(i), language: 'de', bio: '', _avatar: '', get_newsletters: false });
    await put('account.emailaddress', i, { user: [`user${i}`], email: `user${i}@example.org`, verified: true, primary: true });
  }
  await put('a4_candy_organisations.organisation', 1, { slug: 'stadt', name: 'Stadt', initiators: [['user1']], language: 'de' });
  for (let p = 1; p <= PROJECTS; p++) {
    await put('a4projects.project', p, { slug: `projekt-${p}`, name: `Projekt ${p}`, organisation: 1, access: 1, is_draft: false, moderators: [], participants: [], topics: [], created: at(0) });
    await put('a4modules.module', p, { slug: `ideen-${p}`, name: 'Ideen', project: p, weight: 1, is_draft: false, blueprint_type: 'BS' });
    await put('a4phases.phase', p, { module: p, type: 'a4_candy_ideas:collect', start_date: at(0), end_date: '2035-01-01T00:00:00Z', weight: 0 });
  }
  const creator = (i: number) => [`user${(i % n.users) + 1}`];
  for (let i = 1; i <= n.ideas; i++) {
    await put('a4modules.item', i, { module: (i % PROJECTS) + 1, creator: creator(i), created: at(i) });
    await put('a4_candy_ideas.idea', i, { name: `Idee ${i}`, description: `<p>Beschreibung der Idee ${i}</p>`, slug: `idee-${i}`, image: '', category: null, labels: [] });
  }
  for (let i = 1; i <= n.comments; i++) {
    const reply = i % 2 === 0;
    const idea = ((i - 1) % n.ideas) + 1;
    await put('a4comments.comment', i, {
      creator: creator(i * 7),
      content_type: reply ? ['a4comments', 'comment'] : ['a4_candy_ideas', 'idea'],
      object_pk: String(reply ? i - 1 : idea),
      comment: `Kommentar ${i} mit etwas Text, wie ihn Menschen schreiben.`,
      project: (idea % PROJECTS) + 1,
      created: at(i),
      is_removed: false,
      is_censored: false,
      is_blocked: false,
      is_moderator_marked: false,
      is_reviewed: false,
      comment_categories: '',
    });
  }
  // One rating per (user, idea): user u rates ideas in turn, so no pair repeats while ratings ≤ users × ideas.
  for (let i = 1; i <= n.ratings; i++) {
    await put('a4ratings.rating', i, { creator: creator(Math.floor((i - 1) / n.ideas)), content_type: ['a4_candy_ideas', 'idea'], object_pk: ((i - 1) % n.ideas) + 1, value: i % 3 === 0 ? -1 : 1, created: at(i) });
  }
  out.end('\n]\n');
  await once(out, 'finish');
}

async function freshDatabase(name: string) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl as string);
  url.pathname = `/${name}`;
  const database = await openDatabase({ dataDir: '', databaseUrl: url.toString() });
  await database.migrate();
  return { database, url: url.toString() };
}

async function dropDatabase(name: string) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}

/** The same rows as CSV files, written by one COPY per table (the physical limit of this machine). */
async function copyBaseline(url: string): Promise<{ rows: number; seconds: number }> {
  const csv = (name: string, lines: Iterable<string>) => {
    const file = join(dir, `${name}.csv`);
    const out: string[] = [];
    for (const line of lines) out.push(line);
    writeFileSync(file, `${out.join('\n')}\n`, { mode: 0o644 });
    return file;
  };
  function* range(count: number, line: (i: number) => string) {
    for (let i = 1; i <= count; i++) yield line(i);
  }
  const files = {
    users: csv('users', range(n.users, (i) => `${i},user${i},user${i}@example.org,${HASH},true,de,${at(i)}`)),
    ideas: csv('ideas', range(n.ideas, (i) => `${i},${(i % PROJECTS) + 1},${(i % n.users) + 1},Idee ${i},<p>Beschreibung der Idee ${i}</p>,idee-${i},${at(i)}`)),
    comments: csv('comments', range(n.comments, (i) => `${i},${((i * 7) % n.users) + 1},${i % 2 === 0 ? 'comment' : 'idea'},${i % 2 === 0 ? i - 1 : ((i - 1) % n.ideas) + 1},Kommentar ${i} mit etwas Text,${((((i - 1) % n.ideas) + 1) % PROJECTS) + 1},${at(i)}`)),
    ratings: csv('ratings', range(n.ratings, (i) => `${i},${(Math.floor((i - 1) / n.ideas) % n.users) + 1},idea,${((i - 1) % n.ideas) + 1},${i % 3 === 0 ? -1 : 1},${at(i)}`)),
  };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`INSERT INTO organisations (id, slug, name) VALUES (1, 'stadt', 'Stadt')`);
  for (let p = 1; p <= PROJECTS; p++) {
    await client.query(`INSERT INTO projects (id, slug, name, organisation_id) VALUES (${p}, 'projekt-${p}', 'Projekt ${p}', 1)`);
    await client.query(`INSERT INTO modules (id, slug, name, project_id) VALUES (${p}, 'ideen-${p}', 'Ideen', ${p})`);
  }
  const started = performance.now();
  await client.query('BEGIN');
  await client.query(`COPY users (id, username, email, password, email_verified, language, date_joined) FROM '${files.users}' WITH (FORMAT csv)`);
  await client.query(`COPY ideas (id, module_id, creator_id, name, description, legacy_slug, created) FROM '${files.ideas}' WITH (FORMAT csv)`);
  await client.query(`COPY comments (id, creator_id, content_type, object_pk, comment, project_id, created) FROM '${files.comments}' WITH (FORMAT csv)`);
  await client.query(`COPY ratings (id, creator_id, content_type, object_pk, value, created) FROM '${files.ratings}' WITH (FORMAT csv)`);
  await client.query('COMMIT');
  const seconds = (performance.now() - started) / 1000;
  await client.end();
  return { rows: n.users + n.ideas + n.comments + n.ratings, seconds };
}

const suffix = process.pid;
try {
  console.log(`Generating the dump: ${n.users} users, ${n.ideas} ideas, ${n.comments} comments, ${n.ratings} ratings …`);
  const dump = join(dir, 'dump.json');
  await writeDump(dump);
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  const target = await freshDatabase(`allmende_bench_import_${suffix}`);
  const started = performance.now();
  let phaseStart = performance.now();
  let phaseName = '';
  const phases: string[] = [];
  const progress = {
    start(phase: string) {
      phaseName = phase;
      phaseStart = performance.now();
    },
    tick() {},
    stop() {
      if (phaseName) phases.push(`${phaseName} ${((performance.now() - phaseStart) / 1000).toFixed(1)} s`);
      phaseName = '';
    },
  };
  const report = await importAplus(target.database.db, { dump, media: dir, store: { mediaStore: 'database', dataDir: '' }, progress });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  await target.database.close();
  const rows = ['a4_candy_users.user', 'a4_candy_ideas.idea', 'a4comments.comment', 'a4ratings.rating'].reduce((sum, model) => sum + (report.models[model]?.imported ?? 0), 0);
  const importRate = rows / seconds;
  console.log(`phases: ${phases.join(', ')}`);
  console.log(`import-aplus: ${rows} rows in ${seconds.toFixed(1)} s = ${Math.round(importRate)} rows/s, peak RSS ${Math.round(peak / 1024 / 1024)} MB`);
  const baseline = await freshDatabase(`allmende_bench_copy_${suffix}`);
  await baseline.database.close();
  const copy = await copyBaseline(baseline.url);
  const copyRate = copy.rows / copy.seconds;
  console.log(`COPY: ${copy.rows} rows in ${copy.seconds.toFixed(1)} s = ${Math.round(copyRate)} rows/s`);
  console.log(`import / COPY = ${(importRate / copyRate).toFixed(2)} (goal ≥ 0.25), peak RSS goal < 500 MB`);
} finally {
  await dropDatabase(`allmende_bench_import_${suffix}`);
  await dropDatabase(`allmende_bench_copy_${suffix}`);
  rmSync(dir, { recursive: true, force: true });
}
