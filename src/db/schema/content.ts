import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, check, index, integer, jsonb, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { djangoSlugSql } from '../../text/django-slug.js';
import { CONTENT_KINDS, type ContentKind, timestamps } from './common.js';
import { categories, labels, modules, phases, projects } from './projects.js';
import { authorRef, userRef, users } from './users.js';

/**
 * The columns every idea-like item has (ideas, map ideas, proposals). One definition, so that the
 * idea code (lists, filters, moderation, ratings, exports) works over all three tables.
 */
const ideaColumns = () => ({
  id: serial('id').primaryKey(),
  moduleId: integer('module_id')
    .notNull()
    .references(() => modules.id, { onDelete: 'cascade' }),
  creatorId: authorRef(),
  name: varchar('name', { length: 120 }).notNull(),
  description: text('description').notNull(),
  image: text('image'),
  imageCopyright: varchar('image_copyright', { length: 120 }).notNull().default(''),
  categoryId: integer('category_id').references(() => categories.id, { onDelete: 'set null' }),
  moderatorStatus: varchar('moderator_status', { length: 254 }),
  moderatorFeedbackText: text('moderator_feedback_text'),
  /** The slug adhocracy+ gave the idea, kept by loaddata so that its old address finds it after a rename (ideas/legacy.ts). */
  legacySlug: varchar('legacy_slug', { length: 100 }),
  /**
   * The slug adhocracy+ would make of the title (Django's slugify), computed by the database on
   * every write, so that an old address is an index look-up, not a slugify over every idea
   * (issue 21, finding 3; ideas/legacy.ts).
   */
  titleSlug: varchar('title_slug', { length: 50 })
    .notNull()
    .generatedAlwaysAs(sql.raw(djangoSlugSql('"name"'))),
  ...timestamps,
});

/** A GeoJSON Feature with a Point geometry, `[lng, lat]` (adhocracy4's PointField). */
export type PointFeature = {
  type: 'Feature';
  properties: Record<string, unknown>;
  geometry: { type: 'Point'; coordinates: [number, number] };
};

/** The place of a map idea or proposal: the point and its label. */
const placeColumns = () => ({
  point: jsonb('point').$type<PointFeature>().notNull(),
  pointLabel: varchar('point_label', { length: 255 }).notNull().default(''),
});

type IdeaIndexTable = { moduleId: AnyPgColumn; created: AnyPgColumn; creatorId: AnyPgColumn; legacySlug: AnyPgColumn; titleSlug: AnyPgColumn; id: AnyPgColumn };
const ideaIndexes = (name: string, t: IdeaIndexTable) => [
  index(`${name}_module_idx`).on(t.moduleId, t.created),
  index(`${name}_creator_idx`).on(t.creatorId),
  uniqueIndex(`${name}_legacy_slug_idx`).on(t.legacySlug).where(sql`${t.legacySlug} IS NOT NULL`),
  index(`${name}_title_slug_idx`).on(t.titleSlug, t.id).where(sql`${t.legacySlug} IS NULL`),
];

export const ideas = pgTable('ideas', ideaColumns(), (t) => ideaIndexes('ideas', t));

/** Ideas with a place (Spatial Brainstorming, Spatial Idea Challenge): their own ids, as adhocracy+'s `mapidea`. */
export const mapIdeas = pgTable('map_ideas', { ...ideaColumns(), ...placeColumns() }, (t) => ideaIndexes('map_ideas', t));

/** Proposals of a participatory budget: a map idea with a budget (whole euros) and an archived flag. */
export const proposals = pgTable(
  'proposals',
  {
    ...ideaColumns(),
    ...placeColumns(),
    budget: integer('budget').notNull().default(0),
    isArchived: boolean('is_archived').notNull().default(false),
  },
  (t) => [...ideaIndexes('proposals', t), check('proposals_budget_not_negative', sql`${t.budget} >= 0`)],
);

const labelLinks = (name: string, column: string, items: typeof ideas | typeof mapIdeas | typeof proposals) =>
  pgTable(
    name,
    {
      ideaId: integer(column)
        .notNull()
        .references(() => items.id, { onDelete: 'cascade' }),
      labelId: integer('label_id')
        .notNull()
        .references(() => labels.id, { onDelete: 'cascade' }),
    },
    (t) => [primaryKey({ columns: [t.ideaId, t.labelId] })],
  );

export const ideaLabels = labelLinks('idea_labels', 'idea_id', ideas);
export const mapIdeaLabels = labelLinks('map_idea_labels', 'map_idea_id', mapIdeas);
export const proposalLabels = labelLinks('proposal_labels', 'proposal_id', proposals);

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
