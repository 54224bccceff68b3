import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { proposalLabels, proposals } from './schema.js';
import { mapIdeas } from '../mapideas/schema.js';
import { budgetBallotChoices, budgetBallots, proposalSupports } from './schema.js';
import { ITEM_SEGMENTS } from '../../core/urls.js';
import { asIdeaLabels, asIdeaTable } from '../idealike/kinds.js';
import type { PlaceKind } from '../mapideas/queries.js';
import { PROPOSAL_WORDS } from './words.js';

/** Proposals (participatory budgeting): map ideas with a budget and an archived flag, under `/<org>/budgeting/`. */
export const PROPOSAL_KIND: PlaceKind = {
  kind: 'proposal',
  table: asIdeaTable(proposals),
  labels: asIdeaLabels(proposalLabels),
  segment: ITEM_SEGMENTS.proposal,
  words: PROPOSAL_WORDS,
  extraColumns: [
    { name: 'point', type: 'jsonb' },
    { name: 'point_label', type: 'varchar', default: "''" },
    { name: 'budget', type: 'integer', default: '0' },
    { name: 'is_archived', type: 'boolean', default: 'false' },
  ],
  // The proposals' place columns are the map ideas' (same names and types).
  placeTable: proposals as unknown as typeof mapIdeas,
  takenPartIn: proposalsOthersBackedOf,
};

/** The proposals among `ids` that others than `userId` supported or chose on a ballot (a vote code's too): they outlive their author's account. */
async function proposalsOthersBackedOf(db: DbOrTx, userId: number, ids: number[]): Promise<number[]> {
  const supported = await db.select({ id: proposalSupports.proposalId }).from(proposalSupports).where(and(inArray(proposalSupports.proposalId, ids), ne(proposalSupports.userId, userId)));
  const chosen = await db
    .select({ id: budgetBallotChoices.proposalId })
    .from(budgetBallotChoices)
    .innerJoin(budgetBallots, eq(budgetBallots.id, budgetBallotChoices.ballotId))
    .where(and(inArray(budgetBallotChoices.proposalId, ids), sql`${budgetBallots.userId} is distinct from ${userId}`));
  return [...supported, ...chosen].map((r) => r.id);
}

interface ProposalFacts {
  budget: number;
  isArchived: boolean;
}

/** The budget and archived flag of proposals, by id: one statement. */
export async function loadProposalFacts(db: DbOrTx, ids: number[]): Promise<Map<number, ProposalFacts>> {
  if (!ids.length) return new Map();
  const rows = await db.select({ id: proposals.id, budget: proposals.budget, isArchived: proposals.isArchived }).from(proposals).where(inArray(proposals.id, ids));
  return new Map(rows.map(({ id, ...facts }) => [id, facts]));
}
