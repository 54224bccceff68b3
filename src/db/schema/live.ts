import { sql } from 'drizzle-orm';
import { bigserial, boolean, customType, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from './common.js';
import { categories, modules } from './projects.js';

/** PostgreSQL's 64-bit transaction id (never wraps around), as its decimal text. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * The live channel's recent events (src/http/live.ts): every published event is kept here for a
 * while, so that a client reconnecting with Last-Event-ID gets what it missed. `xid` is the writing
 * transaction: a reader's position is a snapshot, and the events after it are those whose
 * transaction it did not see (writers take no lock; ids need not follow the commit order).
 */
export const liveEvents = pgTable(
  'live_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    topic: varchar('topic', { length: 100 }).notNull(),
    event: varchar('event', { length: 50 }).notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    xid: xid8('xid')
      .notNull()
      .default(sql`pg_current_xact_id()`),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('live_events_topic_idx').on(t.topic, t.id), index('live_events_xid_idx').on(t.xid), index('live_events_created_idx').on(t.created)],
);

/** The newest writing transaction whose events were purged (one row, id 1): a position before it may have missed some. */
export const livePurged = pgTable('live_purged', {
  id: smallint('id').primaryKey(),
  xid: xid8('xid').notNull(),
});

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
