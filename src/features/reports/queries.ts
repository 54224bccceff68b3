import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { comments, type ContentKind, ideas, modules, organisations, projects, reports, users } from '../../db/schema/index.js';
import { loadCommentPaths } from '../comments/queries.js';
import { ideaPath, moderationDetailPath } from '../../core/urls.js';

export interface ReportRow {
  objectPk: number;
  description: string;
  created: Date;
  username: string;
  /** Marked as handled by a moderator (issue 22.4). */
  handled: boolean;
}

/** A report nobody has marked as handled yet: only these count for "Reported" (issue 22.4). */
export const openReport = isNull(reports.handledAt);

/** The reports on some objects of one kind, oldest first, with their reporters' names, in one statement. */
export async function loadReportsOf(db: DbOrTx, kind: ContentKind, ids: number[]): Promise<Map<number, ReportRow[]>> {
  const byObject = new Map<number, ReportRow[]>();
  if (!ids.length) return byObject;
  const rows = await db
    .select({ objectPk: reports.objectPk, description: reports.description, created: reports.created, username: users.username, handled: sql<boolean>`${reports.handledAt} is not null` })
    .from(reports)
    .innerJoin(users, eq(users.id, reports.creatorId))
    .where(and(eq(reports.contentType, kind), inArray(reports.objectPk, ids)))
    .orderBy(asc(reports.created), asc(reports.id));
  for (const row of rows) byObject.set(row.objectPk, [...(byObject.get(row.objectPk) ?? []), row]);
  return byObject;
}

export interface ReportedItem {
  kind: ContentKind;
  id: number;
  reports: number;
  lastReported: Date;
  /** The idea's title or the comment's text ('' when the item is gone). */
  text: string;
  /** Where the item is shown, and where a moderator handles it. */
  path: string | null;
  moderatePath: string | null;
  project: { name: string; slug: string } | null;
  organisation: { name: string; slug: string } | null;
  reasons: ReportRow[];
}

/**
 * Reported items with open reports across all organisations (back-office, §D), the most recently
 * reported first, with their project, organisation and every reason; a constant number of statements per page.
 */
export async function listReportedItems(db: DbOrTx, page: { size: number; number: number }): Promise<{ count: number; items: ReportedItem[] }> {
  const [{ count }] = await db.select({ count: sql<number>`count(distinct (${reports.contentType}, ${reports.objectPk}))`.mapWith(Number) }).from(reports).where(openReport);
  const rows = await db
    .select({ kind: reports.contentType, id: reports.objectPk, reports: sql<number>`count(*)`.mapWith(Number), lastReported: sql<Date>`max(${reports.created})`.mapWith((v) => new Date(v)) })
    .from(reports)
    .where(openReport)
    .groupBy(reports.contentType, reports.objectPk)
    .orderBy(desc(sql`max(${reports.created})`), desc(reports.objectPk))
    .limit(page.size)
    .offset((page.number - 1) * page.size);
  const ideaIds = rows.filter((r) => r.kind === 'idea').map((r) => r.id);
  const commentIds = rows.filter((r) => r.kind === 'comment').map((r) => r.id);
  const place = { projectName: projects.name, projectSlug: projects.slug, orgName: organisations.name, orgSlug: organisations.slug };
  const ideaRows = ideaIds.length
    ? await db
        .select({ id: ideas.id, text: ideas.name, created: ideas.created, ...place })
        .from(ideas)
        .innerJoin(modules, eq(modules.id, ideas.moduleId))
        .innerJoin(projects, eq(projects.id, modules.projectId))
        .innerJoin(organisations, eq(organisations.id, projects.organisationId))
        .where(inArray(ideas.id, ideaIds))
    : [];
  const commentRows = commentIds.length
    ? await db
        .select({ id: comments.id, text: comments.comment, contentType: comments.contentType, objectPk: comments.objectPk, ...place })
        .from(comments)
        .leftJoin(projects, eq(projects.id, comments.projectId))
        .leftJoin(organisations, eq(organisations.id, projects.organisationId))
        .where(inArray(comments.id, commentIds))
    : [];
  const commentPaths = await loadCommentPaths(db, commentRows);
  const reasons = new Map([...(await loadReportsOf(db, 'idea', ideaIds))].map(([id, list]) => [`idea:${id}`, list]));
  for (const [id, list] of await loadReportsOf(db, 'comment', commentIds)) reasons.set(`comment:${id}`, list);
  const details = new Map<string, Pick<ReportedItem, 'text' | 'path' | 'moderatePath' | 'project' | 'organisation'>>();
  const placeOf = (r: { projectName: string | null; projectSlug: string | null; orgName: string | null; orgSlug: string | null }) => ({
    project: r.projectName && r.projectSlug ? { name: r.projectName, slug: r.projectSlug } : null,
    organisation: r.orgName && r.orgSlug ? { name: r.orgName, slug: r.orgSlug } : null,
  });
  for (const r of ideaRows) {
    const path = ideaPath(r.orgSlug, r.created, r.id);
    details.set(`idea:${r.id}`, { text: r.text, path, moderatePath: `${path}moderate/`, ...placeOf(r) });
  }
  for (const r of commentRows) {
    details.set(`comment:${r.id}`, { text: r.text, path: commentPaths.get(r.id) ?? null, moderatePath: r.projectSlug ? moderationDetailPath(r.projectSlug) : null, ...placeOf(r) });
  }
  const gone = { text: '', path: null, moderatePath: null, project: null, organisation: null };
  return {
    count,
    items: rows.map((r) => ({ ...r, ...(details.get(`${r.kind}:${r.id}`) ?? gone), reasons: reasons.get(`${r.kind}:${r.id}`) ?? [] })),
  };
}

export interface ReportedIdea {
  id: number;
  name: string;
  path: string;
  reports: ReportRow[];
}

/** The project's ideas with open reports (the moderation queue, issue 22.4), most reported first, with every report: two statements. */
export async function loadReportedIdeas(db: DbOrTx, projectId: number): Promise<ReportedIdea[]> {
  const open = sql<number>`count(*)`.mapWith(Number);
  const rows = await db
    .select({ id: ideas.id, name: ideas.name, created: ideas.created, orgSlug: organisations.slug, open })
    .from(reports)
    .innerJoin(ideas, and(eq(reports.contentType, 'idea'), eq(ideas.id, reports.objectPk)))
    .innerJoin(modules, eq(modules.id, ideas.moduleId))
    .innerJoin(projects, eq(projects.id, modules.projectId))
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(and(eq(projects.id, projectId), openReport))
    .groupBy(ideas.id, ideas.name, ideas.created, organisations.slug)
    .orderBy(desc(open), desc(ideas.id))
    .limit(200);
  const all = await loadReportsOf(db, 'idea', rows.map((r) => r.id));
  return rows.map((r) => ({ id: r.id, name: r.name, path: ideaPath(r.orgSlug, r.created, r.id), reports: all.get(r.id) ?? [] }));
}
