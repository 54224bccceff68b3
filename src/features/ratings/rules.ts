import type { ContentKind } from '../../db/schema/index.js';
import { canRate, canRateComment, type CommentContext, type CommentState } from '../comments/rules.js';

export { canRate } from '../comments/rules.js';

/** Rating an object through the ratings API: a comment by `canRateComment` (never a removed one), anything else by `canRate`. */
export const canRateObject = (c: CommentContext, target: { kind: ContentKind } & Pick<CommentState, 'isRemoved' | 'isCensored'>) =>
  target.kind === 'comment' ? canRateComment(c, target) : canRate(c, target.kind);

/** Changing or withdrawing a rating: its owner, while they may still rate the object. */
export const canChangeRating = (c: CommentContext, target: { kind: ContentKind } & Pick<CommentState, 'isRemoved' | 'isCensored'>, rating: { creatorId: number }) =>
  c.project.user !== null && rating.creatorId === c.project.user.id && canRateObject(c, target);
