import { inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from './client.js';
import { dataVersions } from './schema/index.js';

/** The tables whose writes bump their data version (the trigger of migration 0011). */
export type VersionedTable = 'organisations' | 'projects' | 'modules' | 'phases';

/**
 * The data version of a set of tables: an opaque text that changes with every committed statement
 * writing any of them, on every instance (a trigger counts the writes in the writing transaction).
 * One small statement. Read it before the rows it stands for: rows loaded after it are at least as
 * new, so an answer kept under it is never older than its version says.
 */
export async function dataVersion(db: DbOrTx, tables: readonly VersionedTable[]): Promise<string> {
  const [row] = await db
    .select({ version: sql<string>`coalesce(sum(${dataVersions.version}), 0)::text` })
    .from(dataVersions)
    .where(inArray(dataVersions.name, [...tables]));
  return row?.version ?? '0';
}
