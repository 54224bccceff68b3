import { date, index, integer, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { projects } from './projects.js';
import { userRef } from './users.js';

/**
 * Statistics of a project (§B17) by day (UTC): the services that create ideas, comments and
 * ratings append one row per contribution (in the same statement or transaction), never updating a
 * shared row, so concurrent writers of one project never queue on it. A day's figures are the sums
 * of its rows; the background job (and loaddata) merge each day's rows into one
 * (`compactProjectInsights`). The project's totals are the sums of its days.
 */
export const projectInsightDays = pgTable(
  'project_insight_days',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    ideas: integer('ideas').notNull().default(0),
    comments: integer('comments').notNull().default(0),
    ratings: integer('ratings').notNull().default(0),
    /** Poll ballots: a registered voter's first ballot in a poll (voting again replaces it). */
    votes: integer('votes').notNull().default(0),
    /** Active participants whose first contribution to the project was on this day. */
    participants: integer('participants').notNull().default(0),
  },
  (t) => [index('project_insight_days_project_day_idx').on(t.projectId, t.day)],
);

/** Who has contributed to a project (an idea, comment or rating): makes "active participants" a distinct count. */
export const projectInsightParticipants = pgTable(
  'project_insight_participants',
  {
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: userRef(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] }), index('project_insight_participants_user_idx').on(t.userId)],
);
