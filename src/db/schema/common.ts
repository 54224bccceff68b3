import { timestamp } from 'drizzle-orm/pg-core';

/** created/modified as the platform keeps them: modified stays null until the first real edit. */
export const timestamps = {
  created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  modified: timestamp('modified', { withTimezone: true }),
};

/** The kinds of objects that generic relations (comments, ratings, reports, actions) point at. */
export const CONTENT_KINDS = [
  'project',
  'module',
  'phase',
  'idea',
  'poll',
  'chapter',
  'paragraph',
  'livequestion',
  'comment',
  'rating',
  'report',
  'moderatorcommentfeedback',
] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];
