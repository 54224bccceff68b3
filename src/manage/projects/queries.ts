import { and, asc, count, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import { moduleTypeOf } from '../../core/modules/registry.js';
import type { DbOrTx } from '../../db/client.js';
import { contactColumns, locationColumns, projectTextColumns } from '../../core/projects/queries.js';
import { loadModuleAliases } from '../../core/modules/queries.js';
import { categories, type InviteRole, labels, modules, organisations, phases, projectInvites, projectModerators, projectParticipants, projects, users } from '../../db/schema/index.js';

export type ArchivedFilter = 'all' | 'no' | 'yes';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** §B4: an organisation's projects (drafts included), newest first, with free-text search and the archived filter. */
export async function dashboardProjects(db: DbOrTx, organisationId: number, filter: { search: string; archived: ArchivedFilter; page: number; size: number }) {
  const pattern = `%${escapeLike(filter.search)}%`;
  const where = and(
    eq(projects.organisationId, organisationId),
    filter.search ? or(ilike(projects.name, pattern), ilike(projects.description, pattern)) : undefined,
    filter.archived === 'all' ? undefined : eq(projects.isArchived, filter.archived === 'yes'),
  );
  const [total] = await db.select({ n: count() }).from(projects).where(where);
  const rows = await db
    .select({
      id: projects.id,
      slug: projects.slug,
      name: projects.name,
      description: projects.description,
      access: projects.access,
      isDraft: projects.isDraft,
      isArchived: projects.isArchived,
      tileImage: projects.tileImage,
      created: projects.created,
    })
    .from(projects)
    .where(where)
    .orderBy(desc(projects.created), desc(projects.id))
    .limit(filter.size)
    .offset((filter.page - 1) * filter.size);
  return { projects: rows, count: total?.n ?? 0 };
}

const projectColumns = {
  ...projectTextColumns,
  organisationId: projects.organisationId,
  isDraft: projects.isDraft,
  isArchived: projects.isArchived,
  showInsights: projects.showInsights,
  allowGuests: projects.allowGuests,
  image: projects.image,
  imageAltText: projects.imageAltText,
  imageCopyright: projects.imageCopyright,
  tileImage: projects.tileImage,
  tileImageAltText: projects.tileImageAltText,
  tileImageCopyright: projects.tileImageCopyright,
  topics: projects.topics,
  administrativeDistrictId: projects.administrativeDistrictId,
  ...locationColumns,
  ...contactColumns,
  organisationSlug: organisations.slug,
  organisationName: organisations.name,
  organisationLanguage: organisations.language,
};

export type DashboardProject = Awaited<ReturnType<typeof loadDashboardProject>> & {};

/** A project of an organisation, by the organisation's and the project's slug (another organisation's project is not found). */
export async function loadDashboardProject(db: DbOrTx, where: { orgSlug: string; slug: string } | { id: number }) {
  const condition: SQL | undefined = 'id' in where ? eq(projects.id, where.id) : and(eq(organisations.slug, where.orgSlug), eq(projects.slug, where.slug));
  const [row] = await db.select(projectColumns).from(projects).innerJoin(organisations, eq(organisations.id, projects.organisationId)).where(condition);
  return row ?? null;
}

export interface DashboardModule {
  id: number;
  slug: string;
  name: string;
  description: string | null;
  weight: number;
  blueprintType: string;
  isDraft: boolean;
  projectId: number;
  phases: { id: number; type: string; name: string; description: string; startDate: Date | null; endDate: Date | null; weight: number }[];
  /** What its type's publish checks read (`facts` of the registry), where the type has any. */
  facts?: Record<string, unknown>;
}

/** Modules (drafts included) with their phases, in (weight, id) order; by project or by module ids. */
export async function loadModules(db: DbOrTx, where: { projectId: number } | { moduleIds: number[] }): Promise<DashboardModule[]> {
  const condition = 'projectId' in where ? eq(modules.projectId, where.projectId) : inArray(modules.id, where.moduleIds.length ? where.moduleIds : [0]);
  const rows = await db
    .select({
      id: modules.id,
      slug: modules.slug,
      name: modules.name,
      description: modules.description,
      weight: modules.weight,
      blueprintType: modules.blueprintType,
      isDraft: modules.isDraft,
      projectId: modules.projectId,
      phase: { id: phases.id, type: phases.type, name: phases.name, description: phases.description, startDate: phases.startDate, endDate: phases.endDate, weight: phases.weight },
    })
    .from(modules)
    .leftJoin(phases, eq(phases.moduleId, modules.id))
    .where(condition)
    .orderBy(asc(modules.weight), asc(modules.id), asc(phases.weight), asc(phases.id));
  const byId = new Map<number, DashboardModule>();
  for (const { phase, ...module } of rows) {
    const entry = byId.get(module.id) ?? { ...module, phases: [] };
    byId.set(module.id, entry);
    if (phase) entry.phases.push(phase);
  }
  return withFacts(db, [...byId.values()]);
}

/** Each module with the facts its type's publish checks read (one statement per type that has any). */
async function withFacts(db: DbOrTx, list: DashboardModule[]): Promise<DashboardModule[]> {
  for (const blueprintType of new Set(list.map((m) => m.blueprintType))) {
    const load = moduleTypeOf(blueprintType)?.facts;
    if (!load) continue;
    const ofType = list.filter((m) => m.blueprintType === blueprintType);
    const facts = await load(db, ofType.map((m) => m.id));
    for (const module of ofType) module.facts = facts.get(module.id) ?? {};
  }
  return list;
}

/** A module by slug within an organisation: its id and project id; null when the slug is another organisation's. */
export async function findModule(db: DbOrTx, orgSlug: string, moduleSlug: string) {
  const [row] = await db
    .select({ id: modules.id, projectId: modules.projectId })
    .from(modules)
    .innerJoin(projects, eq(projects.id, modules.projectId))
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(and(eq(organisations.slug, orgSlug), eq(modules.slug, moduleSlug)));
  return row ?? null;
}

/** A module's categories and labels, and its own words for each (core/modules/terms.ts). */
export async function moduleTerms(db: DbOrTx, moduleId: number) {
  const [cats, labs, aliases] = await Promise.all([
    db.select({ id: categories.id, name: categories.name }).from(categories).where(eq(categories.moduleId, moduleId)).orderBy(asc(categories.id)),
    db.select({ id: labels.id, name: labels.name }).from(labels).where(eq(labels.moduleId, moduleId)).orderBy(asc(labels.id)),
    loadModuleAliases(db, moduleId),
  ]);
  return { categories: cats, labels: labs, aliases };
}

export const ROLE_TABLES = { moderator: projectModerators, participant: projectParticipants } as const;

/** The members of a role in a project and its pending invitations (§B14). */
export async function projectMembers(db: DbOrTx, projectId: number, role: InviteRole) {
  const table = ROLE_TABLES[role];
  const members = await db
    .select({ id: users.id, username: users.username, email: users.email })
    .from(table)
    .innerJoin(users, eq(users.id, table.userId))
    .where(eq(table.projectId, projectId))
    .orderBy(asc(users.username));
  const invites = await db
    .select({ id: projectInvites.id, email: projectInvites.email, created: projectInvites.created })
    .from(projectInvites)
    .where(and(eq(projectInvites.projectId, projectId), eq(projectInvites.role, role)))
    .orderBy(asc(projectInvites.id));
  return { members, invites };
}

/** Users by e-mail address (case-insensitive). */
export async function usersByEmail(db: DbOrTx, emails: string[]) {
  if (!emails.length) return [];
  return db
    .select({ id: users.id, email: users.email, username: users.username, language: users.language })
    .from(users)
    .where(and(inArray(sql`lower(${users.email})`, emails.map((e) => e.toLowerCase())), eq(users.emailVerified, true)));
}
