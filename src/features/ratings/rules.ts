import type { ContentKind } from '../../db/schema/index.js';
import { canRate, type CommentContext } from '../comments/rules.js';

export { canRate } from '../comments/rules.js';

/** Changing or withdrawing a rating: its owner, while they may still rate the object. */
export const canChangeRating = (c: CommentContext, kind: ContentKind, rating: { creatorId: number }) =>
  c.project.user !== null && rating.creatorId === c.project.user.id && canRate(c, kind);
