import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { countedPageVersionFields } from '../../db/versions.js';
import { type LoadedModuleContext, projectFields, type ProjectRow, toProjectContext, uidOf } from '../projects/context.js';
import type { RuleUser } from '../projects/rules.js';
import { fromJson, preparedPer, qualified as q } from '../../db/sql.js';
import { type ModuleAliases, NO_ALIASES } from './terms.js';
import { categories, type ContentKind, labels, modules, organisations, phases, projects } from '../../db/schema/index.js';
import { moduleContentTypes } from './registry.js';

export interface ModulePhase {
  id: number;
  moduleId: number;
  name: string;
  description: string;
  type: string;
  startDate: Date | null;
  endDate: Date | null;
  weight: number;
}

export interface NamedRef {
  id: number;
  name: string;
}

/** A module with its phases, categories and labels, and its own words for these (terms.ts). */
export interface LoadedModule {
  id: number;
  projectId: number;
  isDraft: boolean;
  phases: ModulePhase[];
  categories: NamedRef[];
  labels: NamedRef[];
  aliases: ModuleAliases;
}

/** JSON of a phase as moduleDetailFields build it (dates as ISO text). */
type PhaseJson = Omit<ModulePhase, 'startDate' | 'endDate'> & { startDate: string | null; endDate: string | null };

const toPhase = (p: PhaseJson): ModulePhase => ({ ...p, startDate: p.startDate ? new Date(p.startDate) : null, endDate: p.endDate ? new Date(p.endDate) : null });

/**
 * A module's phases, categories and labels as select fields of a statement over `modules`
 * (correlated on the module's id, every column qualified), so that a caller adds them to its
 * own statement; `toModuleDetails` reads them back.
 */
export const moduleDetailFields = {
  phases: sql<PhaseJson[] | string | null>`(select json_agg(json_build_object('id', p.id, 'moduleId', p.module_id, 'name', p.name, 'description', p.description,
    'type', p.type, 'startDate', p.start_date, 'endDate', p.end_date, 'weight', p.weight) order by p.weight, p.id) from ${phases} p where p.module_id = ${q(modules.id)})`,
  categories: sql<NamedRef[] | string | null>`(select json_agg(json_build_object('id', c.id, 'name', c.name) order by c.id) from ${categories} c where c.module_id = ${q(modules.id)})`,
  labels: sql<NamedRef[] | string | null>`(select json_agg(json_build_object('id', l.id, 'name', l.name) order by l.id) from ${labels} l where l.module_id = ${q(modules.id)})`,
  aliases: sql<ModuleAliases | string>`json_build_object('categoryAlias', ${q(modules.categoryAlias)}, 'categoryAliasHelp', ${q(modules.categoryAliasHelp)}, 'labelAlias', ${q(modules.labelAlias)}, 'labelAliasHelp', ${q(modules.labelAliasHelp)})`,
};

type ModuleDetailsRow = { phases: PhaseJson[] | string | null; categories: NamedRef[] | string | null; labels: NamedRef[] | string | null; aliases: ModuleAliases | string };

export const toModuleDetails = (row: ModuleDetailsRow): Pick<LoadedModule, 'phases' | 'categories' | 'labels' | 'aliases'> => ({
  phases: (fromJson(row.phases) ?? []).map(toPhase),
  categories: fromJson(row.categories) ?? [],
  labels: fromJson(row.labels) ?? [],
  aliases: fromJson(row.aliases) ?? NO_ALIASES,
});

/** A module's own words for category and label (terms.ts); the platform's where the module is gone. */
export async function loadModuleAliases(db: DbOrTx, moduleId: number): Promise<ModuleAliases> {
  const [row] = await db
    .select({ categoryAlias: modules.categoryAlias, categoryAliasHelp: modules.categoryAliasHelp, labelAlias: modules.labelAlias, labelAliasHelp: modules.labelAliasHelp })
    .from(modules)
    .where(eq(modules.id, moduleId));
  return row ?? NO_ALIASES;
}

/** Phases, categories and labels of some modules: one statement whatever their number. */
async function loadModuleDetails(db: DbOrTx, heads: { id: number; projectId: number; isDraft: boolean }[]): Promise<LoadedModule[]> {
  if (!heads.length) return [];
  const rows = await db
    .select({ id: modules.id, ...moduleDetailFields })
    .from(modules)
    .where(inArray(modules.id, heads.map((m) => m.id)));
  const details = new Map(rows.map((row) => [row.id, toModuleDetails(row)]));
  return heads.map((m) => ({ ...m, ...(details.get(m.id) ?? { phases: [], categories: [], labels: [], aliases: NO_ALIASES }) }));
}

