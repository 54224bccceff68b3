import type { Db } from '../../../src/db/client.js';
import { budgetBallotChoices, budgetBallots } from '../../../src/features/budgeting/schema.js';
import { BUDGET_MODULES, budgetApp, proposalId } from '../budgeting/world.js';

/**
 * The budgeting world (organisation 1 with the public project 1 and the private project 5,
 * organisation 2 with project 4) whose counted vote (module 32 in project 1, voting over) has
 * ballots: "Park 32" (50,000 €) and "Bridge 32" (30,000 €) win, "Bench 32" and "Pool 32" get no
 * vote. Every proposal's author is user 5 ("user").
 */
export const COUNTED = BUDGET_MODULES.counted;
export const PARK = proposalId(COUNTED, 1);
export const BRIDGE = proposalId(COUNTED, 2);

export async function castBallots(db: Db) {
  const ballots = await db
    .insert(budgetBallots)
    .values([3, 4, 6].map((userId) => ({ moduleId: COUNTED, userId })))
    .returning({ id: budgetBallots.id });
  await db.insert(budgetBallotChoices).values([
    { ballotId: ballots[0].id, proposalId: PARK },
    { ballotId: ballots[0].id, proposalId: BRIDGE },
    { ballotId: ballots[1].id, proposalId: PARK },
    { ballotId: ballots[1].id, proposalId: BRIDGE },
    { ballotId: ballots[2].id, proposalId: PARK },
  ]);
}

export async function resultsApp() {
  const t = await budgetApp();
  await castBallots(t.db);
  return t;
}
