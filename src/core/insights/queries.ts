import { asc, eq, type SQLWrapper, sql } from 'drizzle-orm';
import { moduleTypeOf } from '../modules/registry.js';
import type { DbOrTx } from '../../db/client.js';
import { projectInsightDays as days } from '../../db/schema/index.js';

export interface InsightDay {
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  ideas: number;
  comments: number;
  ratings: number;
  /** Poll ballots. */
  votes: number;
  participants: number;
}

export interface ProjectInsights {
  totals: Omit<InsightDay, 'day'>;
  /** Days with contributions, oldest first. */
  days: InsightDay[];
}

const total = (column: SQLWrapper) => sql<number>`sum(${column})::integer`.mapWith(Number);

/** A project's statistics (§B17): its counters by day (the sums of each day's rows) and their sums, in one statement. */
export async function loadProjectInsights(db: DbOrTx, projectId: number): Promise<ProjectInsights> {
  const rows = await db
    .select({ day: days.day, ideas: total(days.ideas), comments: total(days.comments), ratings: total(days.ratings), votes: total(days.votes), participants: total(days.participants) })
    .from(days)
    .where(eq(days.projectId, projectId))
    .groupBy(days.day)
    .orderBy(asc(days.day));
  const sum = (key: keyof Omit<InsightDay, 'day'>) => rows.reduce((n, row) => n + row[key], 0);
  return { totals: { ideas: sum('ideas'), comments: sum('comments'), ratings: sum('ratings'), votes: sum('votes'), participants: sum('participants') }, days: rows };
}

/** Whether a project has modules where ideas are written (§B17.2: the ideas counter is shown only then). */
export const hasIdeaModules = (blueprintTypes: string[]) => blueprintTypes.some((type) => moduleTypeOf(type)?.countsIdeas === true);
