import { type Column, getTableName, type Query, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client.js';

/**
 * `"table"."column"`, always. Drizzle renders a column inside a `sql` select field of a
 * single-table select as a bare `"column"`; in a correlated subquery that bare name binds to the
 * innermost table that has it (finding F1: `"organisation_id" = "organisation_id"`). Name every
 * column of a correlated subquery with this.
 */
export const qualified = (column: Column): SQL => sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/** A json column or `json_agg` value as read back: `pg` may hand it over as text, PGlite as parsed values. */
export const fromJson = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/**
 * A statement written with `sql` whose text is built once per process (drizzle renders a `sql`
 * template anew on every call, a good part of a short request's CPU), run on the database or a
 * transaction's `tx` with the values of its placeholders (`sql.placeholder(key)`), answering its
 * rows as the driver reads them. On PostgreSQL it is sent under `name`, so that a connection
 * parses it once (see db/client.ts); on PGlite every text is prepared once under a name of its own
 * (db/preparing-pglite.ts).
 */
export function preparedStatement<Row, Values extends Record<string, unknown>>(name: string, build: () => SQL): (db: DbOrTx, values: Values) => Promise<Row[]> {
  let query: Query | undefined;
  return async (db, values) => {
    query ??= new PgDialect().sqlToQuery(build());
    const result = await db._.session.prepareQuery(query, undefined, name, false).execute(values);
    return (result as { rows: Row[] }).rows;
  };
}

/**
 * A drizzle statement prepared once per database (or transaction) object: `build` renders its text
 * once, and it is parsed once per connection (`prepare(name)`); values go in through placeholders.
 * For statements written with the query builder whose rows drizzle maps (nested fields, columns).
 */
export function preparedPer<Statement>(build: (db: DbOrTx) => Statement): (db: DbOrTx) => Statement {
  const built = new WeakMap<DbOrTx, Statement>();
  return (db) => {
    let statement = built.get(db);
    if (!statement) built.set(db, (statement = build(db)));
    return statement;
  };
}
