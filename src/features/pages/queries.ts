import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { countAll } from '../../db/client.js';
import { chapters, follows, ideas, modules, organisations, paragraphs, polls, projects, users } from '../../db/schema/index.js';
import { loadModuleDetails, type ModulePhase } from '../modules/queries.js';
import { contactColumns } from '../projects/queries.js';

/** An organisation by slug, or null. */
export async function loadOrganisation(db: DbOrTx, slug: string) {
  const [row] = await db
    .select({ id: organisations.id, slug: organisations.slug, name: organisations.name, title: organisations.title, description: organisations.description })
    .from(organisations)
    .where(eq(organisations.slug, slug));
  return row ?? null;
}

/** A project of an organisation by both slugs, with what its page shows; null when there is none. */
export async function loadProjectPage(db: DbOrTx, orgSlug: string, projectSlug: string) {
  const [row] = await db
    .select({
      id: projects.id,
      slug: projects.slug,
      name: projects.name,
      description: projects.description,
      information: projects.information,
      result: projects.result,
      access: projects.access,
      isArchived: projects.isArchived,
      ...contactColumns,
      organisationSlug: organisations.slug,
      organisationName: organisations.name,
    })
    .from(projects)
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(and(eq(organisations.slug, orgSlug), eq(projects.slug, projectSlug)));
  return row ?? null;
}

export type ProjectPageRow = NonNullable<Awaited<ReturnType<typeof loadProjectPage>>>;

const moduleHead = {
  id: modules.id,
  slug: modules.slug,
  name: modules.name,
  description: modules.description,
  blueprintType: modules.blueprintType,
  projectId: modules.projectId,
  isDraft: modules.isDraft,
};

export interface PageModule {
  id: number;
  slug: string;
  name: string;
  description: string | null;
  blueprintType: string;
  projectId: number;
  isDraft: boolean;
  phases: ModulePhase[];
}

async function withPhases(db: DbOrTx, heads: Omit<PageModule, 'phases'>[]): Promise<PageModule[]> {
  const details = new Map((await loadModuleDetails(db, heads)).map((m) => [m.id, m.phases]));
  return heads.map((head) => ({ ...head, phases: details.get(head.id) ?? [] }));
}

/** The published modules of a project (drafts too when asked) with their phases, in (weight, id) order. */
export async function loadProjectModules(db: DbOrTx, projectId: number, withDrafts: boolean): Promise<PageModule[]> {
  const heads = await db
    .select(moduleHead)
    .from(modules)
    .where(and(eq(modules.projectId, projectId), withDrafts ? undefined : eq(modules.isDraft, false)))
    .orderBy(asc(modules.weight), asc(modules.id));
  return withPhases(db, heads);
}

/** A module by its slug inside an organisation, with its phases and its project's slug; null when there is none. */
export async function loadModulePage(db: DbOrTx, orgSlug: string, moduleSlug: string) {
  const [head] = await db
    .select({ ...moduleHead, projectSlug: projects.slug, projectName: projects.name, organisationName: organisations.name })
    .from(modules)
    .innerJoin(projects, eq(projects.id, modules.projectId))
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(and(eq(organisations.slug, orgSlug), eq(modules.slug, moduleSlug)));
  if (!head) return null;
  const { projectSlug, projectName, organisationName, ...module } = head;
  const [loaded] = await withPhases(db, [module]);
  return { ...loaded, projectSlug, projectName, organisationName };
}

const ideaSummary = {
  id: ideas.id,
  moduleId: ideas.moduleId,
  name: ideas.name,
  created: ideas.created,
  creatorName: users.username,
};

export type IdeaSummary = { id: number; moduleId: number; name: string; created: Date; creatorName: string };

