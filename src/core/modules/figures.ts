import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { itemCommentCountSql, itemRatingCountSql } from '../../db/comment-counts.js';
import { comments, ratings } from '../../db/schema/index.js';
import { fromJson } from '../../db/sql.js';
import { moduleContentTypes, moduleTypes, tileItemsOf } from './registry.js';

/**
 * The tile counts (§A4.8) of the modules `moduleIds` selects, as a select of (id, items, comments,
 * participants): what each type's tiles count (`tileCount`), the comments on its content (replies
 * included; removed ones too, their thread still counts) and the people who took part (the items'
 * authors, the comments' and the ratings' on them).
 */
export function moduleCountsSql(moduleIds: SQL): SQL {
  // Every module type's content, as its content type lists it (`inModules`), for the comments and ratings on it; what each type's tiles count (`tileCount`), once per counting function.
  const kinds = moduleContentTypes();
  const counted = [...new Set(moduleTypes().map(tileItemsOf).filter((items) => items !== null))];
  const none = sql`select null::integer as module_id, null::text as kind, null::integer as obj, null::integer as creator_id where false`;
  const items = sql.join(
    kinds.map((kind) => sql`select o.module_id, ${kind.kind}::text as kind, o.id as obj, o.creator_id from (${kind.inModules(moduleIds)}) as o(id, module_id, creator_id)`),
    sql` union all `,
  );
  const tallied = sql.join(
    counted.map((of) => sql`select o.module_id, o.id::text as item, o.creator_id from (${of(moduleIds)}) as o(id, module_id, creator_id)`),
    sql` union all `,
  );
  return sql`
    with items as (${kinds.length ? items : none}),
    counted as (${counted.length ? tallied : sql`select null::integer as module_id, null::text as item, null::integer as creator_id where false`}),
    top as (select it.module_id, c.id, c.creator_id from ${comments} c join items it on c.content_type = it.kind and c.object_pk = it.obj),
    threads as (
      select module_id, id, creator_id from top
      union all
      select t.module_id, r.id, r.creator_id from ${comments} r join top t on r.content_type = 'comment' and r.object_pk = t.id
    ),
    rated as (
      select it.module_id, ra.creator_id from ${ratings} ra join items it on ra.content_type = it.kind and ra.object_pk = it.obj
      union all
      select th.module_id, ra.creator_id from ${ratings} ra join threads th on ra.content_type = 'comment' and ra.object_pk = th.id
    ),
    people as (
      select module_id, creator_id from counted
      union select module_id, creator_id from threads
      union select module_id, creator_id from rated
    )
    select mi.id,
      (select count(distinct co.item) from counted co where co.module_id = mi.id)::int as items,
      (select count(*) from threads th where th.module_id = mi.id)::int as comments,
      (select count(*) from people pe where pe.module_id = mi.id and pe.creator_id is not null)::int as participants
    from (${moduleIds}) as mi(id)`;
}

/**
 * The letters of the figures a kept page fills in at sending (web/page-keeping.ts `figureText`, where
 * each letter is said its own way): of an item, `a` its agrees, `d` its disagrees, and its comments
 * (on it and their replies) as `c`, `e`, `k` and `n`; of a module's tile (`module:3`), `i` what its type
 * counts (`tileCount`: ideas, questions, ballots …, said in the type's words), `c` its comments and `p`
 * its participants.
 */
export const FIGURE_CODES = 'acdeiknp';

/** A figure's ref: `<letter>/<kind>:<id>` (`c/idea:12`). */
const FIGURE_REF = new RegExp(`^[${FIGURE_CODES}]/[a-z]+:\\d{1,9}$`);

/** Only well-formed figure refs, separated by spaces: what `loadKeptFigures` reads. */
const figureRefs = (refs: Iterable<string>): string => [...refs].filter((ref) => FIGURE_REF.test(ref)).join(' ');

/**
 * A select field: the figures named by `refs` (a text of figure refs separated by spaces, see
 * `figureRefs`; '' none) as a JSON object by ref, null for none; the modules' tile counts are read
 * once for all the modules named.
 */
const keptFiguresField = (refs: SQL): SQL<Record<string, number> | string | null> =>
  sql<Record<string, number> | string | null>`(with r as (select x.ref, split_part(x.ref, '/', 1) as figure, split_part(split_part(x.ref, '/', 2), ':', 1) as kind, split_part(x.ref, ':', 2)::integer as pk
      from unnest(string_to_array(${refs}::text, ' ')) as x(ref) where x.ref <> ''),
    tiles as materialized (${moduleCountsSql(sql`select distinct r.pk from r where r.kind = 'module'`)})
    select json_object_agg(r.ref, case
      when r.kind = 'module' then (select case r.figure when 'i' then t.items when 'c' then t.comments when 'p' then t.participants end from tiles t where t.id = r.pk)
      when r.figure in ('c', 'e', 'k', 'n') then ${itemCommentCountSql(sql`r.kind`, sql`r.pk`)}
      when r.figure = 'a' then ${itemRatingCountSql(sql`r.kind`, sql`r.pk`, 1)}
      when r.figure = 'd' then ${itemRatingCountSql(sql`r.kind`, sql`r.pk`, -1)}
    end) from r)`;

/** Figures by ref, in one statement (web/page-keeping.ts: what a kept page fills in, when they may have changed). */
export async function loadKeptFigures(db: DbOrTx, refs: Iterable<string>): Promise<Record<string, number>> {
  const result = (await db.execute(sql`select ${keptFiguresField(sql`${figureRefs(refs)}`)} as figures`)) as unknown as { rows: { figures: Record<string, number> | string | null }[] };
  const figures = result.rows[0]?.figures;
  return figures ? fromJson(figures) : {};
}
