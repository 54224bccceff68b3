import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withClient, withDatabase } from '../src/db/admin.js';
import { type Database, migrationsFolder, openMemoryPglite, openPgliteDir, openPostgres } from '../src/db/client.js';

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

let dataDirTemplate: Promise<string> | null = null;

/**
 * A new DATA_DIR holding a migrated embedded database, for a child process whose subject is not
 * the first start (a first start makes the database: about 10 s of CPU, see test/server/): a copy
 * of one migrated data directory, made once and kept in the temporary folder by the migrations' hash.
 */
export async function migratedDataDir(prefix: string): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(join(await dataDirTemplateMade(), 'pglite'), join(dataDir, 'pglite'), { recursive: true });
  return dataDir;
}

function dataDirTemplateMade(): Promise<string> {
  dataDirTemplate ??= (async () => {
    const dir = join(tmpdir(), `allmende-pglite-datadir-${migrationsHash()}`);
    if (existsSync(join(dir, 'pglite', 'PG_VERSION'))) return dir;
    const staging = mkdtempSync(`${dir}.tmp-`);
    const database = await openPgliteDir(staging);
    await database.migrate();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
    return dir;
  })();
  return dataDirTemplate;
}

/**
 * Makes the migrated templates the test processes start from, unless the temporary folder holds
 * them for these migrations already: test/run.ts calls it once before it starts the processes,
 * so that the first processes do not each make them at once (an initdb and every migration).
 */
export async function preparePgliteTemplates(which: { dataDir: boolean }): Promise<void> {
  await pgliteTemplate();
  if (which.dataDir) await dataDirTemplateMade();
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

/** What a snapshot and a reset need of a database's driver. */
interface RawClient {
  query<T>(statement: string): Promise<{ rows: T[] }>;
}

/** What the migrated template holds: its seeded rows and its sequence positions, restored by reset. */
async function takeSnapshot(client: RawClient): Promise<string> {
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
  // DELETE with foreign-key triggers off is much cheaper than TRUNCATE (PGlite's in-memory files, PostgreSQL's small tables).
  const empty = tables.map((t) => `DELETE FROM ${t.name};`).join('\n');
  return `SET session_replication_role = replica;\n${empty}\nSET session_replication_role = DEFAULT;\n${restore.join('\n')}`;
}

function quote(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * An embedded database runs no autovacuum: a table a test filled (thousands of activities, say)
 * keeps its emptied pages after the reset, and every later test of the process reads them. The
 * tables that grew past a megabyte are vacuumed, which gives their pages back.
 */
async function vacuumGrown(client: RawClient): Promise<void> {
  const { rows } = await client.query<{ names: string | null }>(
    "SELECT string_agg(oid::regclass::text, ', ') AS names FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' AND pg_relation_size(oid) > 1048576",
  );
  if (rows[0]?.names) await client.query(`VACUUM ${rows[0].names}`);
}

/** A database this process keeps between tests. */
interface Kept {
  /** A handle for the next test, the database reset to the template's rows (unless it is new). */
  take(reset: boolean): Promise<Database | null>;
  /** The handle is given back. */
  release(database: Database): Promise<void>;
  /** The database reset to the template's rows under a handle still in use (an app kept for the next test); false: it was closed. */
  resetUnder(database: Database): Promise<boolean>;
  drop(): Promise<void>;
}

/**
 * Making a database takes seconds (starting a PGlite, cloning a PostgreSQL template), so each test
 * process keeps one released database and resets it for the next test: every table emptied, the
 * template's seeded rows and sequence positions put back. A test that holds two databases at once
 * gets a second, new one.
 */
async function keptPglite(): Promise<Kept> {
  const database = await openMemoryPglite(await pgliteTemplate());
  const client = (database.db as unknown as { $client: RawClient & { closed: boolean; exec(s: string): Promise<unknown> } }).$client;
  const reset = await takeSnapshot(client);
  const kept: Kept = {
    async take(fresh) {
      if (client.closed) return null;
      if (!fresh && !(await kept.resetUnder(database))) return null;
      database.stats.queries = 0;
      return database;
    },
    release: async () => undefined,
    async resetUnder(handle) {
      if (client.closed) return false;
      await client.exec(reset);
      await vacuumGrown(client);
      handle.stats.queries = 0;
      return true;
    },
    drop: () => database.close(),
  };
  return kept;
}

/**
 * On PostgreSQL the kept database is a clone of the run's template, and each test gets its own
 * connection pool on it: nothing a test left open (a transaction, a session setting) reaches the
 * next test, as the reset first ends every other connection to the database.
 */
async function keptPostgres(clone: { url: string; drop(): Promise<void> }): Promise<Kept> {
  const reset = await withClient(clone.url, (client) => takeSnapshot(client));
  const endOthers = 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid();';
  return {
    async take(fresh) {
      if (!fresh) await withClient(clone.url, (client) => client.query(`${endOthers}\n${reset}`));
      return openPostgres(clone.url, { max: 5 });
    },
    release: (database) => database.close(),
    // The app's own connections stay open (its pool, its listener), so they are not ended here: a
    // transaction a test left open would hold the reset's locks and fail its test rather than the next.
    async resetUnder(handle) {
      await withClient(clone.url, (client) => client.query(`SET lock_timeout = '10s';\n${reset}`));
      handle.stats.queries = 0;
      return true;
    },
    drop: clone.drop,
  };
}

let idle: Kept | null = null;

/** The kept database behind each handle given out, for resetTestDatabase. */
const keptBehind = new WeakMap<Database, Kept>();

/**
 * Resets a handle's database to the template's rows while the handle stays in use (test/helpers.ts
 * keeps one app per test file); false when it cannot (the test closed it).
 */
export async function resetTestDatabase(database: Database): Promise<boolean> {
  return (await keptBehind.get(database)?.resetUnder(database)) ?? false;
}

/** A fresh, migrated database for one test; close() hands it back to be reset for the next test. */
export async function createTestDatabase(): Promise<Database> {
  let kept = idle;
  idle = null;
  let database = kept ? await kept.take(false) : null;
  if (!kept || !database) {
    const clone = await clonePostgresTemplate();
    kept = clone ? await keptPostgres(clone) : await keptPglite();
    database = (await kept.take(true)) as Database;
  }
  const mine = kept;
  let released = false;
  const handle: Database = {
    ...database,
    async close() {
      if (released) return;
      released = true;
      keptBehind.delete(handle);
      await mine.release(database);
      if (idle) return mine.drop();
      idle = mine;
      // Kept for the next test, if one starts soon.
      setTimeout(() => {
        if (idle !== mine) return;
        idle = null;
        void mine.drop();
      }, 1000).unref();
    },
  };
  keptBehind.set(handle, mine);
  return handle;
}
