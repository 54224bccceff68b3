import { type SQL, sql } from 'drizzle-orm';
import { comments, ratings } from './schema/index.js';

/**
 * The comments an item's figure counts (an idea's, a map idea's, a proposal's "5 comments"): those
 * on it plus their direct replies, removed and blocked ones included. `kind` its content type, `pk` its id.
 */
export const itemCommentCountSql = (kind: SQL, pk: SQL): SQL<number> =>
  sql<number>`(select count(*) from ${comments} c where (c.content_type = ${kind} and c.object_pk = ${pk}) or (c.content_type = 'comment' and c.object_pk in (select p.id from ${comments} p where p.content_type = ${kind} and p.object_pk = ${pk})))`;

/** The ratings of an item with the value (1: agrees, -1: disagrees) that its figures count. */
export const itemRatingCountSql = (kind: SQL, pk: SQL, value: 1 | -1): SQL<number> =>
  sql<number>`(select count(*) from ${ratings} x where x.content_type = ${kind} and x.object_pk = ${pk} and x.value = ${sql.raw(String(value))})`;
