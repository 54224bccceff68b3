import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { actions, commentFeedback, comments, type ContentKind, follows, organisationTermsAgreements, ratings, reports, users } from '../../db/schema/index.js';
import { stripTags } from '../../text/html.js';
import { deleteActionsOf, recordAction } from '../../core/actions/services.js';
import { agreedOrganisation, type TermsAgreement } from '../../core/organisations/rules.js';
import { recordTermsAgreement } from '../../core/organisations/services.js';
import { loadTarget, type TargetInfo } from '../../core/contenttypes/queries.js';
import { contributionCtes } from '../../core/insights/services.js';
import { netiquettePath } from '../../core/legal/queries.js';
import { type NoticeContext } from '../../mail/notices.js';
import { queueProjectNotice } from '../../core/projects/notices.js';
import { moderationTopic } from '../../core/projects/live-topics.js';
import { afterAnswer } from '../../http/after-answer.js';
import { announceLive, liveEventInsert, publishLive } from '../../http/live.js';
import { preparedStatement } from '../../db/sql.js';
import { type CommentRow, loadCommentPaths, loadCommentRow } from './queries.js';

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

/** What a new comment's statement needs to know of its target (contenttypes' `loadTarget`, or a route's context). */
type CommentTarget = Pick<TargetInfo, 'creatorId' | 'projectId'>;

/**
 * The comment, its "add" action (as recordAction stores it; none for a removed or censored one), the
 * creator's follow of the project (as autoFollow does), the project's statistics
 * (insights/services.ts), with `withTerms` the creator's agreement to the organisation's terms
 * (placeholder `terms`: its id; only then, since any statement on the agreements moves every page's
 * version) and the moderation queue's live event (placeholder `liveTopic`, or null), in one statement
 * answering with the comment as loadCommentRow reads it. Prepared: built once per process.
 */
const insertCommentStatement = (withTerms: boolean) => preparedStatement<InsertedComment, Record<string, unknown>>(withTerms ? 'comment_create_terms' : 'comment_create', () => {
  const value = (name: string) => sql.placeholder(name);
  const terms = sql`t as (
      insert into ${organisationTermsAgreements} (user_id, organisation_id) select c.creator_id, ${value('terms')}::integer from c
      on conflict do nothing),`;
  const liveTopic = sql`${value('liveTopic')}::text`;
  return sql`
    with c as (
      insert into ${comments} (id, creator_id, content_type, object_pk, comment, comment_categories, project_id, created, modified,
        is_blocked, is_removed, is_censored, is_moderator_marked, is_reviewed)
      values (coalesce(${value('id')}::integer, nextval(pg_get_serial_sequence('comments', 'id'))), ${value('creatorId')}::integer, ${value('contentType')},
        ${value('objectPk')}::integer, ${value('comment')}, ${value('commentCategories')}, ${value('projectId')}::integer, ${value('created')}::timestamptz,
        ${value('modified')}::timestamptz, ${value('isBlocked')}::boolean, ${value('isRemoved')}::boolean, ${value('isCensored')}::boolean,
        ${value('isModeratorMarked')}::boolean, ${value('isReviewed')}::boolean)
      returning *),
    a as (
      insert into ${actions} (actor_id, verb, obj_type, obj_id, target_type, target_id, target_creator_id, project_id, timestamp)
      select c.creator_id, 'add', 'comment', c.id, c.content_type, c.object_pk, ${value('targetCreatorId')}::integer, c.project_id, c.created
      from c where not (c.is_removed or c.is_censored)),
    f as (
      insert into ${follows} (creator_id, project_id, enabled, created)
      select c.creator_id, c.project_id, true, c.created from c where c.project_id is not null
      on conflict (project_id, creator_id) do nothing),
    ${contributionCtes({ project: sql`c.project_id`, from: sql`from c where c.project_id is not null`, creatorId: sql`c.creator_id`, kind: 'comments', at: sql`c.created` })},
    ${withTerms ? terms : sql``}
    e as (${liveEventInsert(liveTopic, 'comment', sql`jsonb_build_object('id', c.id)`, sql`c where ${liveTopic} is not null`)})
    select c.*, u.username, u.avatar, u.is_guest from c join ${users} u on u.id = c.creator_id`;
});

const insertComment = { plain: insertCommentStatement(false), withTerms: insertCommentStatement(true) };

interface InsertedComment {
  id: number | string;
  creator_id: number | string;
  content_type: ContentKind;
  object_pk: number | string;
  comment: string;
  comment_categories: string;
  is_removed: boolean;
  is_censored: boolean;
  is_blocked: boolean;
  is_moderator_marked: boolean;
  is_reviewed: boolean;
  project_id: number | string | null;
  created: Date | string;
  modified: Date | string | null;
  username: string;
  avatar: string | null;
  is_guest: boolean;
}

const toCommentRow = (row: InsertedComment): CommentRow => ({
  id: Number(row.id),
  creatorId: Number(row.creator_id),
  contentType: row.content_type,
  objectPk: Number(row.object_pk),
  comment: row.comment,
  commentCategories: row.comment_categories,
  isRemoved: row.is_removed,
  isCensored: row.is_censored,
  isBlocked: row.is_blocked,
  isModeratorMarked: row.is_moderator_marked,
  isReviewed: row.is_reviewed,
  projectId: row.project_id === null ? null : Number(row.project_id),
  created: new Date(row.created),
  modified: row.modified === null ? null : new Date(row.modified),
  username: row.username,
  avatar: row.avatar,
  creatorIsGuest: row.is_guest,
});

