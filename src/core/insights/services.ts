import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { projectInsightDays as days, projectInsightParticipants as participants } from '../../db/schema/index.js';

type ContributionKind = 'ideas' | 'comments' | 'ratings' | 'votes';

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
 * Two CTEs that count one contribution (§B17): the creator joins the project's participants (once,
 * an insert that does nothing on conflict) and a new row of the day says 1 contribution and 1
 * participant if the creator is new. Only inserts, no update of a shared row: concurrent writers of
 * one project never wait for each other (the day's rows are summed on read and merged later by
 * compactProjectInsights). Part of the content's statement (createIdea) or of its transaction
 * (countContribution).
 */
export function contributionCtes(c: Contribution): SQL {
  const from = c.from ?? sql``;
  const day = sql`(${c.at} at time zone 'UTC')::date`;
  const column = sql.identifier(c.kind);
  return sql`insight_new as (
      insert into ${participants} (project_id, user_id) select ${c.project}, ${c.creatorId} ${from}
      on conflict do nothing returning 1),
    insight_day as (
      insert into ${days} (project_id, day, ${column}, participants) select ${c.project}, ${day}, 1, (select count(*) from insight_new) ${from})`;
}

/** Counts a comment or rating in the caller's transaction; content outside any project is not counted. */
export async function countContribution(db: DbOrTx, projectId: number | null, creatorId: number, kind: ContributionKind, at: Date): Promise<void> {
  if (projectId === null) return;
  await db.execute(sql`with ${contributionCtes({ project: sql`${projectId}::integer`, creatorId: sql`${creatorId}::integer`, kind, at: sql`${at.toISOString()}::timestamptz` })} select 1`);
}

/**
 * Merges each project day's rows into one, in one statement: the rows it deletes are the ones it
 * sums, so a contribution committed meanwhile stays as its own row, and two instances merging at
 * once never count a row twice (the second waits for the first's delete and then skips the rows
 * gone). Run by the background job and after loaddata; reads sum the rows either way.
 */
export async function compactProjectInsights(db: Tx): Promise<void> {
  await db.execute(sql`with merged as (
      delete from ${days} d using (select project_id, day from ${days} group by project_id, day having count(*) > 1) g
      where d.project_id = g.project_id and d.day = g.day
      returning d.project_id, d.day, d.ideas, d.comments, d.ratings, d.votes, d.participants)
    insert into ${days} (project_id, day, ideas, comments, ratings, votes, participants)
    select project_id, day, sum(ideas), sum(comments), sum(ratings), sum(votes), sum(participants) from merged group by project_id, day`);
}