/** The app's modules: published modules of app-accessible projects, in (weight, id) order. */
export async function loadAppModules(db: DbOrTx, moduleId?: number): Promise<LoadedModule[]> {
  const heads = await db
    .select({ id: modules.id, projectId: modules.projectId, isDraft: modules.isDraft })
    .from(modules)
    .innerJoin(projects, eq(projects.id, modules.projectId))
    .where(and(eq(modules.isDraft, false), eq(projects.isAppAccessible, true), moduleId === undefined ? undefined : eq(modules.id, moduleId)))
    .orderBy(asc(modules.weight), asc(modules.id));
  return loadModuleDetails(db, heads);
}

const moduleHead = {
  id: modules.id,
  slug: modules.slug,
  name: modules.name,
  description: modules.description,
  blueprintType: modules.blueprintType,
  projectId: modules.projectId,
  isDraft: modules.isDraft,
};

/** A module as its pages show it: name, description, blueprint type, phases, categories and labels, and its words for them. */
export interface PageModule extends LoadedModule {
  slug: string;
  name: string;
  description: string | null;
  blueprintType: string;
  /** The ids of its objects of the kinds whose content type asks for them (`onModulePage`): a page's content part needs no statement to find it has none. */
  items: ModuleItems;
}

type ModuleItems = Partial<Record<ContentKind, number[]>>;

/** What items a module holds, by kind, as a select field over `modules` (index probes; built when first asked, after the module types registered). */
const itemsField = () => {
  const kinds = moduleContentTypes().filter((c) => c.onModulePage);
  const pairs = kinds.flatMap((c) => [
    // The kind is a content kind of the code (lowercase letters), never input.
    sql.raw(`'${c.kind}'`),
    sql`(select json_agg(o.id order by o.id) from (${c.inModules(sql`select ${q(modules.id)}`)}) as o(id, module_id, creator_id))`,
  ]);
  return sql<Record<string, number[] | null> | string>`json_build_object(${sql.join(pairs, sql`, `)})`;
};

/** A module head with its details read back from moduleDetailFields. */
const withDetails = <T extends ModuleDetailsRow & { items: Record<string, number[] | null> | string }>({ phases: p, categories: c, labels: l, aliases: a, items: held, ...head }: T) => {
  const items: ModuleItems = Object.fromEntries(Object.entries(fromJson(held)).map(([kind, ids]) => [kind, ids ?? []]));
  return { ...head, ...toModuleDetails({ phases: p, categories: c, labels: l, aliases: a }), items };
};

/** The modules of a project (published ones; drafts too when asked) with their details, in (weight, id) order: one statement. */
export async function loadProjectModules(db: DbOrTx, projectId: number, withDrafts: boolean): Promise<PageModule[]> {
  const rows = await db
    .select({ ...moduleHead, ...moduleDetailFields, items: itemsField() })
    .from(modules)
    .where(and(eq(modules.projectId, projectId), withDrafts ? undefined : eq(modules.isDraft, false)))
    .orderBy(asc(modules.weight), asc(modules.id));
  return rows.map(withDetails);
}

/**
 * A module by its slug inside an organisation, with its details, its project's slug and name, and
 * the viewer's rule context (project state, roles, phases), in one statement; null when there is none.
 */
const modulePageStatement = preparedPer((db) =>
  db
    .select({
      rules: projectFields(sql.placeholder('uid')),
      ...moduleHead,
      ...moduleDetailFields,
      items: itemsField(),
      projectSlug: projects.slug,
      projectName: projects.name,
      organisationName: organisations.name,
      ...countedPageVersionFields(q(modules.projectId), q(modules.id)),
    })
    .from(modules)
    .innerJoin(projects, eq(projects.id, modules.projectId))
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(and(eq(organisations.slug, sql.placeholder('org')), eq(modules.slug, sql.placeholder('slug'))))
    .prepare('module_page'),
);

/**
 * The module page's head, with its version (`pageVersion`, a web/page-keeping.ts `KeptPageVersion`:
 * its figures are filled in at sending).
 */
export async function loadModulePage(db: DbOrTx, orgSlug: string, moduleSlug: string, user: RuleUser) {
  const [row] = await modulePageStatement(db).execute({ org: orgSlug, slug: moduleSlug, uid: uidOf(user) });
  if (!row) return null;
  const { rules, pageVersion, threadVersion, ...head } = row;
  const module = withDetails(head);
  return { module, context: moduleContextOf(rules, module, user, new Date()), pageVersion: { pageVersion, threadVersion } };
}

/** A module's rule context from what a page's statement loaded: the project's fields (`projectFields`) and the module with its phases. */
export const moduleContextOf = (rules: ProjectRow, module: { id: number; isDraft: boolean; blueprintType: string; phases: ModulePhase[] }, user: RuleUser, now: Date): LoadedModuleContext => ({
  project: toProjectContext(rules, user),
  module: { id: module.id, isDraft: module.isDraft, blueprintType: module.blueprintType },
  phases: module.phases,
  now,
});
