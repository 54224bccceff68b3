import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  modules,
  organisationInitiators,
  organisationMembers,
  organisations,
  phases,
  projectModerators,
  projectParticipants,
  projects,
} from '../../db/schema/index.js';
import type { ProjectContext } from './rules.js';

type ContextUser = { id: number; isSuperuser: boolean } | null;
export type LoadedProjectContext = ProjectContext & { projectId: number; organisationId: number };

/** The columns that make a ProjectContext: the project's state and the user's roles in it. */
function contextColumns(uid: number) {
  return {
    projectId: projects.id,
    organisationId: projects.organisationId,
    access: projects.access,
    isDraft: projects.isDraft,
    isArchived: projects.isArchived,
    moderator: sql<boolean>`exists (select 1 from ${projectModerators} where ${projectModerators.projectId} = ${projects.id} and ${projectModerators.userId} = ${uid})`,
    participant: sql<boolean>`exists (select 1 from ${projectParticipants} where ${projectParticipants.projectId} = ${projects.id} and ${projectParticipants.userId} = ${uid})`,
    initiator: sql<boolean>`exists (select 1 from ${organisationInitiators} where ${organisationInitiators.organisationId} = ${projects.organisationId} and ${organisationInitiators.userId} = ${uid})`,
    orgMember: sql<boolean>`exists (select 1 from ${organisationMembers} where ${organisationMembers.organisationId} = ${projects.organisationId} and ${organisationMembers.userId} = ${uid})`,
  };
}

interface ContextRow {
  projectId: number;
  organisationId: number;
  access: ProjectContext['access'];
  isDraft: boolean;
  isArchived: boolean;
  moderator: boolean;
  participant: boolean;
  initiator: boolean;
  orgMember: boolean;
}

function toContext(row: ContextRow, user: ContextUser): LoadedProjectContext {
  return {
    projectId: row.projectId,
    organisationId: row.organisationId,
    access: row.access,
    isDraft: row.isDraft,
    isArchived: row.isArchived,
    user,
    roles: { moderator: row.moderator, participant: row.participant, initiator: row.initiator, orgMember: row.orgMember },
  };
}

/** Loads a project and the user's roles in it in one statement; null when the project does not exist. */
export async function loadProjectContext(db: DbOrTx, projectId: number, user: ContextUser): Promise<LoadedProjectContext | null> {
  const [row] = await db
    .select(contextColumns(user?.id ?? 0))
    .from(projects)
    .where(and(eq(projects.id, projectId)));
  return row ? toContext(row, user) : null;
}

/** The same for many projects in one statement, by project id. */
export async function loadProjectContexts(db: DbOrTx, projectIds: number[], user: ContextUser): Promise<Map<number, LoadedProjectContext>> {
  if (!projectIds.length) return new Map();
  const rows = await db
    .select(contextColumns(user?.id ?? 0))
    .from(projects)
    .where(inArray(projects.id, [...new Set(projectIds)]));
  return new Map(rows.map((row) => [row.projectId, toContext(row, user)]));
}

/** A project of the app list with what its serializer shows. */
export interface AppProjectRow {
  id: number;
  slug: string;
  name: string;
  description: string;
  information: string;
  result: string;
  access: 'PUBLIC' | 'SEMIPUBLIC' | 'PRIVATE';
  image: string | null;
  pointLat: number | null;
  pointLng: number | null;
  streetName: string | null;
  houseNumber: string | null;
  zipCode: string | null;
  contactName: string;
  contactAddressText: string;
  contactEmail: string;
  contactPhone: string;
  contactUrl: string;
  organisationSlug: string;
  organisationName: string;
  organisationTitle: string;
  organisationLogo: string | null;
}

/** A published module of a listed project with its phases' dates. */
export interface AppProjectModule {
  id: number;
  projectId: number;
  blueprintType: string;
  phases: { startDate: Date | null; endDate: Date | null }[];
}

/** A project's contact fields, as every project query selects them. */
export const contactColumns = {
  contactName: projects.contactName,
  contactAddressText: projects.contactAddressText,
  contactEmail: projects.contactEmail,
  contactPhone: projects.contactPhone,
  contactUrl: projects.contactUrl,
};

/**
 * Decision D1: public or semi-public, not draft, not archived, organisation with geolocation, and
 * at least one phase of a published module that ends after now. Each project once, newest first.
 */
export async function loadAppProjects(
  db: DbOrTx,
  now: Date,
  slug?: string,
): Promise<{ projects: AppProjectRow[]; modules: Map<number, AppProjectModule[]> }> {
  const runningOrFuture = sql`exists (select 1 from ${modules} inner join ${phases} on ${phases.moduleId} = ${modules.id}
    where ${modules.projectId} = ${projects.id} and not ${modules.isDraft} and ${phases.endDate} > ${now.toISOString()}::timestamptz)`;
  const rows = await db
    .select({
      id: projects.id,
      slug: projects.slug,
      name: projects.name,
      description: projects.description,
      information: projects.information,
      result: projects.result,
      access: projects.access,
      image: projects.image,
      pointLat: projects.pointLat,
      pointLng: projects.pointLng,
      streetName: projects.streetName,
      houseNumber: projects.houseNumber,
      zipCode: projects.zipCode,
      ...contactColumns,
      organisationSlug: organisations.slug,
      organisationName: organisations.name,
      organisationTitle: organisations.title,
      organisationLogo: organisations.logo,
    })
    .from(projects)
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(
      and(
        inArray(projects.access, ['PUBLIC', 'SEMIPUBLIC']),
        eq(projects.isDraft, false),
        eq(projects.isArchived, false),
        eq(organisations.enableGeolocation, true),
        runningOrFuture,
        slug === undefined ? undefined : eq(projects.slug, slug),
      ),
    )
    .orderBy(desc(projects.created), desc(projects.id));
  const byProject = new Map<number, AppProjectModule[]>();
  for (const module of await loadPublishedModules(db, rows.map((p) => p.id))) {
    byProject.set(module.projectId, [...(byProject.get(module.projectId) ?? []), module]);
  }
  return { projects: rows, modules: byProject };
}

/** The published modules of some projects with their phases, in (weight, id) order, in one statement. */
async function loadPublishedModules(db: DbOrTx, projectIds: number[]): Promise<AppProjectModule[]> {
  if (!projectIds.length) return [];
  const rows = await db
    .select({
      id: modules.id,
      projectId: modules.projectId,
      blueprintType: modules.blueprintType,
      startDate: phases.startDate,
      endDate: phases.endDate,
      hasPhase: sql<boolean>`${phases.id} is not null`,
    })
    .from(modules)
    .leftJoin(phases, eq(phases.moduleId, modules.id))
    .where(and(inArray(modules.projectId, projectIds), eq(modules.isDraft, false)))
    .orderBy(asc(modules.weight), asc(modules.id), asc(phases.weight), asc(phases.id));
  const byId = new Map<number, AppProjectModule>();
  for (const row of rows) {
    let module = byId.get(row.id);
    if (!module) {
      module = { id: row.id, projectId: row.projectId, blueprintType: row.blueprintType, phases: [] };
      byId.set(row.id, module);
    }
    if (row.hasPhase) module.phases.push({ startDate: row.startDate, endDate: row.endDate });
  }
  return [...byId.values()];
}
