import { bigint, boolean, index, integer, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';

/**
 * One counter per table that carries the data-version trigger (migration 0011): every statement
 * that writes the table (insert, update, delete, truncate) adds 1 in its own transaction. Read with
 * `dataVersion` (db/versions.ts).
 */
export const dataVersions = pgTable('data_versions', {
  name: text('name').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

/**
 * The change log of the pages (migration 0032): statement-level triggers on every table a project's
 * pages show add one row per statement and project touched, in the writing transaction (project 0:
 * every page, for the few writes that show everywhere, such as a renamed user). Writers only insert,
 * so two writers never wait for each other. A project's page version is the sum of its rows and
 * project 0's (`pageVersionField`, db/versions.ts), those merged included: every few seconds the
 * background job moves the rows into `page_change_sums` (`compactPageChanges`), so this table holds
 * only the writes of the last seconds, and no version read sums more than those. `module_id` names the module
 * of a write to one module's content (its ideas, comments, ratings, questions: migration 0042), 0 a
 * write that shows on all of the project's pages; `item_id` the idea (map idea, proposal) a write
 * shows on, 0 one that shows on all the module's pages, -1 one on all of a module's items at once that
 * no item's page shows (live questions, migration 0055: one row per module after the merge). A project's pages sum all its rows, a
 * module's page those of module 0 and its own, an item's page those of module 0 and of its module's
 * item 0 and its own. `thread` marks a comment's row on an item (migration 0051): it moves only that
 * item's page (its thread) and what keeps the comment counts baked in (the moderation list, a list
 * ordered by comments, the project's tiles); the module's and project's pages fill the counts in at
 * sending (web/page-keeping.ts) and leave these rows out of their version.
 */
export const pageChanges = pgTable(
  'page_changes',
  {
    projectId: integer('project_id').notNull(),
    moduleId: integer('module_id').notNull().default(0),
    itemId: integer('item_id').notNull().default(0),
    thread: boolean('thread').notNull().default(false),
    n: bigint('n', { mode: 'number' }).notNull().default(1),
  },
  (t) => [index('page_changes_project').on(t.projectId, t.moduleId, t.itemId, t.thread, t.n)],
);

/**
 * The merged change log (migration 0056): what `compactPageChanges` moved out of `page_changes`,
 * summed three times, so that every page's version reads a few rows whatever the number of items
 * and writes: `scope` 0 per row key (project, module, item, thread), 1 per module (`item_id` 0:
 * all of its items), 2 per project (`module_id` and `item_id` 0: all of its rows). Only the
 * merge writes it.
 */
export const pageChangeSums = pgTable(
  'page_change_sums',
  {
    scope: smallint('scope').notNull(),
    projectId: integer('project_id').notNull(),
    moduleId: integer('module_id').notNull(),
    itemId: integer('item_id').notNull(),
    thread: boolean('thread').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'page_change_sums_pkey', columns: [t.scope, t.projectId, t.moduleId, t.itemId, t.thread] })],
);

/**
 * The module tiles' figures (core/modules/figures.ts), each kept under the module's page version it
 * was counted at (`pageVersionField` of the project and the module: every write the tile counts
 * moves it). A read whose version is the same takes the row; one whose version moved counts the
 * module anew and writes the row, so that a module is counted at most once per version in each
 * process, and a process or instance that reads after the row was written takes it. Equal versions
 * stand for the same data, so a row never shows figures older than its version. No foreign key: a
 * count of a module deleted meanwhile writes its row without failing; the background work deletes
 * such rows (`vacuumPageChanges`).
 */
export const moduleFigures = pgTable('module_figures', {
  moduleId: integer('module_id').primaryKey(),
  version: text('version').notNull(),
  items: integer('items').notNull(),
  comments: integer('comments').notNull(),
  participants: integer('participants').notNull(),
});
