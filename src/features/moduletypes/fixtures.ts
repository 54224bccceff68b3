import { eq, getTableColumns } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { type Static, type TProperties, type TSchema, Type } from 'typebox';
import type { Tx } from '../../db/client.js';
import type { modules } from '../../db/schema/index.js';
import type { Media } from '../../media/store.js';

/**
 * The part of the module-type contract that loaddata reads: a module type brings the fixture kinds
 * of its content (`polls`, `chapters`, …): each a record schema, the tables whose ids a fixture
 * gives, and a loader that checks and stores the records inside loaddata's one transaction.
 * loaddata (src/cli/loaddata.ts) loads them after the modules, in the order the types are listed.
 */

/** A fixture problem, named by the record it is about: `projects[3].organisation: no organisation 9`. */
export class FixtureError extends Error {}

/** What a kind's loader gets: loaddata's transaction and where files of the fixture are read from and stored. */
export interface FixtureContext {
  tx: Tx;
  /** Folder that file paths in records are relative to (the fixture file's folder). */
  baseDir: string;
  /** The media store, inside loaddata's transaction. */
  media: Media;
}

/** One fixture kind of a module type: `name` is its key in the fixture file. */
export interface FixtureKind {
  name: string;
  /** The schema of one record (additional properties refused). */
  record: TSchema;
  /** Tables whose id sequences loaddata moves past the ids the fixture gave. */
  tables: string[];
  /** Checks and stores the records; a problem is a FixtureError naming `name[index].field`. */
  load: (ctx: FixtureContext, records: never[]) => Promise<void>;
}

/**
 * Fields a module type adds to loaddata's `modules` records (a map module's `area`): their schemas,
 * and the module columns they set, checked inside loaddata's transaction as the module is stored.
 */
export interface FixtureModuleFields {
  fields: TProperties;
  /** The module columns that one record's fields set; a problem is a FixtureError naming `where.field`. */
  columns: (record: Record<string, unknown>, where: string) => Partial<typeof modules.$inferInsert>;
}

/** Types a fixture kind so that its loader reads records of its schema. */
export const fixtureKind = <T extends TSchema>(kind: {
  name: string;
  record: T;
  tables: string[];
  load: (ctx: FixtureContext, records: Static<T>[]) => Promise<void>;
}): FixtureKind => kind as unknown as FixtureKind;

/** The fixture format's common fields. */
export const FixtureId = Type.Integer({ minimum: 1, maximum: 2147483647 });
export const FixtureDateTime = Type.String({ format: 'date-time' });
export const strictRecord = { additionalProperties: false } as const;

/** Refuses a record that points at a row that does not exist: `where: no what id`. */
export async function requireRow(tx: Tx, table: PgTable & { id: unknown }, id: number, where: string, what: string): Promise<void> {
  const idColumn = getTableColumns(table).id;
  const [row] = await tx.select({ id: idColumn }).from(table).where(eq(idColumn, id));
  if (!row) throw new FixtureError(`${where}: no ${what} ${id}`);
}
