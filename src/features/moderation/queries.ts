import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { countAll } from '../../db/client.js';
import { comments, reports, users } from '../../db/schema/index.js';
import { type CommentRow, commentColumns, type FeedbackRow, inProject, loadCommentPaths, loadFeedbackOf } from '../comments/queries.js';

/** A comment of the moderation queue: its row, its open reports' count, where it is discussed and the moderation's feedback. */
export type ModerationRow = CommentRow & { numReports: number; path: string; feedback: FeedbackRow | null };

export type Tristate = boolean | null;
export type ModerationOrdering = 'created' | '-created' | 'num_reports' | '-num_reports';

export interface ModerationFilter {
  isReviewed: Tristate;
  hasReports: Tristate;
  isBlocked?: Tristate;
}

/** Open reports only: a report a moderator marked as handled no longer counts (issue 22.4). */
const numReports = sql<number>`(select count(*) from ${reports} r where r.content_type = 'comment' and r.object_pk = ${comments.id} and r.handled_at is null)`.mapWith(Number);

function where(projectId: number, filter: ModerationFilter): SQL | undefined {
  return and(
    inProject(projectId),
    filter.isReviewed === null ? undefined : eq(comments.isReviewed, filter.isReviewed),
    filter.hasReports === null ? undefined : filter.hasReports ? sql`${numReports} > 0` : sql`${numReports} = 0`,
    filter.isBlocked === null || filter.isBlocked === undefined ? undefined : eq(comments.isBlocked, filter.isBlocked),
  );
}

function orderBy(ordering: ModerationOrdering): SQL[] {
  const primary = {
    created: asc(comments.created),
    '-created': desc(comments.created),
    num_reports: asc(numReports),
    '-num_reports': desc(numReports),
  }[ordering];
  // -created always breaks ties (then id, so that pages are stable).
  return [primary, desc(comments.created), desc(comments.id)];
}

/** Adds each comment's page path and feedback: two or three more statements for the whole list. */
async function complete(db: DbOrTx, rows: (Omit<ModerationRow, 'path' | 'feedback'>)[]): Promise<ModerationRow[]> {
  const paths = await loadCommentPaths(db, rows);
  const feedback = await loadFeedbackOf(db, rows.map((r) => r.id));
  return rows.map((row) => ({ ...row, path: paths.get(row.id) ?? '', feedback: feedback.get(row.id) ?? null }));
}

/**
 * The project's comments (replies included) with their number of reports, filtered and ordered; one
 * page if asked. A page is one statement: the number of all listed comments comes beside each row
 * (an uncorrelated subquery, counted once); only a page beyond the end counts on its own.
 */
export async function loadModerationComments(
  db: DbOrTx,
  projectId: number,
  filter: ModerationFilter,
  ordering: ModerationOrdering,
  page: { size: number; number: number } | null,
): Promise<{ count: number; rows: ModerationRow[] }> {
  const condition = where(projectId, filter);
  const total = sql<number>`(select count(*) from ${comments} where ${condition})`.mapWith(Number);
  const query = db
    .select({ ...commentColumns, numReports, total })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.creatorId))
    .where(condition)
    .orderBy(...orderBy(ordering));
  const listed = page ? await query.limit(page.size).offset((page.number - 1) * page.size) : await query;
  const rows = listed.map(({ total: _, ...row }) => row);
  const count = !page ? rows.length : listed.length ? listed[0].total : await countModerationComments(db, projectId, filter);
  return { count, rows: await complete(db, rows) };
}

/** How many of the project's comments the filter lists (one statement). */
export async function countModerationComments(db: DbOrTx, projectId: number, filter: ModerationFilter): Promise<number> {
  return (await db.select({ n: countAll }).from(comments).where(where(projectId, filter)))[0].n;
}

/** One comment of the project (any review state: decision D3), or null. */
export async function loadModerationComment(db: DbOrTx, projectId: number, commentId: number): Promise<ModerationRow | null> {
  const rows = await db
    .select({ ...commentColumns, numReports })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.creatorId))
    .where(and(eq(comments.id, commentId), inProject(projectId)));
  return rows.length ? (await complete(db, rows))[0] : null;
}
