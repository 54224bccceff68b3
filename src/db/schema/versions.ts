import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * One counter per table that carries the data-version trigger (migration 0011): every statement
 * that writes the table (insert, update, delete, truncate) adds 1 in its own transaction. Read with
 * `dataVersion` (db/versions.ts).
 */
export const dataVersions = pgTable('data_versions', {
  name: text('name').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});
