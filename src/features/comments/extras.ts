import type { DbOrTx } from '../../db/client.js';
import { type CommentRow, type FeedbackRow, loadFeedbackOf, loadModeratorIds, loadRatingSummaries, type RatingSummary, type ThreadFacts } from './queries.js';
import { type CommentContext, type CommentUserInfo, commentUserInfo } from './rules.js';

/** What a comment's API answer and its thread view read beside its row: its ratings, feedback, replies, whether its author moderates, and (for the API) what the caller may do with it. */
export interface CommentExtras {
  ratings: Map<number, RatingSummary>;
  feedback: Map<number, FeedbackRow>;
  moderatorIds: Set<number>;
  replies: Map<number, CommentRow[]>;
  /** What the caller may do with each comment, by comment id (answered by the comment rules). */
  userInfo: Map<number, CommentUserInfo>;
}

/** What the serializer and the thread view need beside the rows, from facts loaded already; with the thread's context also what the caller may do with each comment. No statements. */
export function extrasOf(rows: CommentRow[], replies: Map<number, CommentRow[]>, facts: ThreadFacts, context?: CommentContext): CommentExtras {
  const all = [...rows, ...[...replies.values()].flat()];
  const { ratings, feedback, moderatorIds } = facts;
  return { replies, userInfo: new Map(context ? all.map((row) => [row.id, commentUserInfo(context, row)]) : []), ratings, feedback, moderatorIds };
}

/** The same, loading the facts (ratings, feedback, moderators) of the rows. */
export async function extrasFor(
  db: DbOrTx,
  rows: CommentRow[],
  replies: Map<number, CommentRow[]>,
  projectId: number,
  userId: number | null,
  context?: CommentContext,
): Promise<CommentExtras> {
  const ids = [...rows, ...[...replies.values()].flat()].map((r) => r.id);
  const facts = { ratings: await loadRatingSummaries(db, 'comment', ids, userId), feedback: await loadFeedbackOf(db, ids), moderatorIds: await loadModeratorIds(db, projectId) };
  return extrasOf(rows, replies, facts, context);
}
