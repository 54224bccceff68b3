import { inArray, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from './client.js';
import { dataVersions, moduleFigures, modules, pageChangeSums, pageChanges } from './schema/index.js';
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
export const pageVersionField = (projectId: SQL, moduleId?: SQL, itemId?: SQL, own?: SQL<boolean>): SQL<string> => versionOf(projectId, moduleId, itemId, undefined, own);

function versionOf(projectId: SQL, moduleId: SQL | undefined, itemId: SQL | undefined, thread: boolean | undefined, own: SQL<boolean> | undefined): SQL<string> {
  return sql<string>`((SELECT coalesce(sum(x.n) FILTER (WHERE x.project_id = 0), 0)::text || '.' || coalesce(sum(x.n) FILTER (WHERE x.project_id <> 0), 0)::text FROM ${countedChanges(projectId, moduleId, itemId, thread)})
    || '.' || (SELECT coalesce(sum(dv.version), 0) FROM ${dataVersions} dv WHERE dv.name IN (${sql.join(
      PAGE_TABLES.map((name) => sql`${name}`),
      sql`, `,
    )}))::text${own ? sql` || CASE WHEN ${own} THEN '.own' ELSE '' END` : sql``})`;
}

/**
 * The change log's rows a page counts (`pageVersionField`), as the subquery `x` (project_id, n):
 * project 0's and the project's, or with `moduleId` those of module 0 and of that module, or with
 * `itemId` too those of module 0 and of that module's item 0 and that item; merged
 * (`page_change_sums`, one row per project, module or key) and not yet merged (`page_changes`, the
 * last seconds' writes), so that a few rows are read whatever the number of items and writes.
 * `thread` true or false: only the thread rows, or only the others.
 */
function countedChanges(projectId: SQL, moduleId: SQL | undefined, itemId: SQL | undefined, thread: boolean | undefined): SQL {
  const threadOf = (alias: 's' | 'pc') => (thread === undefined ? sql`` : sql.raw(` AND ${thread ? '' : 'NOT '}${alias}.thread`));
  const merged = !moduleId ? sql`s.scope = 2` : !itemId ? sql`s.scope = 1 AND s.module_id IN (0, ${moduleId})` : sql`(s.scope = 1 AND s.module_id = 0 OR s.scope = 0 AND s.module_id = ${moduleId} AND s.item_id IN (0, ${itemId}))`;
  const inItem = itemId ? sql` AND pc.item_id IN (0, ${itemId})` : sql``;
  const inModule = moduleId ? sql` AND (pc.module_id = 0 OR (pc.module_id = ${moduleId}${inItem}))` : sql``;
  return sql`(SELECT s.project_id, s.n FROM ${pageChangeSums} s WHERE (s.scope = 2 AND s.project_id = 0 OR s.project_id = ${projectId} AND ${merged})${threadOf('s')}
    UNION ALL SELECT pc.project_id, pc.n FROM ${pageChanges} pc WHERE (pc.project_id = 0 OR (pc.project_id = ${projectId}${inModule}))${threadOf('pc')}) x`;
}

/**
 * The versions of a project's or a module's page that shows figures filled in at sending (its items'
 * comments and ratings, its modules' tiles: web/page-keeping.ts `KeptPageVersion`), as select fields
 * of the page's first statement: `pageVersion` as `pageVersionField`'s without the change log's thread
 * rows (migrations 0051, 0052: the comments and ratings on items), so that a comment or a rating on an
 * idea moves that idea's page only; `threadVersion` the sum of those rows: the figures are read anew
 * when it moves (once per process), and a page whose content depends on them beyond the figures (an
 * order by comments) is kept under it too. `own` as `pageVersionField`'s.
 */
export const countedPageVersionFields = (projectId: SQL, moduleId: SQL | undefined, own?: SQL<boolean>) => ({
  pageVersion: versionOf(projectId, moduleId, undefined, false, own),
  threadVersion: sql<string>`(SELECT coalesce(sum(x.n), 0) FROM ${countedChanges(projectId, moduleId, undefined, true)})::text`,
});

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
 * Moves the pages' change log's rows into its merged sums (the background job, every few seconds):
 * one statement deletes the rows it sees and adds them to the sums of their key, their module and
 * their project (`page_change_sums`), so that every page's version stays the same; rows committed
 * meanwhile stay for the next run. Two runs at once (several processes) wait for each other's rows
 * and take each row once; the sums are written in one order, so they never deadlock.
 */
export async function compactPageChanges(db: DbOrTx): Promise<void> {
  await db.execute(sql`WITH fresh AS (DELETE FROM ${pageChanges} RETURNING project_id, module_id, item_id, thread, n),
    levels AS (SELECT 0 AS scope, project_id, module_id, item_id, thread, n FROM fresh
      UNION ALL SELECT 1, project_id, module_id, 0, thread, n FROM fresh
      UNION ALL SELECT 2, project_id, 0, 0, thread, n FROM fresh)
    INSERT INTO ${pageChangeSums} AS s (scope, project_id, module_id, item_id, thread, n)
    SELECT scope, project_id, module_id, item_id, thread, sum(n) FROM levels GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (scope, project_id, module_id, item_id, thread) DO UPDATE SET n = s.n + excluded.n`);
}

/**
 * Vacuums the change log and the tiles' figures kept under its versions (the background job, every
 * minute): their rows live for seconds, and a server without autovacuum (CI's) would otherwise keep
 * every dead one in the tables that every page reads. The figures of modules deleted since are
 * deleted first. A vacuum another process runs is skipped, not waited for.
 */
export async function vacuumPageChanges(db: Db): Promise<void> {
  await db.execute(sql`DELETE FROM ${moduleFigures} f WHERE NOT EXISTS (SELECT 1 FROM ${modules} m WHERE m.id = f.module_id)`);
  await db.execute(sql`VACUUM (SKIP_LOCKED) ${pageChanges}, ${pageChangeSums}, ${moduleFigures}`);
}
