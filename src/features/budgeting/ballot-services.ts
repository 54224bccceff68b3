import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { budgetBallotChoices, budgetBallots, budgetSettings, budgetVoteCodes, proposalSupports } from './schema.js';
import { type BudgetSettings, supportLimitReached } from './ballot-rules.js';
import { newVoteCode, voteCodeHash } from './codes.js';
import { countSupports } from './ballot-queries.js';

/**
 * Writes of the support and voting phases. Each takes `tx` and runs inside the caller's
 * transaction; "one per participant" holds through unique constraints and row locks, so that it
 * also holds with several server instances on one PostgreSQL database.
 */

/** Saves part of a module's settings (the support form or the voting form), making the row the first time. */
export async function saveBudgetSettings(tx: Tx, moduleId: number, change: Partial<BudgetSettings>): Promise<void> {
  await tx
    .insert(budgetSettings)
    .values({ moduleId, ...change, modified: new Date() })
    .onConflictDoUpdate({ target: budgetSettings.moduleId, set: { ...change, modified: new Date() } });
}

type SupportOutcome = 'supported' | 'already' | 'limit';

/**
 * Supports a proposal for a participant, within the module's limit. The participant's row is
 * locked first, so that two supports of one participant at once are counted one after the other
 * (the limit holds); the primary key (proposal, user) makes a second support of one proposal a no-op.
 */
export async function supportProposal(tx: Tx, input: { userId: number; moduleId: number; proposalId: number; settings: Pick<BudgetSettings, 'supportLimit'> }): Promise<SupportOutcome> {
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
export async function withdrawSupport(tx: Tx, userId: number, proposalId: number): Promise<void> {
  await tx.delete(proposalSupports).where(and(eq(proposalSupports.proposalId, proposalId), eq(proposalSupports.userId, userId)));
}

async function replaceChoices(tx: Tx, ballotId: number, chosen: readonly number[]) {
  await tx.delete(budgetBallotChoices).where(eq(budgetBallotChoices.ballotId, ballotId));
  if (chosen.length) await tx.insert(budgetBallotChoices).values(chosen.map((proposalId) => ({ ballotId, proposalId })));
}

/**
 * Casts or changes a participant's ballot (checked by `ballotProblems` first): one ballot per
 * participant and module (the unique index); a second cast takes the row (and its lock) and
 * replaces its choices, so only the last ballot counts, also when two arrive at once.
 */
export async function castBallot(tx: Tx, input: { moduleId: number; userId: number; chosen: readonly number[] }): Promise<{ changed: boolean }> {
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
export async function castCodeBallot(tx: Tx, input: { moduleId: number; codeHash: string; chosen: readonly number[] }): Promise<boolean> {
  const [spent] = await tx
    .update(budgetVoteCodes)
    .set({ used: new Date() })
    .where(and(eq(budgetVoteCodes.moduleId, input.moduleId), eq(budgetVoteCodes.codeHash, input.codeHash), sql`${budgetVoteCodes.used} is null`))
    .returning({ id: budgetVoteCodes.id });
  if (!spent) return false;
  const [ballot] = await tx.insert(budgetBallots).values({ moduleId: input.moduleId, voteCodeId: spent.id }).returning({ id: budgetBallots.id });
  await replaceChoices(tx, ballot.id, input.chosen);
  return true;
}

/**
 * Generates `count` new single-use codes for a module (a code that happens to exist already is
 * drawn again) and answers them: only their keyed hashes are stored, so this is the one time the
 * codes exist in the clear (the initiator downloads them from this answer).
 */
export async function generateVoteCodes(tx: Tx, moduleId: number, count: number, secretKey: string): Promise<string[]> {
  const made: string[] = [];
  while (made.length < count) {
    const codes = new Map(Array.from({ length: Math.min(1000, count - made.length) }, () => newVoteCode()).map((code) => [voteCodeHash(secretKey, code), code]));
    const stored = await tx
      .insert(budgetVoteCodes)
      .values([...codes.keys()].map((codeHash) => ({ moduleId, codeHash })))
      .onConflictDoNothing()
      .returning({ codeHash: budgetVoteCodes.codeHash });
    for (const row of stored) made.push(codes.get(row.codeHash ?? '') ?? '');
  }
  return made;
}

/** Copies a module's budget and rules to another (*Duplicate* of a project; issue 36.10). */
export async function copyBudgetSettings(tx: Tx, fromModuleId: number, toModuleId: number): Promise<void> {
  const [settings] = await tx.select().from(budgetSettings).where(eq(budgetSettings.moduleId, fromModuleId));
  if (settings) await tx.insert(budgetSettings).values({ ...settings, moduleId: toModuleId, modified: new Date() });
}

/**
 * Stores the keyed hash of each code kept in the clear from before (migration 0036) and clears the
 * code: once per start, before anyone votes (main.ts, `manage migrate`). Idempotent.
 */
export async function hashLegacyVoteCodes(db: Db, secretKey: string): Promise<number> {
  const legacy = await db.select({ id: budgetVoteCodes.id, code: budgetVoteCodes.legacyCode }).from(budgetVoteCodes).where(isNotNull(budgetVoteCodes.legacyCode));
  if (!legacy.length) return 0;
  await db.transaction(async (tx) => {
    for (const row of legacy) await tx.update(budgetVoteCodes).set({ codeHash: voteCodeHash(secretKey, row.code ?? ''), legacyCode: null }).where(eq(budgetVoteCodes.id, row.id));
  });
  return legacy.length;
}
