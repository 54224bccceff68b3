import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { budgetBallotChoices, budgetBallots, budgetSettings, budgetVoteCodes, proposalSupports } from './schema.js';
import { type BudgetSettings, supportLimitReached } from './ballot-rules.js';
import { newVoteCode } from './codes.js';
import { countSupports } from './ballot-queries.js';

/**
 * Writes of the support and voting phases. Each takes `tx` and runs inside the caller's
 * transaction; "one per participant" holds through unique constraints and row locks, so that it
 * also holds with several server instances on one PostgreSQL database.
 */

/** Saves part of a module's settings (the support form or the voting form), making the row the first time. */
export async function saveBudgetSettings(tx: DbOrTx, moduleId: number, change: Partial<BudgetSettings>): Promise<void> {
  await tx
    .insert(budgetSettings)
    .values({ moduleId, ...change, modified: new Date() })
    .onConflictDoUpdate({ target: budgetSettings.moduleId, set: { ...change, modified: new Date() } });
}

export type SupportOutcome = 'supported' | 'already' | 'limit';

/**
 * Supports a proposal for a participant, within the module's limit. The participant's row is
 * locked first, so that two supports of one participant at once are counted one after the other
 * (the limit holds); the primary key (proposal, user) makes a second support of one proposal a no-op.
 */
export async function supportProposal(tx: DbOrTx, input: { userId: number; moduleId: number; proposalId: number; settings: Pick<BudgetSettings, 'supportLimit'> }): Promise<SupportOutcome> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, input.userId)).for('update');
  const [already] = await tx
    .select({ id: proposalSupports.proposalId })
    .from(proposalSupports)
    .where(and(eq(proposalSupports.proposalId, input.proposalId), eq(proposalSupports.userId, input.userId)));
  if (already) return 'already';
  if (supportLimitReached(await countSupports(tx, input.moduleId, input.userId), input.settings)) return 'limit';
  const inserted = await tx.insert(proposalSupports).values({ proposalId: input.proposalId, userId: input.userId, moduleId: input.moduleId }).onConflictDoNothing().returning({ id: proposalSupports.proposalId });
  return inserted.length ? 'supported' : 'already';
}

/** Takes a participant's support of a proposal back (nothing happens when there was none). */
export async function withdrawSupport(tx: DbOrTx, userId: number, proposalId: number): Promise<void> {
  await tx.delete(proposalSupports).where(and(eq(proposalSupports.proposalId, proposalId), eq(proposalSupports.userId, userId)));
}

async function replaceChoices(tx: DbOrTx, ballotId: number, chosen: readonly number[]) {
  await tx.delete(budgetBallotChoices).where(eq(budgetBallotChoices.ballotId, ballotId));
  if (chosen.length) await tx.insert(budgetBallotChoices).values(chosen.map((proposalId) => ({ ballotId, proposalId })));
}

/**
 * Casts or changes a participant's ballot (checked by `ballotProblems` first): one ballot per
 * participant and module (the unique index); a second cast takes the row (and its lock) and
 * replaces its choices, so only the last ballot counts, also when two arrive at once.
 */
export async function castBallot(tx: DbOrTx, input: { moduleId: number; userId: number; chosen: readonly number[] }): Promise<{ changed: boolean }> {
  const [ballot] = await tx
    .insert(budgetBallots)
    .values({ moduleId: input.moduleId, userId: input.userId })
    .onConflictDoUpdate({ target: [budgetBallots.moduleId, budgetBallots.userId], set: { modified: new Date() } })
    .returning({ id: budgetBallots.id, modified: budgetBallots.modified });
  await replaceChoices(tx, ballot.id, input.chosen);
  return { changed: ballot.modified !== null };
}

/**
 * Casts the one ballot of a vote code (checked by `ballotProblems` first). The code is spent by a
 * conditional update: of two requests with one code, the second waits for the first's row lock,
 * then finds the code used and changes nothing. Returns false for an unknown or spent code.
 */
export async function castCodeBallot(tx: DbOrTx, input: { moduleId: number; code: string; chosen: readonly number[] }): Promise<boolean> {
  const [spent] = await tx
    .update(budgetVoteCodes)
    .set({ used: new Date() })
    .where(and(eq(budgetVoteCodes.moduleId, input.moduleId), eq(budgetVoteCodes.code, input.code), sql`${budgetVoteCodes.used} is null`))
    .returning({ id: budgetVoteCodes.id });
  if (!spent) return false;
  const [ballot] = await tx.insert(budgetBallots).values({ moduleId: input.moduleId, voteCodeId: spent.id }).returning({ id: budgetBallots.id });
  await replaceChoices(tx, ballot.id, input.chosen);
  return true;
}

/** Generates `count` new single-use codes for a module (a code that happens to exist already is drawn again). */
export async function generateVoteCodes(tx: DbOrTx, moduleId: number, count: number): Promise<number> {
  let made = 0;
  while (made < count) {
    const batch = Array.from({ length: Math.min(1000, count - made) }, () => ({ moduleId, code: newVoteCode() }));
    made += (await tx.insert(budgetVoteCodes).values(batch).onConflictDoNothing().returning({ id: budgetVoteCodes.id })).length;
  }
  return made;
}
