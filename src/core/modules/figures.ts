import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { itemCommentCountSql, itemRatingCountSql } from '../../db/comment-counts.js';
import { comments, moduleFigures, modules, ratings } from '../../db/schema/index.js';
import { pageVersionField } from '../../db/versions.js';
import { fromJson } from '../../db/sql.js';
import { moduleContentTypes, moduleTypes, tileItemsOf } from './registry.js';

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * The tile counts (§A4.8) of the modules `moduleIds` selects, as a select of (id, items, comments,
 * participants): what each type's tiles count (`tileCount`), the comments on its content (replies
 * included; removed ones too, their thread still counts) and the people who took part (the items'
 * authors, the comments' and the ratings' on them).
 */
function moduleCountsSql(moduleIds: SQL): SQL {
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

/** What a module tile counts (§A4.8): what its type holds (its `tileCount`: ideas, subjects, ballots …), comments (replies included) and participants (their people, authors of comments, raters). */
export interface ModuleCounts {
  items: number;
  comments: number;
  participants: number;
}

/** A tile's counts as a statement read them (the driver may give numbers as text). */
const countsOf = (row: { items: unknown; comments: unknown; participants: unknown }): ModuleCounts => ({ items: Number(row.items), comments: Number(row.comments), participants: Number(row.participants) });

/** A module's tile as the statements below read it: its version now, and its counts when `module_figures` holds them at that version (else null). */
interface KeptTile {
  id: number;
  version: string;
  items: number | null;
  comments: number | null;
  participants: number | null;
}

/**
 * A common table expression (for a statement's WITH): `tile_versions` (id, version), the modules
 * `moduleIds` selects with their version now (`pageVersionField` of the module's project and itself:
 * every write their tiles count moves it).
 */
const tileVersionsCte = (moduleIds: SQL): SQL =>
  sql`tile_versions as materialized (select m.id, ${pageVersionField(sql`m.project_id`, sql`m.id`)} as version from ${modules} m where m.id in (${moduleIds}))`;

/**
 * Common table expressions: `tile_versions` (`tileVersionsCte`) and `tiles` (id, version, items,
 * comments, participants), their counts as `module_figures` holds them at that version, null where
 * it holds none.
 */
const keptTilesCtes = (moduleIds: SQL): SQL => sql`${tileVersionsCte(moduleIds)},
    tiles as (select v.id, v.version, f.items, f.comments, f.participants from tile_versions v left join ${moduleFigures} f on f.module_id = v.id and f.version = v.version)`;

/** The modules' tiles being counted in each database handle, by `<id>@<version>`: overlapping reads of a tile at one version wait for one count. */
const counting = new WeakMap<object, Map<string, Promise<ModuleCounts | undefined>>>();

/**
 * The counts of the tiles `module_figures` held at no version read (`stale`), counted once per
 * module and version in this process however many reads overlap, and kept under the version of the
 * counting statement's own snapshot (never older than the one read): one statement for those no
 * other read is counting.
 */
async function countTiles(db: DbOrTx, stale: readonly KeptTile[]): Promise<Map<number, ModuleCounts>> {
  let running = counting.get(db);
  if (!running) counting.set(db, (running = new Map()));
  const keyOf = (tile: KeptTile) => `${tile.id}@${tile.version}`;
  const mine = stale.filter((tile) => !running.has(keyOf(tile)));
  if (mine.length) {
    const counted = countAndKeep(db, mine.map((tile) => tile.id));
    for (const tile of mine) {
      const key = keyOf(tile);
      const one = counted.then((counts) => counts.get(tile.id));
      const done = () => void (running.get(key) === one && running.delete(key));
      running.set(key, one);
      one.then(done, done);
    }
  }
  const counts = await Promise.all(stale.map(async (tile) => [tile.id, await running.get(keyOf(tile))] as const));
  return new Map(counts.filter((entry): entry is [number, ModuleCounts] => entry[1] !== undefined));
}

/** Counts the modules' tiles (`moduleCountsSql`) and keeps them in `module_figures` under the modules' versions in the same snapshot, in one statement. */
async function countAndKeep(db: DbOrTx, ids: number[]): Promise<Map<number, ModuleCounts>> {
  const result = await db.execute(sql`with ${tileVersionsCte(sql`select unnest(${`{${ids.join(',')}}`}::integer[])`)},
    counted as materialized (${moduleCountsSql(sql`select v.id from tile_versions v`)}),
    kept as (insert into ${moduleFigures} as f (module_id, version, items, comments, participants)
      select c.id, v.version, c.items, c.comments, c.participants from counted c join tile_versions v on v.id = c.id order by c.id
      on conflict (module_id) do update set version = excluded.version, items = excluded.items, comments = excluded.comments, participants = excluded.participants)
    select id, items, comments, participants from counted`);
  return new Map(rowsOf<{ id: number; items: number; comments: number; participants: number }>(result).map((row) => [Number(row.id), countsOf(row)]));
}

/** The tiles' counts: those kept at their version as read, the others counted (`countTiles`). */
async function tileCounts(db: DbOrTx, tiles: readonly KeptTile[]): Promise<Map<number, ModuleCounts>> {
  const kept = tiles.filter((tile) => tile.items !== null).map((tile) => [Number(tile.id), countsOf(tile)] as const);
  const stale = tiles.filter((tile) => tile.items === null);
  return new Map([...kept, ...(stale.length ? await countTiles(db, stale) : [])]);
}

/**
 * The tile counts of a project's modules. Removed comments still count (their thread does). One
 * statement when every module's figures are kept at its version, two when some are counted.
 */
export async function loadModuleCounts(db: DbOrTx, projectId: number): Promise<Map<number, ModuleCounts>> {
  const result = await db.execute(sql`with ${keptTilesCtes(sql`select ${modules.id} from ${modules} where ${modules.projectId} = ${projectId}`)} select * from tiles`);
  return tileCounts(db, rowsOf<KeptTile>(result));
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
 * A statement: the figures named by `refs` (a text of figure refs separated by spaces, see
 * `figureRefs`; '' none) as a JSON object by ref, null for none, and the modules' tiles named
 * (`keptTilesCtes`): a tile's figures are in the object when `module_figures` holds them at the
 * module's version, else the caller counts them.
 */
const keptFiguresStatement = (refs: SQL): SQL =>
  sql`with r as (select x.ref, split_part(x.ref, '/', 1) as figure, split_part(split_part(x.ref, '/', 2), ':', 1) as kind, split_part(x.ref, ':', 2)::integer as pk
      from unnest(string_to_array(${refs}::text, ' ')) as x(ref) where x.ref <> ''),
    ${keptTilesCtes(sql`select r.pk from r where r.kind = 'module'`)}
    select (select json_object_agg(r.ref, case
      when r.kind = 'module' then null
      when r.figure in ('c', 'e', 'k', 'n') then ${itemCommentCountSql(sql`r.kind`, sql`r.pk`)}
      when r.figure = 'a' then ${itemRatingCountSql(sql`r.kind`, sql`r.pk`, 1)}
      when r.figure = 'd' then ${itemRatingCountSql(sql`r.kind`, sql`r.pk`, -1)}
    end) from r) as figures, (select json_agg(t) from tiles t) as tiles`;

/**
 * Figures by ref (web/page-keeping.ts: what a kept page fills in, when they may have changed): one
 * statement, and a second when a module tile's figures are not kept at its version (`countTiles`).
 */
export async function loadKeptFigures(db: DbOrTx, refs: Iterable<string>): Promise<Record<string, number>> {
  const [row] = rowsOf<{ figures: Record<string, number | null> | string | null; tiles: KeptTile[] | string | null }>(await db.execute(keptFiguresStatement(sql`${figureRefs(refs)}`)));
  const figures: Record<string, number | null> = row?.figures ? fromJson(row.figures) : {};
  const counts = await tileCounts(db, row?.tiles ? fromJson(row.tiles) : []);
  const tileFigure = { i: 'items', c: 'comments', p: 'participants' } as const;
  for (const ref of Object.keys(figures)) {
    const [letter, object] = ref.split('/');
    if (!object?.startsWith('module:')) continue;
    const field = tileFigure[letter as keyof typeof tileFigure];
    figures[ref] = (field && counts.get(Number(object.slice('module:'.length)))?.[field]) ?? null;
  }
  return figures as Record<string, number>;
}

