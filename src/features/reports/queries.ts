import { and, asc, desc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { comments, type ContentKind, modules, organisations, projects, reports, users } from '../../db/schema/index.js';
import { loadCommentPaths } from '../comments/queries.js';
import { moderationDetailPath } from '../../core/urls.js';
import { type ContentTypeOfModule, reportableContentTypes, type Text } from '../../core/modules/registry.js';

export interface ReportRow {
  objectPk: number;
  description: string;
  created: Date;
  username: string;
  /** Marked as handled by a moderator (issue 22.4). */
  handled: boolean;
}

/** A report nobody has marked as handled yet: only these count for "Reported" (issue 22.4). */
const openReport = isNull(reports.handledAt);

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
  /** What the item is ('reported map idea', the kind's `reportedNames`); null for comments. */
  label: Text | null;
  /** The item's name (an idea's title, …) or the comment's text ('' when the item is gone). */
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
  const commentIds = rows.filter((r) => r.kind === 'comment').map((r) => r.id);
  const place = { projectName: projects.name, projectSlug: projects.slug, orgName: organisations.name, orgSlug: organisations.slug };
  const commentRows = commentIds.length
    ? await db
        .select({ id: comments.id, text: comments.comment, contentType: comments.contentType, objectPk: comments.objectPk, ...place })
        .from(comments)
        .leftJoin(projects, eq(projects.id, comments.projectId))
        .leftJoin(organisations, eq(organisations.id, projects.organisationId))
        .where(inArray(comments.id, commentIds))
    : [];
  const commentPaths = await loadCommentPaths(db, commentRows);
  const reasons = rows.length ? await loadReportsOfObjects(db, rows) : new Map<string, ReportRow[]>();
  const details = new Map<string, Pick<ReportedItem, 'label' | 'text' | 'path' | 'moderatePath' | 'project' | 'organisation'>>();
  const placeOf = (r: { projectName: string | null; projectSlug: string | null; orgName: string | null; orgSlug: string | null }) => ({
    project: r.projectName && r.projectSlug ? { name: r.projectName, slug: r.projectSlug } : null,
    organisation: r.orgName && r.orgSlug ? { name: r.orgName, slug: r.orgSlug } : null,
  });
  // The reported objects of the module types: their pages and names (`pages`) and their projects (`inModules`), two statements per kind present.
  for (const kind of reportableContentTypes()) {
    const ids = rows.filter((r) => r.kind === kind.kind).map((r) => r.id);
    if (!ids.length || !kind.inModules) continue;
    const pages = (await kind.pages?.(db, ids)) ?? new Map<number, { path: string; name: string; moderatePath?: string }>();
    const objects = kind.inModules(sql`select ${modules.id} from ${modules}`);
    const places = await db
      .select({ id: sql<number>`o.id`.mapWith(Number), ...place })
      .from(sql`(${objects}) as o(id, module_id)`)
      .innerJoin(modules, sql`${modules.id} = o.module_id`)
      .innerJoin(projects, eq(projects.id, modules.projectId))
      .innerJoin(organisations, eq(organisations.id, projects.organisationId))
      .where(sql`o.id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
    for (const r of places) {
      const page = pages.get(r.id);
      details.set(`${kind.kind}:${r.id}`, { label: kind.reportedNames?.one ?? null, text: page?.name ?? '', path: page?.path ?? null, moderatePath: page?.moderatePath ?? null, ...placeOf(r) });
    }
  }
  for (const r of commentRows) {
    details.set(`comment:${r.id}`, { label: null, text: r.text, path: commentPaths.get(r.id) ?? null, moderatePath: r.projectSlug ? moderationDetailPath(r.projectSlug) : null, ...placeOf(r) });
  }
  const gone = { label: null, text: '', path: null, moderatePath: null, project: null, organisation: null };
  return {
    count,
    items: rows.map((r) => ({ ...r, ...(details.get(`${r.kind}:${r.id}`) ?? gone), reasons: reasons.get(`${r.kind}:${r.id}`) ?? [] })),
  };
}

/** Open reports on objects of a kind in a project's modules (the project as SQL: a value, or a column of an outer statement). */
export function openReportsInProject(kind: ContentTypeOfModule, project: SQL | number): SQL | undefined {
  if (!kind.inModules) return undefined;
  const objects = kind.inModules(sql`select ${modules.id} from ${modules} where ${modules.projectId} = ${project}`);
  return and(openReport, eq(reports.contentType, kind.kind), sql`${reports.objectPk} in (select o.id from (${objects}) as o(id, module_id))`);
}

export interface ReportedObject {
  kind: ContentKind;
  id: number;
  name: string;
  path: string | null;
  moderatePath: string | null;
  reports: ReportRow[];
}

/**
 * The project's reported objects of every reportable kind (comments aside) with open reports (the
 * moderation queue, issue 22.4), most reported first, with every report: two statements, and one
 * per kind present for the pages and names.
 */
export async function loadReportedObjects(db: DbOrTx, projectId: number): Promise<ReportedObject[]> {
  const kinds = reportableContentTypes();
  const conditions = kinds.map((kind) => openReportsInProject(kind, projectId)).filter((c) => c !== undefined);
  if (!conditions.length) return [];
  const open = sql<number>`count(*)`.mapWith(Number);
  const rows = await db
    .select({ kind: reports.contentType, id: reports.objectPk, open })
    .from(reports)
    .where(or(...conditions))
    .groupBy(reports.contentType, reports.objectPk)
    .orderBy(desc(open), desc(sql`max(${reports.created})`), desc(reports.objectPk))
    .limit(200);
  if (!rows.length) return [];
  const reasons = await loadReportsOfObjects(db, rows);
  const pages = new Map<string, { path: string; name: string; moderatePath?: string }>();
  for (const kind of kinds) {
    const ids = rows.filter((r) => r.kind === kind.kind).map((r) => r.id);
    if (ids.length && kind.pages) for (const [id, page] of await kind.pages(db, ids)) pages.set(`${kind.kind}:${id}`, page);
  }
  return rows.map((r) => {
    const page = pages.get(`${r.kind}:${r.id}`);
    return { kind: r.kind, id: r.id, name: page?.name ?? '', path: page?.path ?? null, moderatePath: page?.moderatePath ?? null, reports: reasons.get(`${r.kind}:${r.id}`) ?? [] };
  });
}

/** The reports on objects of several kinds, oldest first, keyed `kind:id`, in one statement. */
async function loadReportsOfObjects(db: DbOrTx, objects: { kind: ContentKind; id: number }[]): Promise<Map<string, ReportRow[]>> {
  const byKind = new Map<ContentKind, number[]>();
  for (const o of objects) byKind.set(o.kind, [...(byKind.get(o.kind) ?? []), o.id]);
  const rows = await db
    .select({ kind: reports.contentType, objectPk: reports.objectPk, description: reports.description, created: reports.created, username: users.username, handled: sql<boolean>`${reports.handledAt} is not null` })
    .from(reports)
    .innerJoin(users, eq(users.id, reports.creatorId))
    .where(or(...[...byKind].map(([kind, ids]) => and(eq(reports.contentType, kind), inArray(reports.objectPk, ids)))))
    .orderBy(asc(reports.created), asc(reports.id));
  const byObject = new Map<string, ReportRow[]>();
  for (const { kind, ...row } of rows) byObject.set(`${kind}:${row.objectPk}`, [...(byObject.get(`${kind}:${row.objectPk}`) ?? []), row]);
  return byObject;
}
