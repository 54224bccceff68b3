import { inArray, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from './client.js';
import { dataVersions, pageChanges } from './schema/index.js';
import { preparedStatement } from './sql.js';

/** The tables whose writes bump their data version (the trigger of migration 0011). */
type VersionedTable = 'organisations' | 'projects' | 'modules' | 'phases';

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

const PAGE_TABLES: readonly VersionedTable[] = ['organisations', 'projects', 'modules', 'phases'];

/**
 * The version of a project's pages, as a select field of the page's first statement (`projectId`
 * its project's id column; 0: the pages that show no project's content, such as the start page),
 * `<site>.<project>.<tables>`: the sum of project 0's rows in the pages' change log (`page_changes`,
 * migration 0032: what shows on every page, such as the footer's content pages and the platform
 * settings), the sum of the project's rows, and the data version of the four rarely written tables.
 * With `moduleId` (a module's page), only the project's rows of that module and of module 0 count:
 * a write to one module's content (migration 0042) moves the pages of that module and the project's
 * pages, not the other modules'. With `itemId` too (an idea's page), of that module only its rows of
 * that item and of item 0: a comment on one idea does not move another idea's page.
 * Every committed write adds at least 1, and a later snapshot sees all an earlier one saw, so two
 * equal versions stand for the same data; read in the statement that loads the page's head, it is
 * exactly as new as the rows loaded with it (web/page-keeping.ts keeps pages under it, and the
 * frame's links under its first part: `siteVersionOf`).
 * With `own` (a condition over the viewer, such as core/projects/queries.ts `followingField`), a fact
 * of the viewer's own that the page shows and no row of the change log counts: the version ends in
 * `.own` while it holds, so the viewer's kept page changes with it and nobody else's does (a follow
 * writes no row: migration 0054).
 */
export const pageVersionField = (projectId: SQL, moduleId?: SQL, itemId?: SQL, own?: SQL<boolean>): SQL<string> => versionOf(projectId, moduleId, itemId, sql``, own);

function versionOf(projectId: SQL, moduleId: SQL | undefined, itemId: SQL | undefined, rows: SQL, own: SQL<boolean> | undefined): SQL<string> {
  const inItem = itemId ? sql` AND pc.item_id IN (0, ${itemId})` : sql``;
  const inModule = moduleId ? sql` AND (pc.module_id = 0 OR (pc.module_id = ${moduleId}${inItem}))` : sql``;
  return sql<string>`((SELECT coalesce(sum(pc.n) FILTER (WHERE pc.project_id = 0), 0)::text || '.' || coalesce(sum(pc.n) FILTER (WHERE pc.project_id <> 0), 0)::text FROM ${pageChanges} pc WHERE (pc.project_id = 0 OR (pc.project_id = ${projectId}${inModule}))${rows})
    || '.' || (SELECT coalesce(sum(dv.version), 0) FROM ${dataVersions} dv WHERE dv.name IN (${sql.join(
      PAGE_TABLES.map((name) => sql`${name}`),
      sql`, `,
    )}))::text${own ? sql` || CASE WHEN ${own} THEN '.own' ELSE '' END` : sql``})`;
}

/**
 * The versions of a project's or a module's page that shows figures filled in at sending (its items'
 * comments and ratings, its modules' tiles: web/page-keeping.ts `KeptPageVersion`), as select fields
 * of the page's first statement: `pageVersion` as `pageVersionField`'s without the change log's thread
 * rows (migrations 0051, 0052: the comments and ratings on items), so that a comment or a rating on an
 * idea moves that idea's page only; `threadVersion` the sum of those rows, for a page whose content
 * depends on them beyond the figures (an order by comments); `figures` the figures (`figures`, a select
 * field such as core/modules/figures.ts `keptFiguresField`), read only when `known` (what the process
 * holds them for) is not the page's `<pageVersion>~<threadVersion>`: null then, nothing changed.
 * `own` as `pageVersionField`'s.
 */
export const countedPageVersionFields = (projectId: SQL, moduleId: SQL | undefined, figures: SQL, known: SQL, own?: SQL<boolean>) => {
  const pageVersion = versionOf(projectId, moduleId, undefined, sql` AND NOT pc.thread`, own);
  const threadVersion = sql<string>`(SELECT coalesce(sum(pc.n), 0) FROM ${pageChanges} pc WHERE pc.thread AND pc.project_id = ${projectId}${moduleId ? sql` AND pc.module_id = ${moduleId}` : sql``})::text`;
  return {
    pageVersion,
    threadVersion,
    figures: sql<Record<string, number> | string | null>`(CASE WHEN ${known}::text = ${pageVersion} || '~' || ${threadVersion} THEN NULL ELSE ${figures} END)`,
  };
};

/**
 * The site's version within a page's version (`pageVersionField`): project 0's rows of the pages'
 * change log, which every write to what every page shows adds to (the content pages, the platform
 * settings, the start page). Equal: the same footer and menu, on every instance.
 */
export const siteVersionOf = (pageVersion: string): string => pageVersion.slice(0, pageVersion.indexOf('.'));

const startPageVersion = preparedStatement<{ version: string }, Record<string, never>>('page_version_none', () => sql`SELECT ${pageVersionField(sql`0`)} AS version`);

/** The version of the pages that show no project's content (the start page): one statement. */
export const noProjectPageVersion = async (db: DbOrTx): Promise<string> => (await startPageVersion(db, {}))[0]?.version ?? '0';

/**
 * Merges each project's rows of the pages' change log into one per module, item and thread mark (the background job),
 * keeping the sums: one statement deletes the rows it sees and inserts their sums; rows committed
 * meanwhile stay.
 */
export async function compactPageChanges(db: DbOrTx): Promise<void> {
  await db.execute(sql`WITH merged AS (
      DELETE FROM ${pageChanges} WHERE (${pageChanges.projectId}, ${pageChanges.moduleId}, ${pageChanges.itemId}, ${pageChanges.thread}) IN (SELECT ${pageChanges.projectId}, ${pageChanges.moduleId}, ${pageChanges.itemId}, ${pageChanges.thread} FROM ${pageChanges} GROUP BY 1, 2, 3, 4 HAVING count(*) > 1)
      RETURNING ${pageChanges.projectId} AS project_id, ${pageChanges.moduleId} AS module_id, ${pageChanges.itemId} AS item_id, ${pageChanges.thread} AS thread, ${pageChanges.n} AS n)
    INSERT INTO ${pageChanges} (project_id, module_id, item_id, thread, n) SELECT project_id, module_id, item_id, thread, sum(n) FROM merged GROUP BY project_id, module_id, item_id, thread`);
}
