import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withClient, withDatabase } from '../src/db/admin.js';
import { type Database, migrationsFolder, openMemoryPglite, openPostgres } from '../src/db/client.js';

/** Where a test database comes from: PGlite cloned from a migrated template, or (TEST_TEMPLATE_DB set) PostgreSQL. */
function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(migrationsFolder).sort()) {
    if (file.endsWith('.sql')) hash.update(readFileSync(join(migrationsFolder, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

let template: Promise<Blob> | null = null;

/** A migrated empty PGlite, dumped once and kept on disk between test processes. */
function pgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    const file = join(tmpdir(), `allmende-pglite-template-${migrationsHash()}.tgz`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const fresh = await openMemoryPglite();
    await fresh.migrate();
    const client = (fresh.db as unknown as { $client: { dumpDataDir(c: 'gzip'): Promise<Blob> } }).$client;
    const dump = await client.dumpDataDir('gzip');
    await fresh.close();
    const staging = `${file}.${process.pid}.tmp`;
    writeFileSync(staging, Buffer.from(await dump.arrayBuffer()));
    renameSync(staging, file);
    return dump;
  })();
  return template;
}

/** Whether this run is the PostgreSQL suite (TEST_DATABASE_URL, run by `.ci/run`): tests that need PostgreSQL are registered only there, never skipped. */
export const postgresSuite = Boolean(process.env.TEST_TEMPLATE_DB);

/** On PostgreSQL runs: a new database cloned from the run's migrated template, and how to drop it. */
export async function clonePostgresTemplate(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const templateName = process.env.TEST_TEMPLATE_DB;
  if (!adminUrl || !templateName) return null;
  const name = `${templateName.replace(/_tpl$/, '')}_${randomBytes(6).toString('hex')}`;
  const run = (statement: string) => withClient(adminUrl, (client) => client.query(statement)).then(() => undefined);
  await run(`CREATE DATABASE "${name}" TEMPLATE "${templateName}"`);
  return { url: withDatabase(adminUrl, name), drop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

interface PgliteClient {
  closed: boolean;
  query<T>(statement: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(statement: string): Promise<unknown>;
}

/** What the migrated template holds: its seeded rows and its sequence positions, restored by reset. */
interface Snapshot {
  empty: string;
  restore: string;
}

/**
 * Starting a PGlite takes seconds, so each test process keeps one released database and empties it
 * for the next test: every table emptied, the template's seeded rows and sequence positions put
 * back. A test that holds two databases at once gets a second, new one.
 */
let idle: { database: Database; client: PgliteClient; snapshot: Snapshot } | null = null;

async function takeSnapshot(client: PgliteClient): Promise<Snapshot> {
  const { rows: tables } = await client.query<{ name: string }>(
    "SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
  );
  const restore: string[] = [];
  for (const { name } of tables) {
    const { rows } = await client.query<{ data: unknown[] | null }>(`SELECT json_agg(t) AS data FROM ${name} t`);
    const data = rows[0]?.data;
    if (data?.length) restore.push(`INSERT INTO ${name} SELECT * FROM json_populate_recordset(NULL::${name}, ${quote(JSON.stringify(data))});`);
  }
  const { rows: sequences } = await client.query<{ name: string; value: string | null; start: string }>(
    "SELECT format('%I.%I', schemaname, sequencename) AS name, last_value::text AS value, start_value::text AS start FROM pg_sequences WHERE schemaname = 'public'",
  );
  for (const { name, value, start } of sequences) {
    restore.push(`SELECT setval(${quote(name)}, ${value ?? start}, ${value !== null});`);
  }
  // DELETE with foreign-key triggers off is much cheaper than TRUNCATE on PGlite's in-memory files.
  const empty = tables.map((t) => `DELETE FROM ${t.name};`).join('\n');
  return { empty: `SET session_replication_role = replica;\n${empty}\nSET session_replication_role = DEFAULT;`, restore: restore.join('\n') };
}

function quote(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

async function pooledPglite(): Promise<Database> {
  let entry = idle;
  idle = null;
  if (entry && !entry.client.closed) {
    await entry.client.exec(`${entry.snapshot.empty}\n${entry.snapshot.restore}`);
    entry.database.stats.queries = 0;
  } else {
    const database = await openMemoryPglite(await pgliteTemplate());
    const client = (database.db as unknown as { $client: PgliteClient }).$client;
    entry = { database, client, snapshot: await takeSnapshot(client) };
  }
  const { database, client } = entry;
  const kept = entry;
  let released = false;
  return {
    ...database,
    async close() {
      if (released || client.closed) return;
      released = true;
      if (idle) return database.close();
      idle = kept;
      // Kept for the next test, if one starts soon; an open PGlite would keep the process alive.
      setTimeout(() => {
        if (idle !== kept) return;
        idle = null;
        void database.close();
      }, 1000);
    },
  };
}

/** A fresh, migrated database for one test; close() hands it back (PGlite) or drops it (PostgreSQL). */
export async function createTestDatabase(): Promise<Database> {
  const clone = await clonePostgresTemplate();
  if (!clone) return pooledPglite();
  const database = openPostgres(clone.url, { max: 5 });
  const close = database.close;
  database.close = async () => {
    await close();
    await clone.drop();
  };
  return database;
}
