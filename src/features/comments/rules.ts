import type { ContentKind } from '../../db/schema/index.js';
import { type PhaseDates, phaseAllows } from '../modules/phases.js';
import { canModerate, canParticipate, canView, isContextMember, type ProjectContext } from '../projects/rules.js';

/** The model whose phase features decide about a thread root (paragraphs belong to their chapter's document). */
export function phaseModel(root: ContentKind): 'idea' | 'poll' | 'chapter' {
  if (root === 'poll') return 'poll';
  if (root === 'chapter' || root === 'paragraph') return 'chapter';
  return 'idea';
}

/** What the comment rules look at: the project, the module's phases and the thread's root object. */
export interface CommentContext {
  project: ProjectContext;
  phases: PhaseDates[];
  root: { type: ContentKind };
}

/** The active phase allows commenting on the thread's object. */
export const commentingOpen = (c: CommentContext, now: Date) => phaseAllows(c.phases, 'comment', phaseModel(c.root.type), now);

/** a4comments.view_comment: moderators; members or anyone on a public or semi-public live project. */
export const canViewComments = (c: CommentContext) => canView(c.project);

/** comment_<model>: moderators always; members of a live project while the phase allows comments. */
export const canAddComment = (c: CommentContext, now: Date) => canModerate(c.project) || (canParticipate(c.project) && commentingOpen(c, now));

/** change_comment: a superuser, or the owner while they may still comment (moderators may not edit others' text). */
export const canChangeComment = (c: CommentContext, comment: { creatorId: number }, now: Date) =>
  Boolean(c.project.user && (c.project.user.isSuperuser || (comment.creatorId === c.project.user.id && canParticipate(c.project) && commentingOpen(c, now))));

/** delete_comment: moderators (censor) and the owner (remove). */
export const canDeleteComment = (c: CommentContext, comment: { creatorId: number }) =>
  canModerate(c.project) || Boolean(c.project.user && comment.creatorId === c.project.user.id && isContextMember(c.project));

/** Rating: ideas while the phase allows rating, comments while it allows commenting; moderators always. */
export const canRate = (c: CommentContext, kind: ContentKind, now: Date) =>
  canModerate(c.project) || (canParticipate(c.project) && (kind === 'comment' ? commentingOpen(c, now) : phaseAllows(c.phases, 'rate', phaseModel(c.root.type), now)));
