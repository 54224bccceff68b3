import { sql } from 'drizzle-orm';
import { bigserial, customType, index, jsonb, pgTable, smallint, timestamp, varchar } from 'drizzle-orm/pg-core';

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
