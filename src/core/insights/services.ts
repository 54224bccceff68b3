import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { projectInsightDays as days, projectInsightParticipants as participants } from '../../db/schema/index.js';

export type ContributionKind = 'ideas' | 'comments' | 'ratings' | 'votes';

interface Contribution {
  /** The project, as SQL: a value, or a column of the statement's other CTEs (`m.project_id`). */
  project: SQL;
  /** What the project's row comes from (`from m, i`), empty for plain values. */
  from?: SQL;
  /** The creator's id, as SQL: a value (`${id}::integer`) or a placeholder. */
  creatorId: SQL;
  kind: ContributionKind;
  /** When, as SQL: a timestamptz value or placeholder. */
  at: SQL;
}

/**
 * Two CTEs that count one contribution (§B17): the creator joins the project's participants (once)
 * and the day's counters go up, the participants' only if the creator is new. Atomic upserts, so
 * that concurrent contributions on PostgreSQL count exactly once; part of the content's statement
 * (createIdea) or of its transaction (countContribution).
 */
export function contributionCtes(c: Contribution): SQL {
  const from = c.from ?? sql``;
  const day = sql`(${c.at} at time zone 'UTC')::date`;
  const column = sql.identifier(c.kind);
  return sql`insight_new as (
      insert into ${participants} (project_id, user_id) select ${c.project}, ${c.creatorId} ${from}
      on conflict do nothing returning 1),
    insight_day as (
      insert into ${days} (project_id, day, ${column}, participants) select ${c.project}, ${day}, 1, (select count(*) from insight_new) ${from}
      on conflict (project_id, day) do update set ${column} = ${days}.${column} + 1, participants = ${days}.participants + excluded.participants)`;
}

/** Counts a comment or rating in the caller's transaction; content outside any project is not counted. */
export async function countContribution(db: DbOrTx, projectId: number | null, creatorId: number, kind: ContributionKind, at: Date): Promise<void> {
  if (projectId === null) return;
  await db.execute(sql`with ${contributionCtes({ project: sql`${projectId}::integer`, creatorId: sql`${creatorId}::integer`, kind, at: sql`${at.toISOString()}::timestamptz` })} select 1`);
}
