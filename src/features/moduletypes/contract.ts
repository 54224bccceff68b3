import { and, inArray, isNotNull, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { JSX } from 'preact';
import type { TProperties } from 'typebox';
import type { Config } from '../../config.js';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import type { FieldErrors } from '../../http/errors.js';
import type { Lang } from '../../i18n/index.js';
import { registerMediaColumns } from '../../media/references.js';
import type { PageModule } from '../../core/modules/queries.js';
import type { ModuleAliases } from '../../core/modules/terms.js';
import { moduleTypeOf, type ModuleTypeCore, registerModuleType, type Text } from '../../core/modules/registry.js';
import type { LoadedModuleContext } from '../../core/projects/context.js';
import type { PageContext } from '../../web/context.js';
import type { FormBody } from '../../web/forms.js';
import type { ObjectRef } from '../comments/queries.js';
import type { ItemThreads } from '../threads/items.js';
import type { Media } from '../../media/store.js';
import type { FixtureKind, FixtureModuleFields } from './fixtures.js';

/**
 * The module-type contract: one `ModuleType` per kind of module, declared in its own folder and
 * listed once in src/module-types.ts. The floor reads its `ModuleTypeCore` part (blueprint, phases,
 * components and their publish checks, content types, app API field); the pages, the dashboard and
 * the exports read the rest through the lookups below. Nothing shared names a module type.
 */

/** What a module's participation view is loaded from (the module page, and a one-module project's page). */
export interface ModuleContentInput {
  db: DbOrTx;
  request: FastifyRequest;
  config: Config;
  page: PageContext;
  orgSlug: string;
  /** The page's path without its query (links of lists and filters). */
  path: string;
  module: PageModule;
  context: LoadedModuleContext;
  /** The page's query, as the module page's schema (with every type's `pageQuery`) read it. */
  query: Record<string, string | undefined>;
}

/**
 * A part of the module page: loaded for a module (null: nothing of this type's content here), then
 * shown. The objects whose discussions it shows are named by `threads`; the page loads every part's
 * threads together, in a constant number of statements, and hands them to the views.
 */
export interface ModuleContentPart {
  load: (input: ModuleContentInput) => Promise<unknown>;
  threads?: (data: never) => ObjectRef[];
  View: (props: { page: PageContext; data: never; threads: ItemThreads }) => JSX.Element | null;
}

/** Types a content part so that its view gets what its loader returns. */
export const contentPart = <D,>(part: {
  load: (input: ModuleContentInput) => Promise<D | null>;
  threads?: (data: D) => ObjectRef[];
  View: (props: { page: PageContext; data: D; threads: ItemThreads }) => JSX.Element | null;
}): ModuleContentPart => part as ModuleContentPart;

/** A module as the dashboard shows it to a type's own component. */
export interface DashboardModuleRef {
  id: number;
  slug: string;
  /** Its title, as the pages name it (never the slug). */
  name: string;
  blueprintType: string;
  isDraft: boolean;
}

/** A dashboard component's form that a module type brings (the shared ones are the dashboard's own). */
export interface DashboardComponentForm {
  /** The form's values as stored. */
  values: (db: DbOrTx, module: DashboardModuleRef) => Promise<Record<string, string>>;
  /** The fields inside the dashboard's form (its CSRF field and save button are the dashboard's). */
  Fields: (props: { page: PageContext; module: DashboardModuleRef; values: Record<string, string>; errors: FieldErrors }) => JSX.Element;
  /**
   * Reads the posted form and saves it in one transaction (by `userId`, the initiator); with errors
   * nothing is saved and the form comes back. A `file` in the answer is sent instead of the
   * dashboard's redirect (what exists only in this answer, such as new vote codes).
   */
  save: (db: Db, module: DashboardModuleRef, body: FormBody, lang: Lang, userId: number, site: DashboardSite) => Promise<DashboardFormResult>;
  /** The file fields it takes: the form is then sent as multipart, and the files reach `save` in `site.uploads`. */
  uploads?: (field: string) => boolean;
}

/** What a dashboard form's save may need of the site: the key of keyed hashes, the address and organisation of its pages. */
export interface DashboardSite {
  secretKey: string;
  origin: string;
  orgSlug: string;
  /** The uploaded files of the fields `uploads` names, by field (non-empty ones only). */
  uploads: Record<string, Buffer>;
  media: Media;
}

/** A dashboard form's answer: its values and errors, and a file to send instead of the redirect. */
export interface DashboardFormResult {
  values: Record<string, string>;
  errors: FieldErrors;
  file?: { filename: string; contentType: string; body: string; attachment: boolean };
}

/**
 * A dashboard component that is no form of the dashboard's own: it shows what it loaded (a list of
 * the module's items with links to the pages that edit them) and has no save button.
 */
export interface DashboardComponentPanel {
  load: (db: DbOrTx, module: DashboardModuleRef, orgSlug: string) => Promise<unknown>;
  View: (props: { page: PageContext; module: DashboardModuleRef; orgSlug: string; data: never }) => JSX.Element;
}

/** Types a panel so that its view gets what its loader returns. */
export const dashboardPanel = <D,>(panel: {
  load: (db: DbOrTx, module: DashboardModuleRef, orgSlug: string) => Promise<D>;
  View: (props: { page: PageContext; module: DashboardModuleRef; orgSlug: string; data: D }) => JSX.Element;
}): DashboardComponentPanel => panel as DashboardComponentPanel;

export type Cell = string | number;

/** How an export renders: its language (headings, statuses), the time zone of its dates, the site's address for links. */
export interface SheetContext {
  lang: Lang;
  timeZone: string;
  baseUrl: string;
  orgSlug: string;
  /** The module's own words: a sheet's "Category" and "Label"/"Labels" columns are headed with them (exports/sheets.ts). */
  aliases?: ModuleAliases;
}

/** One export's columns (headings as catalogue keys, in order) and how a row fills them. */
export interface Sheet<R> {
  title: string;
  columns: string[];
  cells: (row: R, c: SheetContext) => Cell[];
}

/** One export file of a module (`<name>.xlsx` and `<name>.csv`): its sheet and its rows, in batches. */
export interface ModuleExportFile {
  name: string;
  heading: string | Text;
  sheet: Sheet<never>;
  batches: (db: DbOrTx, moduleId: number) => AsyncIterable<unknown[]>;
  /** Headings that depend on the module's content (a poll's questions and choices), in place of the sheet's. */
  columns?: (db: DbOrTx, moduleId: number) => Promise<string[]>;
}

/** Types an export file so that its sheet reads what its batches hold. */
export const exportFile = <R,>(file: {
  name: string;
  heading: string | Text;
  sheet: Sheet<R>;
  batches: (db: DbOrTx, moduleId: number) => AsyncIterable<R[]>;
  columns?: (db: DbOrTx, moduleId: number) => Promise<string[]>;
}): ModuleExportFile =>
  file as unknown as ModuleExportFile;

/** A kind of module: the floor's part and everything the pages, dashboard and exports ask of it. */
export interface ModuleType extends ModuleTypeCore {
  /** Its content's API routes and pages (registered once, whatever modules exist; types may share one). */
  plugin?: (app: FastifyInstance) => Promise<void>;
  /** Query parameters its part of the module page reads (filters, ordering, paging). */
  pageQuery?: TProperties;
  /** Its part of the module page. */
  content?: ModuleContentPart;
  /** Forms of its own dashboard components, by component key. */
  dashboardForms?: Record<string, DashboardComponentForm>;
  /** Its own dashboard components that are no form (lists with links to its editing pages), by component key. */
  dashboardPanels?: Record<string, DashboardComponentPanel>;
  /** Its export files (none: the module offers no export). */
  exports?: ModuleExportFile[];
  /** What its content's e-mails tell, documented for operators (the mails themselves go through the shared actions). */
  notifications?: string[];
  /** The fixture kinds of its content that loaddata takes (features/moduletypes/fixtures.ts). */
  fixtures?: FixtureKind[];
  /**
   * The media paths its content names in these modules (images of ideas, proposals, questions),
   * read before a project is deleted so that its files go when nothing else names them. Modules of
   * other types may be among the ids: it answers for its own tables only.
   */
  mediaPaths?: (db: DbOrTx, moduleIds: number[]) => Promise<string[]>;
  /** Copies the settings it keeps in tables of its own from one module to another (*Duplicate* of a project). */
  copySettings?: (tx: Tx, fromModuleId: number, toModuleId: number) => Promise<void>;
  /**
   * A fix of its stored data run at every start after the migrations (the server's before it serves,
   * and the CLI's): the budgets hash vote codes kept in the clear from before (issue 36.9). Answers a
   * line for the start log, or null when there was nothing to do.
   */
  afterMigrate?: (db: Db, config: Pick<Config, 'secretKey'>) => Promise<string | null>;
  /** Fields it adds to loaddata's `modules` records (a map module's `area`); types that share them share the object. */
  fixtureModuleFields?: FixtureModuleFields;
  /** Its columns that name media files (an idea's image): a stored file is removed only when no such column names it. */
  mediaColumns?: PgColumn[];
}

/** A `mediaPaths` hook over one image column of a table with a `module_id` (paths named; nulls left out). */
export const mediaPathsOf =
  (table: PgTable, moduleId: PgColumn, image: PgColumn) =>
  async (db: DbOrTx, moduleIds: number[]): Promise<string[]> => {
    if (!moduleIds.length) return [];
    const rows = await db
      .select({ path: sql<string>`${image}` })
      .from(table)
      .where(and(inArray(moduleId, moduleIds), isNotNull(image)));
    return rows.map((row) => row.path);
  };

const types: ModuleType[] = [];

/** Registers the listed module types with the floor and here; src/module-types.ts calls it once for the platform's list. */
export function registerModuleTypes(list: ModuleType[]): void {
  for (const type of list) {
    registerModuleType(type);
    registerMediaColumns(type.mediaColumns ?? []);
    if (!types.includes(type)) types.push(type);
  }
}

export const registeredModuleTypes = (): readonly ModuleType[] => types;

/** The fixture kinds of the registered types, in the order the types are listed (loaddata loads them after the modules). */
export const moduleFixtureKinds = (): FixtureKind[] => types.flatMap((type) => type.fixtures ?? []);

/** The fields the registered types add to loaddata's `modules` records, each set once. */
export const moduleFixtureFields = (): FixtureModuleFields[] => [...new Set(types.flatMap((type) => (type.fixtureModuleFields ? [type.fixtureModuleFields] : [])))];

/** Runs the registered types' `afterMigrate` fixes, each once, in the order the types are listed; the lines for the start log. */
export async function afterMigrate(db: Db, config: Pick<Config, 'secretKey'>): Promise<string[]> {
  const lines: string[] = [];
  for (const fix of new Set(types.flatMap((type) => (type.afterMigrate ? [type.afterMigrate] : [])))) {
    const line = await fix(db, config);
    if (line) lines.push(line);
  }
  return lines;
}

/** The registered types' plugins, each once (types of one folder may share theirs), in the order the types are listed. */
export const moduleTypePlugins = () => [...new Set(types.flatMap((type) => (type.plugin ? [type.plugin] : [])))];
export const appModuleType = (blueprintType: string): ModuleType | null => {
  const core = moduleTypeOf(blueprintType);
  return types.find((t) => t === core) ?? null;
};
