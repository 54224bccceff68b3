import type { ContentKind } from '../../db/schema/index.js';
import { commentTextProblem } from './input.js';
import { canViewItem, type ModuleContext, participatesIn, phaseAllowsFor } from '../../core/modules/rules.js';
import { canModerate, canParticipate, isSuperuser, NO_ROLES, type ProjectContext, type ProjectItemContext } from '../../core/projects/rules.js';
import { contentTypeOfModule, moduleTypeOf } from '../../core/modules/registry.js';

/** The content whose phase features decide about a thread root (a paragraph follows its chapter): its content type says. */
const phaseModel = (root: ContentKind): ContentKind => contentTypeOfModule(root)?.phaseContent ?? root;

/**
 * What the comment rules look at: the module context (or, for a thread about a project's own
 * content such as a result, the project's: `module: null`) and the thread's root object.
 */
export type CommentContext = ModuleCommentContext | (ProjectItemContext & { root: { type: ContentKind } });
/** The comment rules' context of a thread in a module. */
export type ModuleCommentContext = ModuleContext & { root: { type: ContentKind } };

const inModule = (c: CommentContext): c is ModuleCommentContext => c.module !== null;

/** The state of a comment that the rules look at. */
export interface CommentState {
  creatorId: number;
  isBlocked?: boolean;
  isRemoved?: boolean;
  isCensored?: boolean;
}

const isOwner = (c: CommentContext, comment: CommentState) => c.project.user !== null && c.project.user.id === comment.creatorId;
const isGone = (comment: Pick<CommentState, 'isRemoved' | 'isCensored'>) => Boolean(comment.isRemoved || comment.isCensored);

/** The active phase allows commenting on the thread's object; no phase decides about a project's own content. */
export const commentingOpen = (c: CommentContext) => !inModule(c) || phaseAllowsFor(c, 'comment', phaseModel(c.root.type));

/** Taking part where the thread is: in its module, or in the project for the project's own content. */
const takesPart = (c: CommentContext) => (inModule(c) ? participatesIn(c) : canParticipate(c.project));

/** a4comments.view_comment: who may see the module (draft modules only moderators: F4); for a project's own content (a result), who sees the project. */
export const canViewComments = (c: CommentContext) => canViewItem(c);

/**
 * Commenting on a project's own content (a result, which no module holds): whoever may take part
 * in the project — signed in, a member of its context, the project published and not archived —
 * and its moderators and initiators always. No phase decides.
 */
export const canCommentInProject = (p: ProjectContext) => canModerate(p) || canParticipate(p);

/** comment_<model> (comments and replies): moderators always; members of a live project while the phase allows comments (`canCommentInProject` without a module). */
export const canAddComment = (c: CommentContext) => (inModule(c) ? canModerate(c.project) || (participatesIn(c) && commentingOpen(c)) : canCommentInProject(c.project));

/**
 * a4's `would_have_commenting_permission`: an ordinary signed-in user without any role (a4's
 * `NormalUser`) could comment here — whoever asks. The widget then shows "log in to comment".
 */
export const wouldHaveCommentingPermission = (c: CommentContext) => canAddComment({ ...c, project: { ...c.project, user: { id: 0, isSuperuser: false }, roles: NO_ROLES } });

/**
 * change_comment: a superuser, or the owner while they may comment there; moderators may not edit
 * others' text. Nobody edits a removed or censored comment, and its author not a blocked one.
 */
export const canChangeComment = (c: CommentContext, comment: CommentState) =>
  !isGone(comment) && (isSuperuser(c.project) || (isOwner(c, comment) && !comment.isBlocked && canAddComment(c)));

/** delete_comment: moderators (censor) at any time; the owner (remove) while the project is open to them, not once it is archived. */
export const canDeleteComment = (c: CommentContext, comment: CommentState) => canModerate(c.project) || (isOwner(c, comment) && takesPart(c));

/** Rating: ideas while the phase allows rating, comments while it allows commenting; moderators always. */
export const canRate = (c: CommentContext, kind: ContentKind) =>
  canModerate(c.project) || (takesPart(c) && (kind === 'comment' ? commentingOpen(c) : inModule(c) && phaseAllowsFor(c, 'rate', phaseModel(c.root.type))));

/** Rating a comment: as `canRate`, and never a removed or censored one (`user_info.has_rating_permission`). */
export const canRateComment = (c: CommentContext, comment: Pick<CommentState, 'isRemoved' | 'isCensored'>) => !isGone(comment) && canRate(c, 'comment');

/** What the comment menu offers the user (a4's `user_info`), each answer from the rules above. */
export interface CommentUserInfo {
  /** The caller's user id, null for anonymous callers (the widget offers Report and rating to signed-in users by it). */
  authenticated_user_pk: number | null;
  has_viewing_permission: boolean;
  has_rating_permission: boolean;
  has_changing_permission: boolean;
  has_deleting_permission: boolean;
  has_moderating_permission: boolean;
  /** The comment may be answered by the caller now (a reply or a deleted comment never). */
  has_comment_commenting_permission: boolean;
  is_users_own_comment: boolean;
}

/** A removed or censored comment offers nothing any more (its author still sees it is theirs). */
export function commentUserInfo(c: CommentContext, comment: CommentState & { contentType: ContentKind }): CommentUserInfo {
  return {
    authenticated_user_pk: c.project.user?.id ?? null,
    has_viewing_permission: canViewComments(c),
    has_rating_permission: canRateComment(c, comment),
    has_changing_permission: canChangeComment(c, comment),
    has_deleting_permission: !isGone(comment) && canDeleteComment(c, comment),
    has_moderating_permission: canModerate(c.project),
    has_comment_commenting_permission: canAddComment(c) && canReplyTo(comment),
    is_users_own_comment: isOwner(c, comment),
  };
}

/** A removed (by its creator) or censored (by a moderator) comment keeps its row but no text. */
export const isDeletedComment = (comment: CommentState) => isGone(comment);

/**
 * Comment categories (suggestion, note, question; §A11.3) are offered on the top-level comments of
 * the modules whose type says so (`commentCategories`: the debate, as in a+); the page form and the
 * thread filter ask this.
 */
export const commentCategoriesOffered = (c: CommentContext) => inModule(c) && c.module.blueprintType !== undefined && moduleTypeOf(c.module.blueprintType)?.commentCategories === true;

/**
 * Why a comment cannot be answered (the API's English detail), or null. Threads are two levels
 * deep (§A11.2): comments on an object, and replies to those; a reply cannot be answered. A comment
 * removed by its creator or censored by a moderator has no text left to answer (D11). The API (400
 * with this text), the reply form (403) and the thread's Reply button all ask this rule.
 */
export function replyTargetError(parent: { contentType: ContentKind } & Pick<CommentState, 'isRemoved' | 'isCensored'>): string | null {
  if (parent.contentType === 'comment') return 'A reply can only be given to a comment, not to another reply.';
  if (isGone(parent)) return 'A deleted comment cannot be answered.';
  return null;
}

export const canReplyTo = (parent: Parameters<typeof replyTargetError>[0]) => replyTargetError(parent) === null;

export { COMMENT_MAX_LENGTH } from './input.js';

/** Why a comment text is refused (an English catalogue key), or null: the one check of comments/input.ts. */
export const commentTextError = (raw: string): string | null => commentTextProblem(raw);
