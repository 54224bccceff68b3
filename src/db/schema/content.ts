import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { CONTENT_KINDS, type ContentKind, timestamps } from './common.js';
import { phases, projects } from './projects.js';
import { authorRef, userRef, users } from './users.js';

/** User-generated content about another object (generic relation): comments, ratings, reports. */
const onObject = () => ({
  creatorId: userRef('creator_id'),
  contentType: varchar('content_type', { length: 32 }).$type<ContentKind>().notNull(),
  objectPk: integer('object_pk').notNull(),
});

const kindCheck = (column: string) =>
  sql.raw(`${column} IN (${CONTENT_KINDS.map((k) => `'${k}'`).join(', ')})`);

export const comments = pgTable(
  'comments',
  {
    id: serial('id').primaryKey(),
    creatorId: authorRef(),
    /** The commented object: an idea, poll, chapter or paragraph, or a comment for replies. */
    contentType: varchar('content_type', { length: 32 }).$type<ContentKind>().notNull(),
    objectPk: integer('object_pk').notNull(),
    comment: varchar('comment', { length: 4000 }).notNull().default(''),
    commentCategories: varchar('comment_categories', { length: 256 }).notNull().default(''),
    isRemoved: boolean('is_removed').notNull().default(false),
    isCensored: boolean('is_censored').notNull().default(false),
    isBlocked: boolean('is_blocked').notNull().default(false),
    isModeratorMarked: boolean('is_moderator_marked').notNull().default(false),
    isReviewed: boolean('is_reviewed').notNull().default(false),
    lastDiscussed: timestamp('last_discussed', { withTimezone: true }),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    index('comments_object_idx').on(t.contentType, t.objectPk, t.created),
    index('comments_project_idx').on(t.projectId, t.created),
    /** The moderation list (issue 23.3): its page and its count of (un)reviewed comments from the index alone. */
    index('comments_project_review_idx').on(t.projectId, t.isReviewed, t.created),
    index('comments_creator_idx').on(t.creatorId),
    check('comments_content_type_check', kindCheck('content_type')),
  ],
);

export const ratings = pgTable(
  'ratings',
  {
    id: serial('id').primaryKey(),
    ...onObject(),
    value: smallint('value').notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('ratings_object_creator_key').on(t.contentType, t.objectPk, t.creatorId),
    check('ratings_value_range', sql`${t.value} BETWEEN -1 AND 1`),
  ],
);

export const reports = pgTable(
  'reports',
  {
    id: serial('id').primaryKey(),
    ...onObject(),
    description: varchar('description', { length: 1024 }).notNull().default(''),
    ...timestamps,
    /** When a moderator (or an operator) marked the report as handled; an open report has none (issue 22.4). */
    handledAt: timestamp('handled_at', { withTimezone: true }),
    handledById: integer('handled_by_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('reports_object_idx').on(t.contentType, t.objectPk),
    /** One open report per user and object (issue 21, finding 9): a repeated report adds nothing; after it was handled, a new incident is a new report (issue 36.6). */
    uniqueIndex('reports_creator_object_open_key').on(t.creatorId, t.contentType, t.objectPk).where(sql`${t.handledAt} IS NULL`),
  ],
);

/** A moderator's feedback on a comment; at most one per comment. */
export const commentFeedback = pgTable(
  'comment_feedback',
  {
    id: serial('id').primaryKey(),
    commentId: integer('comment_id')
      .notNull()
      .unique()
      .references(() => comments.id, { onDelete: 'cascade' }),
    creatorId: authorRef(),
    feedbackText: text('feedback_text').notNull().default(''),
    ...timestamps,
  },
);

/**
 * A moderator's internal remark on an item (a+ `moderatorremark.ModeratorRemark`): one per item, seen
 * and changed only by the project's moderators and initiators (features/moderatorremarks). The
 * item kinds are the content types that declare `remarkable` (ideas, map ideas, proposals).
 */
export const moderatorRemarks = pgTable(
  'moderator_remarks',
  {
    id: serial('id').primaryKey(),
    contentType: varchar('content_type', { length: 32 }).$type<ContentKind>().notNull(),
    objectPk: integer('object_pk').notNull(),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    remark: text('remark').notNull().default(''),
    ...timestamps,
  },
  (t) => [uniqueIndex('moderator_remarks_object_key').on(t.contentType, t.objectPk)],
);

export const ACTION_VERBS = ['create', 'add', 'update', 'complete', 'schedule', 'start', 'publish'] as const;
export type ActionVerb = (typeof ACTION_VERBS)[number];

export const actions = pgTable(
  'actions',
  {
    id: serial('id').primaryKey(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'cascade' }),
    verb: varchar('verb', { length: 255 }).$type<ActionVerb>().notNull(),
    objType: varchar('obj_type', { length: 32 }).$type<ContentKind>().notNull(),
    objId: integer('obj_id').notNull(),
    targetType: varchar('target_type', { length: 32 }).$type<ContentKind>(),
    targetId: integer('target_id'),
    targetCreatorId: integer('target_creator_id').references(() => users.id, { onDelete: 'set null' }),
    objCommentCreatorId: integer('obj_comment_creator_id').references(() => users.id, { onDelete: 'set null' }),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    /** For phase "schedule" actions: the phase end the action announced. */
    phaseId: integer('phase_id').references(() => phases.id, { onDelete: 'cascade' }),
    timestamp: timestamp('timestamp', { withTimezone: true }).notNull().defaultNow(),
    public: boolean('public').notNull().default(true),
    description: text('description'),
  },
  (t) => [
    index('actions_obj_idx').on(t.objType, t.objId),
    index('actions_target_creator_feed_idx').on(t.targetCreatorId, t.timestamp),
    index('actions_obj_comment_creator_feed_idx').on(t.objCommentCreatorId, t.timestamp),
    index('actions_project_idx').on(t.projectId, t.timestamp),
    check('actions_verb_check', sql.raw(`verb IN (${ACTION_VERBS.map((v) => `'${v}'`).join(', ')})`)),
  ],
);
