import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { categories, modules, timestamps } from '../../db/schema/index.js';

/* The Interactive Event module type's tables: questions, their likes, the media component (drizzle.config.ts finds them here). */

/** A question of an Interactive Event (adhocracy+'s LiveQuestion): anonymous, no creator. */
export const liveQuestions = pgTable(
  'live_questions',
  {
    id: serial('id').primaryKey(),
    moduleId: integer('module_id')
      .notNull()
      .references(() => modules.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    /** The affiliation (a category of the module). */
    categoryId: integer('category_id').references(() => categories.id, { onDelete: 'set null' }),
    isAnswered: boolean('is_answered').notNull().default(false),
    isOnShortlist: boolean('is_on_shortlist').notNull().default(false),
    isHidden: boolean('is_hidden').notNull().default(false),
    isLive: boolean('is_live').notNull().default(false),
    ...timestamps,
  },
  (t) => [index('live_questions_module_idx').on(t.moduleId, t.created)],
);

/** One like per browser session and question (the session key is the hash the session table keeps). */
export const liveQuestionLikes = pgTable(
  'live_question_likes',
  {
    id: serial('id').primaryKey(),
    session: varchar('session', { length: 255 }).notNull(),
    liveQuestionId: integer('live_question_id')
      .notNull()
      .references(() => liveQuestions.id, { onDelete: 'cascade' }),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('live_question_likes_session_idx').on(t.liveQuestionId, t.session)],
);

/** The "Media" component of an Interactive Event: its live-stream link and event image. */
export const liveEventMedia = pgTable('live_event_media', {
  moduleId: integer('module_id')
    .primaryKey()
    .references(() => modules.id, { onDelete: 'cascade' }),
  liveStream: text('live_stream').notNull().default(''),
  eventImage: text('event_image'),
  modified: timestamp('modified', { withTimezone: true })
    .notNull()
    .default(sql`now()`),
});
