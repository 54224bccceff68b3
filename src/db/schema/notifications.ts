import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { projects } from './projects.js';
import { userRef } from './users.js';

/**
 * An in-app notification (adhocracy+'s `notifications.Notification`): what the notification centre
 * and the bell show. `message` is an English catalogue key with `%(name)s` places that `context`
 * fills, translated when it is shown (a+'s message_template and context); `target_url` is a path on
 * this site ('' when there is nothing to open). Recorded in the transaction of the event that also
 * queues the notification e-mail (core/notifications/services.ts).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    recipientId: userRef('recipient_id'),
    /** The kind (mail/notices.ts NOTIFICATION_KINDS; an imported a+ type is kept as it came). */
    kind: varchar('kind', { length: 64 }).notNull(),
    message: varchar('message', { length: 255 }).notNull(),
    context: jsonb('context').$type<Record<string, string>>().notNull().default({}),
    targetUrl: text('target_url').notNull().default(''),
    /** The project it is about: it goes with the project (a+ 0005_notification_project). */
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    read: boolean('read').notNull().default(false),
    readAt: timestamp('read_at', { withTimezone: true }),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_recipient_idx').on(t.recipientId, t.created.desc(), t.id.desc()),
    // The bell's count on every page reads only the unread ones.
    index('notifications_unread_idx')
      .on(t.recipientId)
      .where(sql`NOT ${t.read}`),
  ],
);

/**
 * A kind of in-app notification the user turned off on `/account/notifications/` (the in-app twin
 * of notification_optouts, which holds the e-mails; a+'s notify_* settings).
 */
export const notificationInappOptouts = pgTable(
  'notification_inapp_optouts',
  {
    userId: userRef(),
    kind: varchar('kind', { length: 64 }).notNull(),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);
