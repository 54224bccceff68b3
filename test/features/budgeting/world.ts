import assert from 'node:assert/strict';
import type { Fixture } from '../../../src/cli/fixture-schema.js';
import type { Db } from '../../../src/db/client.js';
import { proposals } from '../../../src/features/budgeting/schema.js';
import { budgetSettings } from '../../../src/features/budgeting/schema.js';
import { daysFromNow } from '../../fixtures.js';
import { dashboardApp, dashboardWorld } from '../../manage/world.js';

/**
 * dashboardWorld (organisation 1 with project 1, public; organisation 2 with project 4) plus
 * participatory budgets with support and vote (PB3) in every state of their phases, and proposals:
 * module 30 `supporting` (support phase running), 31 `voting` (voting phase running),
 * 32 `counted` (voting over), 33 `foreign-vote` (organisation 2, voting running), 34 `private-vote`
 * in a private project 5 of organisation 1 (voting running), 35 `private-support` there (support running).
 */
const SUBMIT = 'a4_candy_budgeting:submit';
const SUPPORT = 'a4_candy_budgeting:support';
const VOTING = 'a4_candy_budgeting:voting';
type Timing = 'supporting' | 'voting' | 'over';
const DAYS: Record<Timing, [[number, number], [number, number], [number, number]]> = {
  supporting: [[-30, -10], [-10, 5], [5, 10]],
  voting: [[-30, -20], [-20, -2], [-1, 10]],
  over: [[-30, -20], [-20, -12], [-10, -1]],
};
const phasesFor = (timing: Timing) =>
  ([SUBMIT, SUPPORT, VOTING] as const).map((type, i) => ({ type, name: type.split(':')[1], description: 'A phase', start_date: daysFromNow(DAYS[timing][i][0]), end_date: daysFromNow(DAYS[timing][i][1]) }));

export const BUDGET_MODULES = { supporting: 30, voting: 31, counted: 32, foreign: 33, private: 34, privateSupport: 35 } as const;

/** A participatory budget with support and vote (PB3) whose phases are at `timing`. */
export const budgetModule = (id: number, slug: string, project: number, timing: Timing) => ({ id, slug, project, name: `Budget ${slug}`, description: 'Money', blueprint_type: 'PB3', phases: phasesFor(timing) });

export function budgetWorld(): Fixture {
  const world = dashboardWorld();
  const module = budgetModule;
  return {
    ...world,
    projects: [...(world.projects ?? []), { id: 5, slug: 'private-plan', name: 'Private plan', organisation: 1, access: 'PRIVATE', participants: [4], moderators: [3] }],
    modules: [
      ...(world.modules ?? []),
      module(30, 'supporting', 1, 'supporting'),
      module(31, 'voting', 1, 'voting'),
      module(32, 'counted', 1, 'over'),
      module(33, 'foreign-vote', 4, 'voting'),
      module(34, 'private-vote', 5, 'voting'),
      module(35, 'private-support', 5, 'supporting'),
    ],
  };
}

/** Proposals: per budget module (all of budgetWorld's unless given) four, ids `module*10 + 1..4`, budgets 50,000 / 30,000 / 20,000 / 60,000 €. */
export const proposalId = (moduleId: number, n: 1 | 2 | 3 | 4) => moduleId * 10 + n;
const BUDGETS = [50_000, 30_000, 20_000, 60_000];
const NAMES = ['Park', 'Bridge', 'Bench', 'Pool'];

export async function seedProposals(db: Db, moduleIds: readonly number[] = Object.values(BUDGET_MODULES)) {
  for (const moduleId of moduleIds) {
    await db.insert(proposals).values(
      BUDGETS.map((budget, i) => ({
        id: proposalId(moduleId, (i + 1) as 1 | 2 | 3 | 4),
        moduleId,
        creatorId: 5,
        name: `${NAMES[i]} ${moduleId}`,
        description: '<p>Proposed.</p>',
        point: { type: 'Feature' as const, properties: {}, geometry: { type: 'Point' as const, coordinates: [13.4, 52.5] as [number, number] } },
        budget,
      })),
    );
    await db.insert(budgetSettings).values({ moduleId, supportLimit: 2, supportThreshold: 0, totalBudget: 100_000, rule: 'percent', minPercent: 50 });
  }
}

export async function budgetApp() {
  const t = await dashboardApp(budgetWorld());
  await seedProposals(t.db);
  return t;
}

/** The proposal ids checked on a ballot page's form. */
export const checkedOn = (html: string) => [...html.matchAll(/<input type="checkbox" id="id_proposal_(\d+)" name="proposal" value="\d+" checked/g)].map((m) => Number(m[1]));

export const assertStatus = (response: { status: number; text: string }, status: number, what: string) => assert.equal(response.status, status, `${what}: ${response.text.slice(0, 300)}`);
