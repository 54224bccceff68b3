import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { modules, projects, users } from '../../db/schema/index.js';

/* The machine summaries' table (drizzle.config.ts finds it here). */

/**
 * A project's or one module's machine-made summary (issue 34.9): the latest one per scope, kept
 * while the contributions it was made from stay the same (`inputHash`), shown publicly once an
 * initiator publishes it.
 */
export const summaries = pgTable(
  'summaries',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** null: the whole project. */
    moduleId: integer('module_id').references(() => modules.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    model: varchar('model', { length: 200 }).notNull(),
    /** SHA-256 of exactly what was sent: the same contributions give the same hash, and the kept summary. */
    inputHash: varchar('input_hash', { length: 64 }).notNull(),
    contributions: integer('contributions').notNull(),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    published: timestamp('published', { withTimezone: true }),
  },
  (t) => [uniqueIndex('summaries_scope_key').on(t.projectId, sql`coalesce(${t.moduleId}, 0)`)],
);

/**
 * A reader's thumbs up or down on a summary (adhocracy+'s SummaryFeedback: a signed-in user, or a
 * browser session without one), counted for the initiators beside the summary.
 */
export const summaryFeedback = pgTable(
  'summary_feedback',
  {
    id: serial('id').primaryKey(),
    summaryId: integer('summary_id')
      .notNull()
      .references(() => summaries.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    positive: boolean('positive').notNull(),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('summary_feedback_summary_idx').on(t.summaryId), uniqueIndex('summary_feedback_user_key').on(t.summaryId, t.userId)],
);
