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

/** A fresh, migrated database for one test; close() throws it away. */
export async function createTestDatabase(): Promise<Database> {
  const clone = await clonePostgresTemplate();
  if (!clone) return openMemoryPglite(await pgliteTemplate());
  const database = openPostgres(clone.url, { max: 5 });
  const close = database.close;
  database.close = async () => {
    await close();
    await clone.drop();
  };
  return database;
}
