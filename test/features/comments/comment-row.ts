import type { CommentRow } from '../../../src/features/comments/queries.js';

/** A loaded comment row for the pure mappings' tables: a visible comment on idea 1 by user 5 (a guest), with one category. */
export const commentRow = (id: number, state: Partial<CommentRow> = {}): CommentRow => ({
  id,
  creatorId: 5,
  contentType: 'idea',
  objectPk: 1,
  comment: `text ${id}`,
  commentCategories: '[sug]',
  isRemoved: false,
  isCensored: false,
  isBlocked: false,
  isModeratorMarked: false,
  isReviewed: false,
  projectId: 1,
  created: new Date('2024-03-02T10:00:00Z'),
  modified: null,
  username: 'user',
  avatar: null,
  creatorIsGuest: true,
  ...state,
});
