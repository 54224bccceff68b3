import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { categories, labels, modules, phases, projects } from '../../db/schema/index.js';

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

/** A module with its phases, categories and labels. */
export interface LoadedModule {
  id: number;
  projectId: number;
  isDraft: boolean;
  phases: ModulePhase[];
  categories: NamedRef[];
  labels: NamedRef[];
}

function groupBy<T extends { moduleId: number }>(rows: T[]): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const row of rows) map.set(row.moduleId, [...(map.get(row.moduleId) ?? []), row]);
  return map;
}

/** Phases, categories and labels of some modules: three statements whatever their number. */
export async function loadModuleDetails(db: DbOrTx, heads: { id: number; projectId: number; isDraft: boolean }[]): Promise<LoadedModule[]> {
  if (!heads.length) return [];
  const ids = heads.map((m) => m.id);
  const phaseRows = await db
    .select({
      id: phases.id,
      moduleId: phases.moduleId,
      name: phases.name,
      description: phases.description,
      type: phases.type,
      startDate: phases.startDate,
      endDate: phases.endDate,
      weight: phases.weight,
    })
    .from(phases)
    .where(inArray(phases.moduleId, ids))
    .orderBy(asc(phases.weight), asc(phases.id));
  const categoryRows = await db
    .select({ id: categories.id, name: categories.name, moduleId: categories.moduleId })
    .from(categories)
    .where(inArray(categories.moduleId, ids))
    .orderBy(asc(categories.id));
  const labelRows = await db
    .select({ id: labels.id, name: labels.name, moduleId: labels.moduleId })
    .from(labels)
    .where(inArray(labels.moduleId, ids))
    .orderBy(asc(labels.id));
  const [phasesOf, categoriesOf, labelsOf] = [groupBy(phaseRows), groupBy(categoryRows), groupBy(labelRows)];
  const ref = ({ id, name }: NamedRef) => ({ id, name });
  return heads.map((m) => ({
    ...m,
    phases: phasesOf.get(m.id) ?? [],
    categories: (categoriesOf.get(m.id) ?? []).map(ref),
    labels: (labelsOf.get(m.id) ?? []).map(ref),
  }));
}

/** A module by id with its details; null when there is none. */
export async function loadModule(db: DbOrTx, moduleId: number): Promise<LoadedModule | null> {
  const heads = await db
    .select({ id: modules.id, projectId: modules.projectId, isDraft: modules.isDraft })
    .from(modules)
    .where(eq(modules.id, moduleId));
  const [module] = await loadModuleDetails(db, heads);
  return module ?? null;
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