/** The newest `limit` ideas of each module, in one statement. */
export async function newestIdeas(db: DbOrTx, moduleIds: number[], limit: number): Promise<Map<number, IdeaSummary[]>> {
  const byModule = new Map<number, IdeaSummary[]>();
  if (!moduleIds.length) return byModule;
  const ranked = db
    .select({ id: ideas.id, rank: sql<number>`row_number() over (partition by ${ideas.moduleId} order by ${ideas.created} desc, ${ideas.id} desc)`.as('rank') })
    .from(ideas)
    .where(inArray(ideas.moduleId, moduleIds))
    .as('ranked');
  const rows = await db
    .select(ideaSummary)
    .from(ideas)
    .innerJoin(ranked, eq(ranked.id, ideas.id))
    .innerJoin(users, eq(users.id, ideas.creatorId))
    .where(sql`${ranked.rank} <= ${limit}`)
    .orderBy(desc(ideas.created), desc(ideas.id));
  for (const row of rows) byModule.set(row.moduleId, [...(byModule.get(row.moduleId) ?? []), row]);
  return byModule;
}

/** One page of a module's ideas, newest first, and their total number. */
export async function ideaPage(db: DbOrTx, moduleId: number, page: number, size: number): Promise<{ count: number; ideas: IdeaSummary[] }> {
  const [{ n: count }] = await db.select({ n: countAll }).from(ideas).where(eq(ideas.moduleId, moduleId));
  const rows = await db
    .select(ideaSummary)
    .from(ideas)
    .innerJoin(users, eq(users.id, ideas.creatorId))
    .where(eq(ideas.moduleId, moduleId))
    .orderBy(desc(ideas.created), desc(ideas.id))
    .limit(size)
    .offset((page - 1) * size);
  return { count, ideas: rows };
}

/** The polls, chapters and paragraphs of a module (the objects their comments are about), in three statements. */
export async function moduleItems(db: DbOrTx, moduleId: number) {
  const pollRows = await db.select({ id: polls.id }).from(polls).where(eq(polls.moduleId, moduleId)).orderBy(asc(polls.id));
  const chapterRows = await db.select({ id: chapters.id, name: chapters.name }).from(chapters).where(eq(chapters.moduleId, moduleId)).orderBy(asc(chapters.weight), asc(chapters.id));
  const paragraphRows = chapterRows.length
    ? await db
        .select({ id: paragraphs.id, chapterId: paragraphs.chapterId, name: paragraphs.name })
        .from(paragraphs)
        .where(inArray(paragraphs.chapterId, chapterRows.map((c) => c.id)))
        .orderBy(asc(paragraphs.weight), asc(paragraphs.id))
    : [];
  return { polls: pollRows, chapters: chapterRows.map((chapter) => ({ ...chapter, paragraphs: paragraphRows.filter((p) => p.chapterId === chapter.id) })) };
}

/** An idea by id inside an organisation, with its module and moderator feedback; null when there is none. */
export async function loadIdeaRef(db: DbOrTx, orgSlug: string, ideaId: number) {
  const [row] = await db
    .select({
      id: ideas.id,
      moduleId: ideas.moduleId,
      created: ideas.created,
      moderatorStatus: ideas.moderatorStatus,
      moderatorFeedbackText: ideas.moderatorFeedbackText,
      moduleSlug: modules.slug,
      moduleName: modules.name,
      moduleIsDraft: modules.isDraft,
      projectSlug: projects.slug,
      projectName: projects.name,
      organisationName: organisations.name,
    })
    .from(ideas)
    .innerJoin(modules, eq(modules.id, ideas.moduleId))
    .innerJoin(projects, eq(projects.id, modules.projectId))
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(and(eq(ideas.id, ideaId), eq(organisations.slug, orgSlug)));
  return row ?? null;
}

/** Whether the user follows the project (an enabled follow). */
export async function isFollowing(db: DbOrTx, userId: number, projectId: number): Promise<boolean> {
  const [row] = await db
    .select({ enabled: follows.enabled })
    .from(follows)
    .where(and(eq(follows.creatorId, userId), eq(follows.projectId, projectId)));
  return row?.enabled ?? false;
}
