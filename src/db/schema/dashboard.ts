import { sql } from 'drizzle-orm';
import { index, integer, pgEnum, pgTable, serial, timestamp, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { projects } from './projects.js';
import { users } from './users.js';

export const inviteRole = pgEnum('invite_role', ['moderator', 'participant']);
export type InviteRole = (typeof inviteRole.enumValues)[number];

/** An invitation to moderate or take part in a project, sent to an e-mail address (§A5.5, §B14). */
export const projectInvites = pgTable(
  'project_invites',
  {
    id: serial('id').primaryKey(),
    token: uuid('token').notNull().unique().defaultRandom(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    role: inviteRole('role').notNull(),
    email: varchar('email', { length: 254 }).notNull(),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('project_invites_project_role_email_key').on(t.projectId, t.role, sql`lower(${t.email})`), index('project_invites_project_idx').on(t.projectId)],
);
