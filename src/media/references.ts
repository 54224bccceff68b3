import { inArray, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.js';
import { offlineEvents, organisations, platformSettings, projects, startPage, startPageFigures, users } from '../db/schema/index.js';

/**
 * Every column that names a media path: the floor's, and those a module type declares
 * (`mediaColumns` in its registry entry, registered with the type). Stored images are
 * content-addressed, so one file may be named by several rows (a duplicated project, the same logo
 * twice); it is removed only when none names it. test/media/store.test.ts checks that every
 * image-like column of the schema is here.
 */
const columns: PgColumn[] = [users.avatar, organisations.logo, organisations.image, projects.image, projects.tileImage, offlineEvents.document, startPage.image, startPageFigures.image, platformSettings.shareImage];

/** Adds columns of tables above the floor (a module type's images) that name media paths. */
export function registerMediaColumns(more: PgColumn[]): void {
  for (const column of more) if (!columns.includes(column)) columns.push(column);
}

/** Every column that names a media path. */
export const mediaColumns = (): readonly PgColumn[] => columns;

/** The paths among `paths` that no row names any more (one statement). */
export async function unreferenced(db: DbOrTx, paths: string[]): Promise<string[]> {
  const wanted = [...new Set(paths)];
  if (!wanted.length) return [];
  const named = sql.join(
    columns.map((column) => sql`select ${column} as path from ${column.table} where ${inArray(column, wanted)}`),
    sql` union `,
  );
  const result = (await db.execute(named)) as unknown as { rows: { path: string }[] };
  const kept = new Set(result.rows.map((row) => row.path));
  return wanted.filter((path) => !kept.has(path));
}

