import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { actions, commentFeedback, comments, type ContentKind, ratings, reports, users } from '../../db/schema/index.js';
import { stripTags } from '../../text/html.js';
import { deleteActionsOf, recordAction } from '../../core/actions/services.js';
import { loadTarget } from '../../core/contenttypes/queries.js';
import { autoFollow } from '../../core/follows/services.js';
import { countContribution } from '../../core/insights/services.js';
import { netiquettePath } from '../../core/legal/queries.js';
import { type NoticeContext } from '../../mail/notices.js';
import { queueProjectNotice } from '../../core/projects/notices.js';
import { moderationTopic } from '../../core/projects/live-topics.js';
import { publishLive } from '../../http/live.js';
import { loadCommentPaths } from './queries.js';

interface NewComment {
  id?: number;
  creatorId: number;
  target: { type: ContentKind; id: number };
  comment: string;
  commentCategories?: string;
  created?: Date;
  modified?: Date | null;
  isBlocked?: boolean;
  isRemoved?: boolean;
  isCensored?: boolean;
  isModeratorMarked?: boolean;
  isReviewed?: boolean;
}

class TargetMissing extends Error {}

/** The absolute URL of a comment for a notice. */
export async function commentUrl(db: DbOrTx, notice: NoticeContext, ref: { id: number; contentType: ContentKind; objectPk: number }): Promise<string> {
  const path = (await loadCommentPaths(db, [ref])).get(ref.id) ?? '/';
  return `${notice.origin}${path}`;
}

export async function usernameOf(db: DbOrTx, userId: number): Promise<string> {
  const [row] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId));
  return row?.username ?? '';
}

/**
 * Creates a comment the platform's way: text stripped of HTML, the project taken from the target,
 * an "add" action with the target's creator, the creator's auto-follow and the project's statistics. A removed or censored
 * comment (possible from fixtures) keeps no text and gets no action. With a notice context (a
 * request), the target's creator is told about the new comment or reply.
 */
export async function createComment(db: DbOrTx, input: NewComment, notice?: NoticeContext): Promise<{ id: number; projectId: number | null; targetCreatorId: number | null }> {
  const target = await loadTarget(db, input.target.type, input.target.id);
  if (!target) throw new TargetMissing(`no ${input.target.type} ${input.target.id}`);
  const gone = Boolean(input.isRemoved || input.isCensored);
  const created = input.created ?? new Date();
  const [row] = await db
    .insert(comments)
    .values({
      ...(input.id ? { id: input.id } : {}),
      creatorId: input.creatorId,
      contentType: input.target.type,
      objectPk: input.target.id,
      comment: gone ? '' : stripTags(input.comment),
      commentCategories: gone ? '' : (input.commentCategories ?? ''),
      projectId: target.projectId,
      created,
      modified: input.modified ?? null,
      isBlocked: input.isBlocked ?? false,
      isRemoved: input.isRemoved ?? false,
      isCensored: input.isCensored ?? false,
      isModeratorMarked: input.isModeratorMarked ?? false,
      isReviewed: input.isReviewed ?? false,
    })
    .returning({ id: comments.id });
  if (!gone) {
    await recordAction(db, {
      actorId: input.creatorId,
      verb: 'add',
      obj: { type: 'comment', id: row.id },
      target: input.target,
      targetCreatorId: target.creatorId,
      projectId: target.projectId,
      timestamp: created,
    });
  }
  await autoFollow(db, input.creatorId, target.projectId, created);
  await countContribution(db, target.projectId, input.creatorId, 'comments', created);
  if (notice && !gone && target.creatorId !== null) {
    const ref = { id: row.id, contentType: input.target.type, objectPk: input.target.id };
    await queueProjectNotice(db, target.projectId, {
      kind: input.target.type === 'comment' ? 'reply_to_comment' : 'comment_on_content',
      recipientIds: [target.creatorId],
      actorId: input.creatorId,
      vars: { actor: await usernameOf(db, input.creatorId), text: stripTags(input.comment), url: await commentUrl(db, notice, ref) },
    });
  }
  // The moderation queue follows new comments live (requests only: loaddata's bulk stays quiet).
  if (notice && target.projectId !== null) await publishLive(db, moderationTopic(target.projectId), 'comment', { id: row.id });
  return { id: row.id, projectId: target.projectId, targetCreatorId: target.creatorId };
}

/** The owner edits the text: `modified` is set and an "update" action recorded. */
export async function editCommentText(db: DbOrTx, commentId: number, text: string, commentCategories?: string): Promise<void> {
  const [row] = await db
    .update(comments)
    .set({ comment: stripTags(text), ...(commentCategories !== undefined ? { commentCategories } : {}), modified: new Date() })
    .where(eq(comments.id, commentId))
    .returning({ creatorId: comments.creatorId, projectId: comments.projectId });
  if (!row) throw new Error(`no comment ${commentId}`);
  await recordAction(db, { actorId: row.creatorId, verb: 'update', obj: { type: 'comment', id: commentId }, projectId: row.projectId });
}

export interface ModerationChanges {
  comment?: string;
  isBlocked?: boolean;
  isModeratorMarked?: boolean;
  isReviewed?: boolean;
}

/** The moderation actions of the pages' forms (discussion and moderation queue) and what each changes. */
export const MODERATION_ACTIONS: Record<string, ModerationChanges> = {
  read: { isReviewed: true },
  unread: { isReviewed: false },
  block: { isBlocked: true },
  unblock: { isBlocked: false },
  // Highlight (a+'s is_moderator_marked), from the browser too (issue 22.5).
  mark: { isModeratorMarked: true },
  unmark: { isModeratorMarked: false },
};

