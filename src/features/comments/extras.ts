import type { DbOrTx } from '../../db/client.js';
import { type CommentRow, loadFeedbackOf, loadModeratorIds, loadRatingSummaries } from './queries.js';
import { type CommentContext, commentUserInfo } from './rules.js';
import type { CommentExtras } from './serialize.js';

/** What the serializer needs beside the rows; with the thread's context also what the caller may do with each comment. */
export async function extrasFor(
  db: DbOrTx,
  rows: CommentRow[],
  replies: Map<number, CommentRow[]>,
  projectId: number,
  userId: number | null,
  context?: CommentContext,
): Promise<CommentExtras> {
  const all = [...rows, ...[...replies.values()].flat()];
  const ids = all.map((r) => r.id);
  return {
    replies,
    userInfo: new Map(context ? all.map((row) => [row.id, commentUserInfo(context, row)]) : []),
    ratings: await loadRatingSummaries(db, 'comment', ids, userId),
    feedback: await loadFeedbackOf(db, ids),
    moderatorIds: await loadModeratorIds(db, projectId),
  };
}
