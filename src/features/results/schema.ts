import { sql } from 'drizzle-orm';
import { type AnyPgColumn, check, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, serial, smallint, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { type ContentKind, organisations, projects, timestamps, users } from '../../db/schema/index.js';
import { registerMediaColumns } from '../../media/references.js';

/**
 * Results (issue 39, Decidim's accountability): what became of a project's contributions. An
 * organisation keeps its list of statuses (each with a default progress); a project's results nest,
 * link the contributions they answer, and keep a timeline that nobody rewrites.
 */

/** An organisation's status of results: "planned 0 %", "in progress 40 %", "done 100 %" are made when the list is first needed. */
export const resultStatuses = pgTable(
  'result_statuses',
  {
    id: serial('id').primaryKey(),
    organisationId: integer('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 120 }).notNull(),
    description: text('description').notNull().default(''),
    /** The progress a result takes when it gets this status (0–100). */
    progress: smallint('progress').notNull().default(0),
    position: integer('position').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('result_statuses_organisation_idx').on(t.organisationId, t.position), check('result_statuses_progress_range', sql`${t.progress} BETWEEN 0 AND 100`)],
);

/** A result of a project; `parentId` nests it under another result of the same project. */
export const results = pgTable(
  'results',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id').references((): AnyPgColumn => results.id, { onDelete: 'cascade' }),
    statusId: integer('status_id').references(() => resultStatuses.id, { onDelete: 'set null' }),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    title: varchar('title', { length: 255 }).notNull(),
    description: text('description').notNull().default(''),
    category: varchar('category', { length: 120 }).notNull().default(''),
    district: varchar('district', { length: 120 }).notNull().default(''),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    startDate: date('start_date', { mode: 'string' }),
    endDate: date('end_date', { mode: 'string' }),
    /** Whole euros. */
    budgetPlanned: integer('budget_planned'),
    budgetSpent: integer('budget_spent'),
    /** Its own progress (0–100); null: the mean of its children's, or its status's. */
    progress: smallint('progress'),
    ...timestamps,
  },
  (t) => [
    index('results_project_idx').on(t.projectId, t.id),
    index('results_parent_idx').on(t.parentId),
    check('results_progress_range', sql`${t.progress} BETWEEN 0 AND 100`),
    check('results_budgets_not_negative', sql`coalesce(${t.budgetPlanned}, 0) >= 0 AND coalesce(${t.budgetSpent}, 0) >= 0`),
  ],
);

/** A contribution a result answers (an idea, map idea, proposal, topic, poll: the kinds that declare `resultable`). */
export const resultLinks = pgTable(
  'result_links',
  {
    resultId: integer('result_id')
      .notNull()
      .references(() => results.id, { onDelete: 'cascade' }),
    contentType: varchar('content_type', { length: 32 }).$type<ContentKind>().notNull(),
    objectPk: integer('object_pk').notNull(),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.resultId, t.contentType, t.objectPk] }), index('result_links_object_idx').on(t.contentType, t.objectPk)],
);

/** A change an entry records: the field, what it was, what it became (as shown: a status's name, a number). */
export interface ResultChange {
  field: 'status' | 'progress' | 'budget_planned' | 'budget_spent';
  from: string | null;
  to: string | null;
}

/** An entry of a result's timeline: the initiator's text, and what changed with it. Never updated. */
export const resultEntries = pgTable(
  'result_entries',
  {
    id: serial('id').primaryKey(),
    resultId: integer('result_id')
      .notNull()
      .references(() => results.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    date: date('date', { mode: 'string' }).notNull(),
    text: text('text').notNull().default(''),
    image: varchar('image', { length: 500 }),
    changes: jsonb('changes').$type<ResultChange[]>().notNull().default([]),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('result_entries_result_idx').on(t.resultId, t.date, t.id)],
);

// A timeline entry's image is a media file: it is removed only when no row names it.
registerMediaColumns([resultEntries.image]);
