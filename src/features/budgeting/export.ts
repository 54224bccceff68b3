import { placedBatches, placedSheetOf, type PlacedRow } from '../mapideas/export.js';
import type { Sheet } from '../moduletypes/contract.js';
import { loadProposalFacts, PROPOSAL_KIND } from './queries.js';
import type { DbOrTx } from '../../db/client.js';
import { t } from '../../i18n/index.js';

type ProposalRow = PlacedRow & { budget: number; isArchived: boolean };

/** The proposals of a module in batches, with their places, budgets and archived flags. */
export async function* proposalBatches(db: DbOrTx, moduleId: number): AsyncGenerator<ProposalRow[]> {
  for await (const batch of placedBatches(db, moduleId, PROPOSAL_KIND)) {
    const facts = await loadProposalFacts(db, batch.map((p) => p.id));
    yield batch.map((row) => ({ ...row, budget: facts.get(row.id)?.budget ?? 0, isArchived: facts.get(row.id)?.isArchived ?? false }));
  }
}

/** §4.2: the budgeting export: the map idea columns (longitude, latitude, place label) plus budget and archived. */
export const PROPOSAL_SHEET: Sheet<ProposalRow> = (() => {
  const placed = placedSheetOf(PROPOSAL_KIND);
  return {
    title: 'Proposals',
    columns: [...placed.columns, 'Budget', 'Archived'],
    cells: (row, c) => [...placed.cells(row, c), row.budget, t(c.lang, row.isArchived ? 'yes' : 'no')],
  };
})();
