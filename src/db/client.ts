import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PreparingPglite } from './preparing-pglite.js';
import * as schema from './schema/index.js';

type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** A function that may run inside or outside a transaction takes this; inside one, pass the `tx`. */
export type DbOrTx = Db | Tx;

export const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Number of SQL statements sent so far (tests use it to prove there is no N+1). */
  stats: { queries: number };
  /** The same connections, with statements `stats` leaves out: the background work's that runs every few seconds, beside the requests tests count. */
  uncounted: Db;
  ping(): Promise<boolean>;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * Calls `onPayload` with each NOTIFY on `channel` (PostgreSQL sends it when the notifying
   * transaction commits, in commit order; PGlite does the same in its one process). After a lost
   * listening connection is back, `onReconnect` is called: notifications in between are lost, the
   * caller reads what it missed. Resolves with the function that stops listening.
   */
  listen(channel: string, onPayload: (payload: string) => void, onReconnect: () => void): Promise<() => Promise<void>>;
}

function counter() {
  const stats = { queries: 0 };
  return { stats, logger: { logQuery: () => void stats.queries++ } };
}

class DatabaseError extends Error {}

/** Another live process (usually the server) holds the embedded database's data directory. */
export class DatabaseInUse extends DatabaseError {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`the embedded database in ${dataDir} is in use by process ${pid}`);
  }
}

/** Whether the database answers a trivial query. */
async function answers(client: { query(sql: string): Promise<unknown> }): Promise<boolean> {
  try {
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}

/** The statement names given so far, by SQL text (bounded: texts beyond it run unnamed). */
const statementNames = new Map<string, string>();
const MAX_NAMED_STATEMENTS = 500;

const named = (config: unknown): config is { name: string } => !!config && typeof config === 'object' && 'name' in config && !!config.name;

/**
 * A connection that prepares each statement text once: a query with parameters is sent with a name
 * kept per SQL text, so PostgreSQL parses it once per connection and may keep its plan, and the
 * next request with the same text only binds and executes. Statements prepared in code (drizzle's
 * `.prepare(name)`, db/sql.ts `preparedStatement`) come with their own name, which stays.
 */
class PreparingClient extends pg.Client {
  override query(config: unknown, ...rest: unknown[]): never {
    if (config && typeof config === 'object' && 'text' in config && typeof config.text === 'string' && !named(config)) {
      let name = statementNames.get(config.text);
      if (!name && statementNames.size < MAX_NAMED_STATEMENTS) statementNames.set(config.text, (name = `s${statementNames.size}`));
      if (name) config = { ...config, name };
    }
    return (super.query as (...args: unknown[]) => never)(config, ...rest);
  }
}

/**
 * `DATABASE_PREPARE=0` (for a pooler in transaction mode that cannot keep prepared statements): no
 * statement is named, also none of those prepared in code.
 */
class UnpreparedClient extends pg.Client {
  override query(config: unknown, ...rest: unknown[]): never {
    return (super.query as (...args: unknown[]) => never)(named(config) ? { ...config, name: undefined } : config, ...rest);
  }
}

/** PostgreSQL through node-postgres: the production and scale-out path. */
export function openPostgres(url: string, options: { max?: number } = {}): Database {
  // A database that does not answer must not hold requests for minutes: they fail fast and answer 503.
  const Client = process.env.DATABASE_PREPARE === '0' ? UnpreparedClient : PreparingClient;
  const pool = new pg.Pool({ Client, connectionString: url, max: options.max ?? 10, connectionTimeoutMillis: 5000 });
  pool.on('error', () => undefined); // idle-client errors surface on the next query instead
  const { stats, logger } = counter();
  const db = drizzlePg(pool, { schema, logger }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    stats,
    uncounted: drizzlePg(pool, { schema }) as unknown as Db,
    ping: () => answers(pool),
    async migrate() {
      // Several instances may start at once: one migrates, the others wait for it.
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock(815200401)');
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
      } finally {
        await client.query('SELECT pg_advisory_unlock(815200401)').catch(() => undefined);
        client.release();
      }
    },
    close: () => pool.end(),
    listen: (channel, onPayload, onReconnect) => listenPostgres(url, channel, onPayload, onReconnect),
  };
}

const LISTEN_RETRY_MS = 1000;

/** LISTEN on a connection of its own (outside the pool: a pooled connection changes hands), connected again when lost. */
async function listenPostgres(url: string, channel: string, onPayload: (payload: string) => void, onReconnect: () => void): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  const connect = async (again: boolean): Promise<void> => {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
    });
    c.on('error', () => undefined); // 'end' follows and reconnects
    c.on('end', () => {
      if (client === c) client = null;
      if (!stopped) schedule();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch {
      // Unreachable (also at start: the app still starts and answers 503 until the database is back); try again.
      await c.end().catch(() => undefined);
      schedule();
      return;
    }
    if (stopped) {
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
    if (again) onReconnect();
  };
  const schedule = () => {
    if (retry || stopped) return;
    retry = setTimeout(() => {
      retry = null;
      void connect(true);
    }, LISTEN_RETRY_MS);
    retry.unref();
  };
  await connect(false);
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}

function wrapPglite(client: PGlite, release: () => void = () => undefined): Database {
  const { stats, logger } = counter();
  // drizzle's PGlite session calls only `query` and `transaction`, which PreparingPglite answers as PGlite does.
  // One preparing wrapper for both handles: it names the statements it prepares on the connection.
  const preparing = new PreparingPglite(client) as unknown as PGlite;
  const db = drizzlePglite(preparing, { schema, logger });
  db.$client = client; // the PGlite itself, for what needs more than drizzle (tests' snapshots and dumps)
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    stats,
    uncounted: drizzlePglite(preparing, { schema }) as unknown as Db,
    ping: () => answers(client),
    async migrate() {
      await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
    },
    async close() {
      if (!client.closed) await client.close();
      release();
    },
    async listen(channel, onPayload) {
      // One process: nothing to reconnect.
      const stop = await client.listen(channel, onPayload);
      return async () => {
        if (!client.closed) await stop();
      };
    },
  };
}

