import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { phases } from '../../db/schema/index.js';
import { proposals } from './schema.js';
import { budgetBallotChoices, budgetBallots, budgetSettings, budgetVoteCodes, proposalSupports } from './schema.js';
import { type BudgetSettings, DEFAULT_SETTINGS, goesToVote, rankResults, SUPPORT_PHASE } from './ballot-rules.js';

/** Reads of the support and voting phases: one or two statements each, whatever the number of proposals. */

const settingsColumns = {
  moduleId: budgetSettings.moduleId,
  supportLimit: budgetSettings.supportLimit,
  supportThreshold: budgetSettings.supportThreshold,
  totalBudget: budgetSettings.totalBudget,
  rule: budgetSettings.rule,
  minPercent: budgetSettings.minPercent,
  minProposals: budgetSettings.minProposals,
  maxProposals: budgetSettings.maxProposals,
};

/** The settings of some modules (defaults where none were saved). */
export async function loadBudgetSettingsMany(db: DbOrTx, moduleIds: number[]): Promise<Map<number, BudgetSettings>> {
  const rows = moduleIds.length ? await db.select(settingsColumns).from(budgetSettings).where(inArray(budgetSettings.moduleId, moduleIds)) : [];
  const byModule = new Map(rows.map(({ moduleId, ...settings }) => [moduleId, settings]));
  return new Map(moduleIds.map((id) => [id, byModule.get(id) ?? DEFAULT_SETTINGS]));
}

export const loadBudgetSettings = async (db: DbOrTx, moduleId: number): Promise<BudgetSettings> => (await loadBudgetSettingsMany(db, [moduleId])).get(moduleId) ?? DEFAULT_SETTINGS;

interface SupportedProposal {
  id: number;
  name: string;
  budget: number;
  created: Date;
  isArchived: boolean;
  supports: number;
  /** The viewer supports it. */
  supported: boolean;
}

/** A module's proposals with their support counts and whether the viewer supports each (archived ones too: the caller decides). */
export async function loadSupportedProposals(db: DbOrTx, moduleId: number, userId: number | null): Promise<SupportedProposal[]> {
  const rows = await db
    .select({
      id: proposals.id,
      name: proposals.name,
      budget: proposals.budget,
      created: proposals.created,
      isArchived: proposals.isArchived,
      supports: sql<number>`(select count(*) from ${proposalSupports} where ${proposalSupports.proposalId} = ${proposals.id})`.mapWith(Number),
      supported:
        userId === null
          ? sql<boolean>`false`
          : sql<boolean>`exists (select 1 from ${proposalSupports} where ${proposalSupports.proposalId} = ${proposals.id} and ${proposalSupports.userId} = ${userId})`,
    })
    .from(proposals)
    .where(eq(proposals.moduleId, moduleId))
    .orderBy(asc(proposals.id));
  return rows.map((row) => ({ ...row, supported: Boolean(row.supported) }));
}

/** How many proposals a participant supports in a module. */
export async function countSupports(db: DbOrTx, moduleId: number, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(proposalSupports).where(and(eq(proposalSupports.moduleId, moduleId), eq(proposalSupports.userId, userId)));
  return row?.n ?? 0;
}

/** The proposals on a module's ballot: not archived and, after a support phase, over the threshold. */
export async function loadBallotProposals(db: DbOrTx, module: { id: number; phases: { type: string }[] }, settings: BudgetSettings): Promise<SupportedProposal[]> {
  const hasSupportPhase = module.phases.some((p) => p.type === SUPPORT_PHASE);
  return (await loadSupportedProposals(db, module.id, null)).filter((p) => goesToVote(p, settings, hasSupportPhase));
}

/** The proposals on a participant's ballot in a module (empty: no ballot yet), and whether there is one. */
export async function loadOwnBallot(db: DbOrTx, moduleId: number, userId: number): Promise<{ exists: boolean; chosen: number[] }> {
  const rows = await db
    .select({ ballotId: budgetBallots.id, proposalId: budgetBallotChoices.proposalId })
    .from(budgetBallots)
    .leftJoin(budgetBallotChoices, eq(budgetBallotChoices.ballotId, budgetBallots.id))
    .where(and(eq(budgetBallots.moduleId, moduleId), eq(budgetBallots.userId, userId)));
  return { exists: rows.length > 0, chosen: rows.flatMap((r) => (r.proposalId === null ? [] : [r.proposalId])).sort((a, b) => a - b) };
}

/** Every proposal of a module with its votes (the choices on all ballots), and the number of ballots. */
async function loadVoteCounts(db: DbOrTx, moduleId: number): Promise<{ ballots: number; proposals: { id: number; name: string; budget: number; isArchived: boolean; created: Date; votes: number }[] }> {
  const rows = await db
    .select({
      id: proposals.id,
      name: proposals.name,
      budget: proposals.budget,
      isArchived: proposals.isArchived,
      created: proposals.created,
      votes: sql<number>`(select count(*) from ${budgetBallotChoices} where ${budgetBallotChoices.proposalId} = ${proposals.id})`.mapWith(Number),
    })
    .from(proposals)
    .where(eq(proposals.moduleId, moduleId))
    .orderBy(asc(proposals.id));
  const [ballots] = await db.select({ n: count() }).from(budgetBallots).where(eq(budgetBallots.moduleId, moduleId));
  return { ballots: ballots?.n ?? 0, proposals: rows };
}

/** How many codes a module has, and how many are spent. */
export async function countVoteCodes(db: DbOrTx, moduleId: number): Promise<{ total: number; used: number }> {
  const [row] = await db
    .select({ total: count(), used: count(budgetVoteCodes.used) })
    .from(budgetVoteCodes)
    .where(eq(budgetVoteCodes.moduleId, moduleId));
  return { total: row?.total ?? 0, used: row?.used ?? 0 };
}


/** Whether a code of the module exists and is still unspent (the ballot form of a code voter; casting checks again, atomically). */
export async function voteCodeUsable(db: DbOrTx, moduleId: number, codeHash: string): Promise<boolean> {
  const [row] = await db
    .select({ id: budgetVoteCodes.id })
    .from(budgetVoteCodes)
    .where(and(eq(budgetVoteCodes.moduleId, moduleId), eq(budgetVoteCodes.codeHash, codeHash), sql`${budgetVoteCodes.used} is null`));
  return Boolean(row);
}

/**
 * The result of a module's vote: every proposal that was on the ballot (or got votes before it
 * left it), ranked, winners marked (`rankResults`); the settings and the number of ballots.
 */
export async function loadResult(db: DbOrTx, module: { id: number; phases: { type: string }[] }) {
  const settings = await loadBudgetSettings(db, module.id);
  const counts = await loadVoteCounts(db, module.id);
  const onBallot = new Set((await loadBallotProposals(db, module, settings)).map((p) => p.id));
  const rows = rankResults(
    counts.proposals.filter((p) => p.votes > 0 || onBallot.has(p.id)),
    settings.totalBudget ?? 0,
  );
  return { settings, ballots: counts.ballots, rows };
}

/** The winners of a module's vote with their budget (the results dashboard turns them into results): none before anyone voted. */
export async function loadWinners(db: DbOrTx, moduleId: number): Promise<{ id: number; name: string; budget: number }[]> {
  const modulePhases = await db.select({ type: phases.type }).from(phases).where(eq(phases.moduleId, moduleId));
  const { rows } = await loadResult(db, { id: moduleId, phases: modulePhases });
  return rows.filter((row) => row.winner).map((row) => ({ id: row.id, name: row.name, budget: row.budget }));
}
