import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asc, eq } from 'drizzle-orm';
import { modules, phases } from '../../../src/db/schema/index.js';
import type { AreaFeatureCollection } from '../../../src/db/schema/common.js';
import { budgetSettings } from '../../../src/features/budgeting/schema.js';
import { signedIn } from '../../manage/world.js';
import { budgetApp, BUDGET_MODULES } from './world.js';

test('the dashboard offers the participatory budgets with a vote, adds them with their phases and their components', async () => {
  const { app, db } = await budgetApp();
  const initiator = await signedIn(app, 'initiator');
  const offered = await initiator.get('/org/dashboard/projects/draft-plan/blueprints/');
  assert.match(offered.text, /Participatory budgeting with a vote/);
  assert.match(offered.text, /Participatory budgeting with support and vote/);
  assert.equal((await initiator.post('/org/dashboard/projects/draft-plan/blueprints/participatory-budgeting-support-voting/', {})).status, 302);
  const [module] = await db.select().from(modules).where(eq(modules.projectId, 2));
  assert.equal(module.blueprintType, 'PB3');
  const types = (await db.select().from(phases).where(eq(phases.moduleId, module.id)).orderBy(asc(phases.weight))).map((p) => p.type);
  assert.deepEqual(types, ['a4_candy_budgeting:request', 'a4_candy_budgeting:support', 'a4_candy_budgeting:voting']);
  const base = `/org/dashboard/modules/${module.slug}`;
  const basic = await initiator.get(`${base}/module_basic/`);
  // Unterstützungen pro Person: the initiator's session is English, the missing fields are named in it.
  assert.match(basic.text, new RegExp(`href="${base}/support_settings/">[^<]*Supports per participant`));
  assert.match(basic.text, new RegExp(`href="${base}/voting_settings/">[^<]*Total budget`));
  const refused = await initiator.post(`${base}/voting_settings/`, { total_budget: '', rule: 'count', min_proposals: '3', max_proposals: '2' });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /This field is required\./);
  assert.match(refused.text, /The maximum cannot be smaller than the minimum\./);
  assert.equal((await initiator.post(`${base}/voting_settings/`, { total_budget: '250000', rule: 'count', min_proposals: '1', max_proposals: '4' })).status, 302);
  assert.equal((await initiator.post(`${base}/support_settings/`, { support_limit: '0', support_threshold: '1' })).status, 400);
  assert.equal((await initiator.post(`${base}/support_settings/`, { support_limit: '3', support_threshold: '2' })).status, 302);
  const [saved] = await db.select().from(budgetSettings).where(eq(budgetSettings.moduleId, module.id));
  assert.deepEqual([saved.supportLimit, saved.supportThreshold, saved.totalBudget, saved.rule, saved.minProposals, saved.maxProposals], [3, 2, 250_000, 'count', 1, 4]);
  const after = await initiator.get(`${base}/module_basic/`);
  assert.doesNotMatch(after.text, /Supports per participant|Total budget/);
  const codes = await initiator.get(`${base}/vote_codes/`);
  assert.equal(codes.status, 200);
  assert.match(codes.text, /0 codes, 0 of them used\./);
  assert.equal((await initiator.post(`${base}/vote_codes/`, { count: '10001' })).status, 400);
});

test('a participatory budget with a vote has no support component, and the voting rules stay once the vote has begun', async () => {
  const { app, db } = await budgetApp();
  const initiator = await signedIn(app, 'initiator');
  await initiator.post('/org/dashboard/projects/draft-plan/blueprints/participatory-budgeting-voting/', {});
  const [module] = await db.select().from(modules).where(eq(modules.projectId, 2));
  assert.equal(module.blueprintType, 'PB2');
  assert.equal((await initiator.get(`/org/dashboard/modules/${module.slug}/support_settings/`)).status, 404);
  const locked = await initiator.post('/org/dashboard/modules/voting/voting_settings/', { total_budget: '5', rule: 'percent', min_percent: '10' });
  assert.equal(locked.status, 400);
  assert.match(locked.text, /The rules cannot be changed any more: the phase has begun\./);
  const [kept] = await db.select().from(budgetSettings).where(eq(budgetSettings.moduleId, 31));
  assert.equal(kept.totalBudget, 100_000);
});

test('loaddata takes the support and voting phases, also in a module of the participatory budgeting type (PB)', async () => {
  const { app, db } = await budgetApp();
  const { load, daysFromNow } = await import('../../fixtures.js');
  await load(db, {
    modules: [
      {
        id: 40,
        slug: 'imported-budget',
        project: 1,
        name: 'Imported budget',
        blueprint_type: 'PB',
        phases: [
          { type: 'a4_candy_budgeting:submit', start_date: daysFromNow(-20), end_date: daysFromNow(-10) },
          { type: 'a4_candy_budgeting:support', start_date: daysFromNow(-10), end_date: daysFromNow(-5) },
          { type: 'a4_candy_budgeting:voting', start_date: daysFromNow(-5), end_date: daysFromNow(5) },
        ],
      },
    ],
  });
  const member = await signedIn(app, 'member');
  const ballot = await member.get('/org/budgeting/module/imported-budget/ballot/');
  assert.equal(ballot.status, 200);
  assert.match(ballot.text, /No proposals are on the ballot\./);
  assert.equal((await member.get('/org/budgeting/module/imported-budget/support/')).status, 200);
  assert.equal((await member.get('/org/budgeting/module/project/ballot/')).status, 404, 'a module without a voting phase has no ballot');
});

test('Duplicate copies a budget with its rules and a map module with its area (issue 36.10)', async () => {
  const { app, db } = await budgetApp();
  const area: AreaFeatureCollection = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[[13.3, 52.4], [13.5, 52.4], [13.5, 52.6], [13.3, 52.4]]] } }] };
  await db.update(modules).set({ area }).where(eq(modules.id, BUDGET_MODULES.voting));
  const initiator = await signedIn(app, 'initiator');
  assert.equal((await initiator.post('/org/dashboard/projects/project/duplicate/', {})).status, 302);
  const [copy] = await db.select().from(modules).where(eq(modules.slug, 'voting-2'));
  assert.ok(copy, 'the voting module was copied');
  assert.deepEqual(copy.area, area);
  const [settings] = await db.select().from(budgetSettings).where(eq(budgetSettings.moduleId, copy.id));
  assert.ok(settings, 'with its budget settings');
  assert.deepEqual([settings.supportLimit, settings.totalBudget, settings.rule, settings.minPercent], [2, 100_000, 'percent', 50]);
});
