import { type Column, getTableName, type SQL, sql } from 'drizzle-orm';

/**
 * `"table"."column"`, always. Drizzle renders a column inside a `sql` select field of a
 * single-table select as a bare `"column"`; in a correlated subquery that bare name binds to the
 * innermost table that has it (finding F1: `"organisation_id" = "organisation_id"`). Name every
 * column of a correlated subquery with this.
 */
export const qualified = (column: Column): SQL => sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/** A json column or `json_agg` value as read back: `pg` may hand it over as text, PGlite as parsed values. */
export const fromJson = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
