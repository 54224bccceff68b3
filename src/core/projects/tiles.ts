import { and, desc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { administrativeDistricts, follows, modules, organisationMembers, organisations, phases, projectParticipants, projects } from '../../db/schema/index.js';

/*
 * The project tiles' reads: what a tile shows, for the start page, an organisation's page and the
 * user dashboard (followed projects, projects one takes part in). The tile itself is web/project-tile.tsx.
 */

/**
 * Start and end of each project's published modules' phases (decision D6), and the end of the
 * active phase that ends next (core/modules/timeline `activePhaseEnd`, issue 37 item 8), as a subquery.
 */
function projectDates(db: DbOrTx, now: Date) {
  return db
    .select({
      projectId: modules.projectId,
      start: sql<Date | null>`min(${phases.startDate})`.as('start'),
      end: sql<Date | null>`max(${phases.endDate})`.as('end'),
      activeEnd: sql<Date | null>`min(${phases.endDate}) filter (where ${phases.startDate} <= ${now} and ${phases.endDate} > ${now})`.as('active_end'),
    })
    .from(modules)
    .innerJoin(phases, eq(phases.moduleId, modules.id))
    .where(eq(modules.isDraft, false))
    .groupBy(modules.projectId)
    .as('dates');
}

/** What a project tile shows, for the projects that match `condition` (and the follows joined in `from`), newest first. */
async function projectTiles(db: DbOrTx, condition: SQL | undefined, followerId?: number) {
  const dates = projectDates(db, new Date());
  const base = db
    .select({
      id: projects.id,
      name: projects.name,
      slug: projects.slug,
      description: projects.description,
      access: projects.access,
      topics: projects.topics,
      administrativeDistrictId: projects.administrativeDistrictId,
      districtName: administrativeDistricts.name,
      tileImage: projects.tileImage,
      tileImageAltText: projects.tileImageAltText,
      isDraft: projects.isDraft,
      organisationId: organisations.id,
      organisationName: organisations.name,
      organisationSlug: organisations.slug,
      start: dates.start,
      end: dates.end,
      activeEnd: dates.activeEnd,
    })
    .from(projects)
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .leftJoin(administrativeDistricts, eq(administrativeDistricts.id, projects.administrativeDistrictId))
    .leftJoin(dates, eq(dates.projectId, projects.id));
  const query =
    followerId === undefined
      ? base.where(condition)
      : base.innerJoin(follows, and(eq(follows.projectId, projects.id), eq(follows.creatorId, followerId), eq(follows.enabled, true))).where(condition);
  const rows = await query.orderBy(desc(projects.created), desc(projects.id));
  // Aggregates in a subquery come back as text on some drivers.
  return rows.map((row) => ({ ...row, start: toDate(row.start), end: toDate(row.end), activeEnd: toDate(row.activeEnd) }));
}

/** The projects the user follows (enabled follows, drafts included, newest first) with their dates. */
export async function followedProjects(db: DbOrTx, userId: number) {
  return projectTiles(db, undefined, userId);
}

/** Live (non-draft), non-archived projects as tiles: all of them, or one organisation's, or only those listed for everybody (public and semi-public). */
export async function listedProjects(db: DbOrTx, where: { organisationId?: number; listedForAll?: boolean }) {
  return projectTiles(
    db,
    and(
      eq(projects.isDraft, false),
      eq(projects.isArchived, false),
      where.organisationId === undefined ? undefined : eq(projects.organisationId, where.organisationId),
      where.listedForAll ? inArray(projects.access, ['PUBLIC', 'SEMIPUBLIC']) : undefined,
    ),
  );
}

/**
 * The live, non-archived projects that are not public in which the user takes part: as a
 * participant (invited or added) or as a member of their organisation. The user dashboard lists
 * them, so that nobody has to keep the invitation e-mail to find a private project again.
 */
export async function participatedProjects(db: DbOrTx, userId: number) {
  return projectTiles(
    db,
    and(
      eq(projects.isDraft, false),
      eq(projects.isArchived, false),
      ne(projects.access, 'PUBLIC'),
      sql`(exists (select 1 from ${projectParticipants} pp where pp.project_id = ${projects.id} and pp.user_id = ${userId})
        or exists (select 1 from ${organisationMembers} om where om.organisation_id = ${projects.organisationId} and om.user_id = ${userId}))`,
    ),
  );
}

/** A project as its tile shows it. */
export type TiledProject = Awaited<ReturnType<typeof followedProjects>>[number];

const toDate = (value: Date | string | null): Date | null => (value === null ? null : value instanceof Date ? value : new Date(value));
