import { inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { mapIdeas, proposalLabels, proposals } from '../../db/schema/index.js';
import { ITEM_SEGMENTS } from '../../core/urls.js';
import { asIdeaLabels, asIdeaTable } from '../ideas/kinds.js';
import type { PlaceKind } from '../mapideas/queries.js';

/** Proposals (participatory budgeting): map ideas with a budget and an archived flag, under `/<org>/budgeting/`. */
export const PROPOSAL_KIND: PlaceKind = {
  kind: 'proposal',
  table: asIdeaTable(proposals),
  labels: asIdeaLabels(proposalLabels),
  segment: ITEM_SEGMENTS.proposal,
  extraColumns: [
    { name: 'point', type: 'jsonb' },
    { name: 'point_label', type: 'varchar', default: "''" },
    { name: 'budget', type: 'integer', default: '0' },
    { name: 'is_archived', type: 'boolean', default: 'false' },
  ],
  // The proposals' place columns are the map ideas' (same names and types).
  placeTable: proposals as unknown as typeof mapIdeas,
};

export interface ProposalFacts {
  budget: number;
  isArchived: boolean;
}

/** The budget and archived flag of proposals, by id: one statement. */
export async function loadProposalFacts(db: DbOrTx, ids: number[]): Promise<Map<number, ProposalFacts>> {
  if (!ids.length) return new Map();
  const rows = await db.select({ id: proposals.id, budget: proposals.budget, isArchived: proposals.isArchived }).from(proposals).where(inArray(proposals.id, ids));
  return new Map(rows.map(({ id, ...facts }) => [id, facts]));
}
