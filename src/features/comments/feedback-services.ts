import { eq } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { commentFeedback, comments } from '../../db/schema/index.js';
import { cleanRichText, stripTags } from '../../text/html.js';
import { type NoticeContext } from '../../mail/notices.js';
import { queueProjectNotice } from '../../core/projects/notices.js';
import { deleteActionsOf, recordAction } from '../../core/actions/services.js';
import { commentUrl } from '../comments/services.js';

export class FeedbackExists extends Error {
  constructor() {
    super('This comment already has moderator feedback.');
  }
}

interface CommentFeedbackInput {
  id?: number;
  commentId: number;
  creatorId: number;
  feedbackText: string;
  created?: Date;
  modified?: Date | null;
}

async function commentOf(db: DbOrTx, commentId: number) {
  const [comment] = await db
    .select({ id: comments.id, creatorId: comments.creatorId, projectId: comments.projectId, contentType: comments.contentType, objectPk: comments.objectPk })
    .from(comments)
    .where(eq(comments.id, commentId));
  if (!comment) throw new Error(`no comment ${commentId}`);
  return comment;
}

/** Every save of feedback tells the comment's creator (unless they gave it themselves). */
async function notifyCommentCreator(db: Tx, notice: NoticeContext | undefined, comment: Awaited<ReturnType<typeof commentOf>>, actorId: number, feedbackText: string) {
  if (!notice) return;
  await queueProjectNotice(db, comment.projectId, {
    kind: 'comment_feedback',
    recipientIds: [comment.creatorId],
    actorId,
    vars: { text: stripTags(feedbackText), url: await commentUrl(db, notice, comment) },
  });
}

/** Adds a moderator's feedback to a comment (at most one): an "add" action for the comment's creator's feed. */
export async function addCommentFeedback(db: Tx, input: CommentFeedbackInput, notice?: NoticeContext): Promise<number> {
  const comment = await commentOf(db, input.commentId);
  const created = input.created ?? new Date();
  const [row] = await db
    .insert(commentFeedback)
    .values({
      ...(input.id ? { id: input.id } : {}),
      commentId: input.commentId,
      creatorId: input.creatorId,
      feedbackText: cleanRichText(input.feedbackText),
      created,
      modified: input.modified ?? null,
    })
    .onConflictDoNothing({ target: commentFeedback.commentId })
    .returning({ id: commentFeedback.id });
  if (!row) throw new FeedbackExists();
  await recordAction(db, {
    actorId: input.creatorId,
    verb: 'add',
    obj: { type: 'moderatorcommentfeedback', id: row.id },
    target: comment.projectId ? { type: 'project', id: comment.projectId } : null,
    objCommentCreatorId: comment.creatorId,
    projectId: comment.projectId,
    timestamp: created,
  });
  await notifyCommentCreator(db, notice, comment, input.creatorId, input.feedbackText);
  return row.id;
}

/** Updates feedback text; the updating moderator becomes its creator; an "update" action is recorded. */
export async function updateCommentFeedback(db: Tx, feedbackId: number, creatorId: number, feedbackText: string, notice?: NoticeContext): Promise<void> {
  const [row] = await db
    .update(commentFeedback)
    .set({ feedbackText: cleanRichText(feedbackText), creatorId, modified: new Date() })
    .where(eq(commentFeedback.id, feedbackId))
    .returning({ commentId: commentFeedback.commentId });
  if (!row) throw new Error(`no feedback ${feedbackId}`);
  const comment = await commentOf(db, row.commentId);
  await recordAction(db, {
    actorId: creatorId,
    verb: 'update',
    obj: { type: 'moderatorcommentfeedback', id: feedbackId },
    objCommentCreatorId: comment.creatorId,
    projectId: comment.projectId,
  });
  await notifyCommentCreator(db, notice, comment, creatorId, feedbackText);
}

export async function deleteCommentFeedback(db: Tx, feedbackId: number): Promise<void> {
  await deleteActionsOf(db, 'moderatorcommentfeedback', feedbackId);
  await db.delete(commentFeedback).where(eq(commentFeedback.id, feedbackId));
}
