import type { FastifyRequest } from 'fastify';
import type { DbOrTx } from '../../db/client.js';
import { renderContext } from '../../http/render.js';
import { checkPageInRange } from '../../http/pagination.js';
import type { Config } from '../../config.js';
import type { PageContext } from '../../web/context.js';
import { extrasFor } from './extras.js';
import { type CommentRow, loadThreadPage, type ObjectRef, threadPageOf } from './queries.js';
import { canAddComment, canChangeComment, canDeleteComment, canRate, canReplyTo, type CommentContext, commentingOpen, isDeletedComment } from './rules.js';
import { serializeReply } from './serialize.js';
import { asSignedInUser, canModerate } from '../projects/rules.js';

/** Top-level comments a thread page shows (§A11.4). */
export const THREAD_PAGE_SIZE = 20;

/** What the viewer may do with one comment: the comment rules, asked once per comment. */
export interface CommentActions {
  reply: boolean;
  edit: boolean;
  delete: boolean;
  rate: boolean;
  report: boolean;
  moderate: boolean;
}

export type CommentView = ReturnType<typeof serializeReply> & {
  /** The stored text, shown to moderators for blocked comments and in the edit form. */
  text: string;
  isReviewed: boolean;
  actions: CommentActions;
  replies: CommentView[];
};

export interface ThreadView {
  object: ObjectRef;
  comments: CommentView[];
  /** Comments plus their replies. */
  commentCount: number;
  page: number;
  pages: number;
  /** The viewer may write a new comment. */
  mayComment: boolean;
  /** Why the viewer may not (a catalogue key), or null. */
  notice: string | null;
}

/** Why the comment form is not offered (§A11.6): the guidance a visitor or member sees instead. */
function commentNotice(context: CommentContext): string {
  if (!context.project.user && canAddComment({ ...context, project: asSignedInUser(context.project) })) return 'Please log in to comment.';
  if (commentingOpen(context)) return 'Only invited users can actively participate.';
  return "The currently active phase doesn't allow to comment.";
}

/**
 * One page of an object's comment thread as the pages show it: each comment serialised like the
 * API's, with what the viewer may do with it decided by the comment rules.
 */
export async function loadThreadView(
  db: DbOrTx,
  request: FastifyRequest,
  config: Config,
  page: PageContext,
  context: CommentContext & { project: { projectId: number } },
  object: ObjectRef,
  /** A page number, or the comment whose page to show (a `?comment=` link), or both absent: page 1. */
  at: { page?: number; comment?: number | null },
  size = THREAD_PAGE_SIZE,
): Promise<ThreadView> {
  const number = at.page ?? (at.comment ? await threadPageOf(db, object, at.comment, size) : 1);
  const thread = await loadThreadPage(db, object, number, size);
  checkPageInRange(number, size, thread.count);
  const extras = await extrasFor(db, thread.comments, thread.replies, context.project.projectId, page.user?.id ?? null, context);
  const ctx = renderContext(request, page.user, config);
  const mayComment = canAddComment(context);
  const signedIn = page.user !== null;
  const view = (row: CommentRow): CommentView => ({
    ...serializeReply(row, extras, ctx),
    text: row.comment,
    isReviewed: row.isReviewed,
    actions: {
      reply: signedIn && mayComment && canReplyTo(row) && !isDeletedComment(row),
      edit: canChangeComment(context, row),
      delete: signedIn && !isDeletedComment(row) && canDeleteComment(context, row),
      rate: signedIn && canRate(context, 'comment') && !isDeletedComment(row),
      report: signedIn && !isDeletedComment(row),
      moderate: canModerate(context.project),
    },
    replies: (extras.replies.get(row.id) ?? []).map(view),
  });
  return {
    object,
    comments: thread.comments.map(view),
    commentCount: thread.commentCount,
    page: number,
    pages: Math.max(1, Math.ceil(thread.count / size)),
    mayComment: signedIn && mayComment,
    notice: signedIn && mayComment ? null : commentNotice(context),
  };
}
