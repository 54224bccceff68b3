import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from './client.js';
import { comments } from './schema/index.js';
import { fromJson } from './sql.js';

/**
 * The comments an item's figure counts (an idea's, a map idea's, a proposal's "5 comments"): those
 * on it plus their direct replies, removed and blocked ones included. `kind` its content type, `pk` its id.
 */
export const itemCommentCountSql = (kind: SQL, pk: SQL): SQL<number> =>
  sql<number>`(select count(*) from ${comments} c where (c.content_type = ${kind} and c.object_pk = ${pk}) or (c.content_type = 'comment' and c.object_pk in (select p.id from ${comments} p where p.content_type = ${kind} and p.object_pk = ${pk})))`;

/** An item named as a kept page's count marker names it: `kind:id`. */
const ITEM_REF = /^[a-z]+:\d{1,9}$/;

/** Only well-formed refs, separated by spaces: what `itemCommentCountsField` takes. */
export const itemRefs = (refs: Iterable<string>): string => [...refs].filter((ref) => ITEM_REF.test(ref)).join(' ');

/**
 * A select field: the comment counts (`itemCommentCountSql`) of the items named by `refs` (a text
 * of `kind:id` refs separated by spaces, see `itemRefs`; '' none) as a JSON object by ref, null for
 * none. A kept page's first statement reads them with its version (web/page-keeping.ts).
 */
export const itemCommentCountsField = (refs: SQL): SQL<Record<string, number> | string | null> =>
  sql<Record<string, number> | string | null>`(select json_object_agg(r.ref, ${itemCommentCountSql(sql`split_part(r.ref, ':', 1)`, sql`split_part(r.ref, ':', 2)::integer`)})
    from unnest(string_to_array(${refs}::text, ' ')) as r(ref) where r.ref <> '')`;

/** The comment counts of items by ref, in one statement (for refs a page's first statement did not know). */
export async function loadItemCommentCounts(db: DbOrTx, refs: Iterable<string>): Promise<Record<string, number>> {
  const result = (await db.execute(sql`select ${itemCommentCountsField(sql`${itemRefs(refs)}`)} as counts`)) as unknown as { rows: { counts: Record<string, number> | string | null }[] };
  const counts = result.rows[0]?.counts;
  return counts ? fromJson(counts) : {};
}
