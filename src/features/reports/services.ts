import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { comments, type ContentKind, projectModerators, reports } from '../../db/schema/index.js';
import type { Config } from '../../config.js';
import { takeRateLimited, type ThrottleContext } from '../../http/throttle.js';
import { type NoticeContext } from '../../mail/notices.js';
import { queueProjectNotice } from '../../core/projects/notices.js';
import { moderationTopic } from '../../core/projects/live-topics.js';
import { publishLive } from '../../http/live.js';
import { stripTags } from '../../text/html.js';
import { loadCommentPaths, loadObjectPaths } from '../comments/queries.js';

interface NewReport {
  creatorId: number;
  target: { type: ContentKind; id: number };
  projectId: number | null;
  description: string;
}

async function reportedPath(db: DbOrTx, target: { type: ContentKind; id: number }): Promise<string> {
  if (target.type !== 'comment') return (await loadObjectPaths(db, [target])).get(`${target.type}:${target.id}`) ?? '/';
  const [row] = await db.select({ contentType: comments.contentType, objectPk: comments.objectPk }).from(comments).where(eq(comments.id, target.id));
  return (row && (await loadCommentPaths(db, [{ id: target.id, ...row }])).get(target.id)) || '/';
}

/** The window of the per-user report limit (`REPORT_LIMIT` reports, default 10; issue 21, finding 9). */
const REPORT_WINDOW_SECONDS = 600;

/** Counts one report of the user against the limit (429 with Retry-After over it); every way to report asks it first. */
export const takeReportAllowance = (ctx: ThrottleContext & { config: Pick<Config, 'reportLimit'> }, userId: number) =>
  takeRateLimited(ctx, `report:${userId}`, ctx.config.reportLimit, REPORT_WINDOW_SECONDS);

/**
 * Stores a report. A reported comment goes back to "unread" in the moderation dashboard; the
 * project's moderators are told (given a notice context), in a digest (mail/notices.ts). One report
 * per user and object while it is open (issue 21, finding 9): a repeated one answers with the open
 * one and tells nobody; once that was handled, a new report is a new incident (issue 36.6).
 */
export async function createReport(db: Tx, input: NewReport, notice?: NoticeContext): Promise<{ id: number; created: Date }> {
  const [row] = await db
    .insert(reports)
    .values({ creatorId: input.creatorId, contentType: input.target.type, objectPk: input.target.id, description: input.description })
    .onConflictDoNothing()
    .returning({ id: reports.id, created: reports.created });
  if (!row) {
    const [first] = await db
      .select({ id: reports.id, created: reports.created })
      .from(reports)
      .where(and(eq(reports.creatorId, input.creatorId), eq(reports.contentType, input.target.type), eq(reports.objectPk, input.target.id), isNull(reports.handledAt)));
    if (!first) throw new Error('a report vanished while it was repeated');
    return first;
  }
  if (input.target.type === 'comment') {
    await db.update(comments).set({ isReviewed: false }).where(and(eq(comments.id, input.target.id), eq(comments.isReviewed, true)));
  }
  if (notice && input.projectId !== null) {
    const moderators = await db.select({ id: projectModerators.userId }).from(projectModerators).where(eq(projectModerators.projectId, input.projectId));
    await queueProjectNotice(db, input.projectId, {
      kind: 'report_to_moderators',
      recipientIds: moderators.map((m) => m.id),
      actorId: input.creatorId,
      vars: { text: stripTags(input.description), url: `${notice.origin}${await reportedPath(db, input.target)}` },
    });
    // The moderation queue shows the report as it arrives.
    await publishLive(db, moderationTopic(input.projectId), 'report', { type: input.target.type, id: input.target.id });
  }
  return row;
}

/**
 * Marks every open report on an idea or comment as handled (issue 22.4), by whom and when; the item
 * leaves the "Reported" filter and the back-office's list. Returns how many reports it closed.
 */
export async function markReportsHandled(tx: Tx, target: { type: ContentKind; id: number }, userId: number): Promise<number> {
  const closed = await tx
    .update(reports)
    .set({ handledAt: sql`now()`, handledById: userId })
    .where(and(eq(reports.contentType, target.type), eq(reports.objectPk, target.id), isNull(reports.handledAt)))
    .returning({ id: reports.id });
  return closed.length;
}