/**
 * What an in-memory database need not do, having nothing to keep across a crash: whole-page images
 * and zero-filled segments in its write-ahead log, which it writes by copying memory (a tenth of a
 * test process's CPU), and a log of a gigabyte before its first checkpoint recycles one.
 */
const MEMORY_ONLY_SETTINGS = ['full_page_writes = off', 'wal_init_zero = off', 'max_wal_size = 32MB', 'min_wal_size = 32MB', 'track_counts = off'];

/** An in-memory PGlite, optionally loaded from a dump (tests clone a migrated template this way). */
export async function openMemoryPglite(dump?: Blob | File): Promise<Database> {
  const client = await PGlite.create({ ...(dump && { loadDataDir: dump }), postgresqlconf: MEMORY_ONLY_SETTINGS });
  return wrapPglite(client);
}

function pidIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Only one process may open a PGlite data directory: a lock file holds the owner's pid. */
function takeLock(lockFile: string): () => void {
  if (existsSync(lockFile)) {
    const pid = Number(readFileSync(lockFile, 'utf8'));
    if (pid && pid !== process.pid && pidIsAlive(pid)) {
      throw new DatabaseInUse(dirname(lockFile), pid);
    }
    unlinkSync(lockFile);
  }
  writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
  return () => rmSync(lockFile, { force: true });
}

/**
 * PostgreSQL's settings for the embedded database. shared_buffers: PostgreSQL's 128 MB default
 * sits in the server's own process (WebAssembly memory, zeroed at every start and never given
 * back); 32 MB holds what the pages and the API read on the bench data (1 M actions) at the same
 * CPU per request and saves ≈ 100 MB of resident memory (docs/performance.md). max_wal_size:
 * the WAL kept for reuse after a checkpoint (PostgreSQL keeps up to 1 GB).
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB', '-c', 'max_wal_size=128MB'];

/**
 * PGlite runs PostgreSQL single-user, which never checkpoints by itself: all WAL since the start
 * stays, and after an unclean stop (kill -9, a crash) the next start replays all of it (seconds
 * per few hundred MB). So: a checkpoint once WAL_PER_CHECKPOINT bytes were written since the last
 * one, or every CHECKPOINT_EVERY_MS when anything was, as PostgreSQL's checkpointer would.
 */
const CHECKPOINT_CHECK_MS = 30_000;
const CHECKPOINT_EVERY_MS = 300_000;
const WAL_PER_CHECKPOINT = 64 * 1024 * 1024;

/** When the last checkpoint was made, and the WAL position right after it. */
interface LastCheckpoint {
  at: number;
  lsn: string;
}

const walPosition = async (client: PGlite) => (await client.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0].lsn;

/** A checkpoint when one is due (see above): the new LastCheckpoint, or null when none was due. */
export async function checkpointIfDue(client: PGlite, last: LastCheckpoint, now = Date.now()): Promise<LastCheckpoint | null> {
  const { rows } = await client.query<{ written: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1::pg_lsn) AS written', [last.lsn]);
  const written = Number(rows[0]?.written ?? 0);
  if (written < WAL_PER_CHECKPOINT && (written <= 0 || now - last.at < CHECKPOINT_EVERY_MS)) return null;
  await client.exec('CHECKPOINT');
  return { at: now, lsn: await walPosition(client) };
}

/** From the open on, checkpoints when due; returns the function that stops it. */
async function checkpointRegularly(client: PGlite): Promise<() => void> {
  let last: LastCheckpoint = { at: Date.now(), lsn: await walPosition(client) };
  const check = async () => {
    last = (await checkpointIfDue(client, last)) ?? last;
  };
  const timer = setInterval(() => void check().catch(() => undefined), CHECKPOINT_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * PGlite on disk under dataDir/pglite. A new directory is initialised beside it and renamed into
 * place only when complete, so a crash during initialisation never leaves a half-made database.
 */
export async function openPgliteDir(dataDir: string): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  const release = takeLock(join(dataDir, 'pglite.lock'));
  try {
    const dir = join(dataDir, 'pglite');
    if (!existsSync(dir)) {
      const staging = join(dataDir, 'pglite.initialising');
      rmSync(staging, { recursive: true, force: true });
      const fresh = await PGlite.create({ dataDir: staging });
      await fresh.close();
      renameSync(staging, dir);
    } else if (!existsSync(join(dir, 'PG_VERSION'))) {
      throw new DatabaseError(`${dir} is not a complete database directory; move it away and start again`);
    }
    const client = await PGlite.create({ dataDir: dir, startParams: PGLITE_START_PARAMS });
    const stopCheckpoints = await checkpointRegularly(client);
    return wrapPglite(client, () => {
      stopCheckpoints();
      release();
    });
  } catch (error) {
    release();
    throw error;
  }
}

/** The configured database; `poolSize` caps this process's PostgreSQL connections. */
export async function openDatabase(config: { databaseUrl: string | null; dataDir: string }, poolSize?: number): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl, { max: poolSize }) : openPgliteDir(config.dataDir);
}

/** Counts rows with a number even where `pg` returns bigint as a string. */
export const countAll = sql<number>`count(*)`.mapWith(Number);
