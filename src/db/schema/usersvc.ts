import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';

/** The user/session service's own tables: nothing here refers to the platform's tables. */
export const usersvcUsers = pgTable(
  'usersvc_users',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    isAdmin: boolean('is_admin').notNull().default(false),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('usersvc_users_name_key').on(sql`lower(${t.name})`), uniqueIndex('usersvc_users_email_key').on(sql`lower(${t.email})`)],
);

export const usersvcSessions = pgTable(
  'usersvc_sessions',
  {
    token: varchar('token', { length: 64 }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .unique()
      .references(() => usersvcUsers.id, { onDelete: 'cascade' }),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    timeoutSeconds: integer('timeout_seconds').notNull(),
  },
  (t) => [index('usersvc_sessions_ends_idx').on(t.endsAt)],
);

export const usersvcLogins = pgTable(
  'usersvc_logins',
  {
    token: varchar('token', { length: 64 })
      .notNull()
      .references(() => usersvcSessions.token, { onDelete: 'cascade' }),
    serviceId: text('service_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.token, t.serviceId] })],
);

export const usersvcServices = pgTable('usersvc_services', {
  id: varchar('id', { length: 64 }).primaryKey(),
  keyHash: text('key_hash').notNull(),
  created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
});