/**
 * Creates a comment the platform's way (insertComment): text stripped of HTML, the project taken
 * from the target, one statement (atomic on its own: a caller needs no transaction) that answers
 * with the comment. With a notice context (a request) the moderation queue hears of it live and,
 * after the answer (http/after-answer.ts), the target's creator is told about the new comment or
 * reply. `agreement`: the creator's agreement to the organisation's terms given with it, recorded in
 * the same statement when the form asked (issue 33.5: the one command of posting a comment).
 */
export async function createCommentRow(db: DbOrTx, input: NewComment, target: CommentTarget, notice?: NoticeContext, agreement?: TermsAgreement): Promise<CommentRow> {
  const termsOf = agreedOrganisation(agreement);
  const gone = Boolean(input.isRemoved || input.isCensored);
  const queueTopic = notice && target.projectId !== null ? moderationTopic(target.projectId) : null;
  const [inserted] = await insertComment[termsOf === null ? 'plain' : 'withTerms'](db, {
    id: input.id ?? null,
    creatorId: input.creatorId,
    contentType: input.target.type,
    objectPk: input.target.id,
    comment: gone ? '' : stripTags(input.comment),
    commentCategories: gone ? '' : (input.commentCategories ?? ''),
    projectId: target.projectId,
    created: (input.created ?? new Date()).toISOString(),
    modified: input.modified?.toISOString() ?? null,
    isBlocked: input.isBlocked ?? false,
    isRemoved: input.isRemoved ?? false,
    isCensored: input.isCensored ?? false,
    isModeratorMarked: input.isModeratorMarked ?? false,
    isReviewed: input.isReviewed ?? false,
    targetCreatorId: target.creatorId,
    terms: termsOf,
    liveTopic: queueTopic,
  });
  const row = toCommentRow(inserted);
  // The moderation queue follows new comments live (requests only: loaddata's bulk stays quiet).
  if (queueTopic) await announceLive(db, queueTopic);
  const recipientId = target.creatorId;
  if (notice && !gone && recipientId !== null) await afterAnswer(db, (later) => tellTargetCreator(later, row, recipientId, notice));
  return row;
}

/** Creates a comment (createCommentRow) on a target looked up first. */
export async function createComment(db: DbOrTx, input: NewComment, notice?: NoticeContext): Promise<{ id: number; projectId: number | null; targetCreatorId: number | null }> {
  const target = await loadTarget(db, input.target.type, input.target.id);
  if (!target) throw new TargetMissing(`no ${input.target.type} ${input.target.id}`);
  const row = await createCommentRow(db, input, target, notice);
  return { id: row.id, projectId: target.projectId, targetCreatorId: target.creatorId };
}

/** Tells the creator of what a new comment answers about it (a notice by e-mail and in the notification centre); nothing when the comment is gone meanwhile. */
async function tellTargetCreator(db: DbOrTx, row: CommentRow, recipientId: number, notice: NoticeContext): Promise<void> {
  if (!(await loadCommentRow(db, row.id))) return;
  const path = (await loadCommentPaths(db, [{ id: row.id, contentType: row.contentType, objectPk: row.objectPk }])).get(row.id) ?? '/';
  await db.transaction(async (tx) => {
    await queueProjectNotice(tx, row.projectId, {
      kind: row.contentType === 'comment' ? 'reply_to_comment' : 'comment_on_content',
      recipientIds: [recipientId],
      actorId: row.creatorId,
      vars: { actor: row.username, text: row.comment, url: `${notice.origin}${path}` },
    });
  });
}

/**
 * The owner edits a comment (the one command of an edit, issue 33.5): the owner's agreement to the
 * organisation's terms given with it (when the form asked), and with a text or categories the
 * change, `modified` and an "update" action.
 */
export async function editComment(tx: Tx, commentId: number, edit: { text?: string; commentCategories?: string; agreement?: TermsAgreement }): Promise<void> {
  await recordTermsAgreement(tx, edit.agreement);
  if (edit.text === undefined && edit.commentCategories === undefined) return;
  const [row] = await tx
    .update(comments)
    .set({ ...(edit.text !== undefined ? { comment: stripTags(edit.text) } : {}), ...(edit.commentCategories !== undefined ? { commentCategories: edit.commentCategories } : {}), modified: new Date() })
    .where(eq(comments.id, commentId))
    .returning({ creatorId: comments.creatorId, projectId: comments.projectId });
  if (!row) throw new Error(`no comment ${commentId}`);
  await recordAction(tx, { actorId: row.creatorId, verb: 'update', obj: { type: 'comment', id: commentId }, projectId: row.projectId });
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
export async function moderateComment(db: Tx, commentId: number, changes: ModerationChanges, notice?: NoticeContext): Promise<void> {
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
export async function restoreModeration(db: Tx, projectId: number, states: ModerationState[]): Promise<void> {
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
export async function removeComment(db: Tx, commentId: number, byCreator: boolean): Promise<void> {
  await db
    .update(comments)
    // A comment its author deleted leaves nothing to moderate: it counts as read (issue 22.5).
    .set({ ...(byCreator ? { isRemoved: true, isReviewed: true } : { isCensored: true }), comment: '', commentCategories: '', modified: new Date() })
    .where(and(eq(comments.id, commentId), eq(comments.isRemoved, false), eq(comments.isCensored, false)));
  await deleteActionsOf(db, 'comment', commentId);
}

/** Hard-deletes the comments on an object with their replies, ratings, reports, feedback and actions. */
export async function deleteCommentsOn(db: Tx, type: ContentKind, id: number): Promise<void> {
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