/**
 * Moderation changes never touch `modified` (the reference saves with ignore_modified) and record
 * no action. Blocking a comment that was not blocked tells its creator (given a notice context).
 */
export async function moderateComment(db: DbOrTx, commentId: number, changes: ModerationChanges, notice?: NoticeContext): Promise<void> {
  if (changes.isBlocked) {
    const [blocked] = await db
      .update(comments)
      .set({ isBlocked: true })
      .where(and(eq(comments.id, commentId), eq(comments.isBlocked, false)))
      .returning({ creatorId: comments.creatorId, projectId: comments.projectId, contentType: comments.contentType, objectPk: comments.objectPk, comment: comments.comment });
    if (blocked && notice) {
      await queueProjectNotice(db, blocked.projectId, {
        kind: 'comment_blocked',
        recipientIds: [blocked.creatorId],
        actorId: null,
        vars: {
          text: blocked.comment,
          url: await commentUrl(db, notice, { id: commentId, ...blocked }),
          netiquette: `${notice.origin}${await netiquettePath(db, blocked.projectId)}`,
        },
      });
    }
  }
  const set = {
    ...(changes.comment !== undefined ? { comment: stripTags(changes.comment) } : {}),
    ...(changes.isBlocked === false ? { isBlocked: false } : {}),
    ...(changes.isModeratorMarked !== undefined ? { isModeratorMarked: changes.isModeratorMarked } : {}),
    ...(changes.isReviewed !== undefined ? { isReviewed: changes.isReviewed } : {}),
  };
  if (Object.keys(set).length) await db.update(comments).set(set).where(eq(comments.id, commentId));
  // Other moderators' queues follow the change live.
  const [changed] = await db.select({ projectId: comments.projectId }).from(comments).where(eq(comments.id, commentId));
  if (changed?.projectId) await publishLive(db, moderationTopic(changed.projectId), 'moderation', { id: commentId });
}

/** A comment's moderation state, as undo restores it. */
export interface ModerationState {
  id: number;
  isReviewed: boolean;
  isBlocked: boolean;
  isModeratorMarked: boolean;
}

/** The moderation states of comments of a project (what an action is about to change). */
export async function moderationStates(db: DbOrTx, projectId: number, ids: number[]): Promise<ModerationState[]> {
  if (!ids.length) return [];
  return db
    .select({ id: comments.id, isReviewed: comments.isReviewed, isBlocked: comments.isBlocked, isModeratorMarked: comments.isModeratorMarked })
    .from(comments)
    .where(and(eq(comments.projectId, projectId), inArray(comments.id, ids)));
}

/** Undo of the moderation queue: puts comments of a project back as they were (no mails: nothing new happened to their authors). */
export async function restoreModeration(db: DbOrTx, projectId: number, states: ModerationState[]): Promise<void> {
  for (const state of states) {
    await db.update(comments).set({ isReviewed: state.isReviewed, isBlocked: state.isBlocked, isModeratorMarked: state.isModeratorMarked }).where(and(eq(comments.id, state.id), eq(comments.projectId, projectId)));
  }
  if (states.length) await publishLive(db, moderationTopic(projectId), 'moderation', { ids: states.map((s) => s.id) });
}

/**
 * Deleting through the API keeps the row: by its creator it is "removed", by anyone else
 * "censored". Either way the text goes, `modified` says when (the app shows "deleted on …"), and
 * its actions leave the activity stream.
 */
export async function removeComment(db: DbOrTx, commentId: number, byCreator: boolean): Promise<void> {
  await db
    .update(comments)
    // A comment its author deleted leaves nothing to moderate: it counts as read (issue 22.5).
    .set({ ...(byCreator ? { isRemoved: true, isReviewed: true } : { isCensored: true }), comment: '', commentCategories: '', modified: new Date() })
    .where(and(eq(comments.id, commentId), eq(comments.isRemoved, false), eq(comments.isCensored, false)));
  await deleteActionsOf(db, 'comment', commentId);
}

/** Hard-deletes the comments on an object with their replies, ratings, reports, feedback and actions. */
export async function deleteCommentsOn(db: DbOrTx, type: ContentKind, id: number): Promise<void> {
  let level = await db
    .select({ id: comments.id })
    .from(comments)
    .where(and(eq(comments.contentType, type), eq(comments.objectPk, id)));
  const all: number[] = [];
  while (level.length) {
    const ids = level.map((c) => c.id);
    all.push(...ids);
    level = await db
      .select({ id: comments.id })
      .from(comments)
      .where(and(eq(comments.contentType, 'comment'), inArray(comments.objectPk, ids)));
  }
  if (!all.length) return;
  const feedback = await db.select({ id: commentFeedback.id }).from(commentFeedback).where(inArray(commentFeedback.commentId, all));
  if (feedback.length) {
    await db.delete(actions).where(and(eq(actions.objType, 'moderatorcommentfeedback'), inArray(actions.objId, feedback.map((f) => f.id))));
  }
  await db.delete(actions).where(and(eq(actions.objType, 'comment'), inArray(actions.objId, all)));
  await db.delete(ratings).where(and(eq(ratings.contentType, 'comment'), inArray(ratings.objectPk, all)));
  await db.delete(reports).where(and(eq(reports.contentType, 'comment'), inArray(reports.objectPk, all)));
  await db.delete(comments).where(inArray(comments.id, all));
}
