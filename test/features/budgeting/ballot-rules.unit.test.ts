import '../../../src/module-types.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ballotProblems,
  type BudgetSettings,
  canSupport,
  canViewResult,
  canVote,
  canVoteWithCode,
  DEFAULT_SETTINGS,
  goesToVote,
  rankResults,
  readVotingSettings,
  supportLimitReached,
  SUPPORT_PHASE,
  VOTING_PHASE,
} from '../../../src/features/budgeting/ballot-rules.js';
import { ballotProblemText } from '../../../src/features/budgeting/ballot-views.js';
import { formatVoteCode, newVoteCode, normaliseVoteCode } from '../../../src/features/budgeting/codes.js';
import type { ModuleContext } from '../../../src/core/modules/rules.js';
import { assertMatrix, MODERATING, NOBODY, projectContext, type Role, SIGNED_IN, type State } from '../../rules-matrix.js';

const budget = (rule: BudgetSettings['rule'], extra: Partial<BudgetSettings> = {}): BudgetSettings => ({ ...DEFAULT_SETTINGS, totalBudget: 100_000, rule, minPercent: 70, minProposals: 2, maxProposals: 3, ...extra });
/** Proposals 1–5 on the ballot, with their budgets. */
const ELIGIBLE = new Map([
  [1, { budget: 50_000 }],
  [2, { budget: 30_000 }],
  [3, { budget: 20_000 }],
  [4, { budget: 60_000 }],
  [5, { budget: 0 }],
]);
const messages = (chosen: number[], settings: BudgetSettings) => ballotProblems(chosen, ELIGIBLE, settings).map((p) => p.message);

test('a ballot under the percent rule must spend at least the share and at most the budget', () => {
  const rule = budget('percent');
  assert.deepEqual(messages([1, 2], rule), [], '80,000 of 100,000: within 70–100 %');
  assert.deepEqual(messages([1, 2, 3], rule), [], 'exactly the budget counts');
  assert.deepEqual(messages([1, 3], rule), [], 'exactly 70 % counts');
  assert.deepEqual(messages([2, 3], rule), ['Spend at least %(minSpend)s (%(percent)s % of the budget); your choice costs %(sum)s.'], 'under the budget share');
  assert.deepEqual(ballotProblems([2, 3], ELIGIBLE, rule)[0].vars, { minSpend: 70_000, percent: 70, sum: 50_000 });
  assert.deepEqual(messages([1, 4], rule), ['Your choice costs %(sum)s, more than the budget of %(total)s.'], 'over the budget');
  assert.deepEqual(messages([5], budget('percent', { minPercent: 0 })), [], 'with 0 % a proposal without costs is enough');
});

test('a ballot under the count rule must choose between the minimum and the maximum number of proposals, whatever it costs', () => {
  const rule = budget('count');
  const words = (chosen: number[], settings: BudgetSettings, lang: 'en' | 'de' = 'en') => ballotProblems(chosen, ELIGIBLE, settings).map((p) => ballotProblemText(lang, p));
  assert.deepEqual(words([1], rule), ['Choose at least 2 proposals.']);
  assert.deepEqual(messages([1, 2], rule), []);
  assert.deepEqual(messages([1, 2, 4], rule), [], 'the budget does not limit a ballot under the count rule (Decidim)');
  assert.deepEqual(words([1, 2, 3, 4], rule), ['Choose at most 3 proposals.']);
  assert.deepEqual(words([1, 2, 3, 4], rule, 'de'), ['Wählen Sie höchstens 3 Vorschläge.']);
  // A maximum of one: the singular, by the plural rules.
  const one = budget('count', { minProposals: 1, maxProposals: 1 });
  assert.deepEqual(words([1, 2], one), ['Choose at most 1 proposal.']);
  assert.deepEqual(words([1, 2], one, 'de'), ['Wählen Sie höchstens 1 Vorschlag.']);
});

test('a ballot chooses each proposal once, only proposals on the ballot, and at least one', () => {
  const rule = budget('count', { minProposals: 1 });
  assert.deepEqual(messages([], rule), ['Choose at least one proposal.']);
  assert.deepEqual(messages([1, 1], rule), ['Each proposal can be chosen only once.']);
  assert.deepEqual(messages([1, 9], rule), ['Select a valid choice. That proposal is not on the ballot.']);
  assert.deepEqual(messages([-1], rule), ['Select a valid choice. That proposal is not on the ballot.']);
});

test('a changed ballot is checked as a new one: the rules hold for the last choice only', () => {
  const rule = budget('percent');
  assert.deepEqual(messages([1, 2], rule), []);
  assert.equal(messages([1, 2, 4], rule).length, 1, 'the change over the budget is refused');
  assert.deepEqual(messages([1, 3], rule), [], 'the change within the rule counts');
});

const DAY = 24 * 3600 * 1000;
const NOW = new Date('2026-06-01T12:00:00Z');
const phase = (id: number, type: string, fromDays: number, toDays: number) => ({ id, type, weight: id, startDate: new Date(NOW.getTime() + fromDays * DAY), endDate: new Date(NOW.getTime() + toDays * DAY) });
const SUBMIT = 'a4_candy_budgeting:submit';
const context = (role: Role, state: State, phases: ModuleContext['phases']): ModuleContext => ({ project: projectContext(role, state), module: { id: 1, isDraft: false }, phases, now: NOW });
const SUPPORTING = [phase(1, SUBMIT, -20, -10), phase(2, SUPPORT_PHASE, -10, 5), phase(3, VOTING_PHASE, 5, 10)];
const VOTING = [phase(1, SUBMIT, -20, -10), phase(2, SUPPORT_PHASE, -10, -5), phase(3, VOTING_PHASE, -5, 10)];
const OVER = [phase(1, SUBMIT, -20, -10), phase(2, SUPPORT_PHASE, -10, -5), phase(3, VOTING_PHASE, -5, -1)];
const MEMBERS: Role[] = SIGNED_IN.filter((r) => r !== 'user');
const PUBLIC_ANSWERS = { public: SIGNED_IN, semipublic: MEMBERS, private: ['participant', 'moderator'] as Role[], draft: NOBODY, archived: NOBODY };

test('supporting: context members of a live project while the support phase runs, nobody before or after', () => {
  assertMatrix((role, state) => canSupport(context(role, state, SUPPORTING)), { ...PUBLIC_ANSWERS, semipublic: ['participant', 'orgMember', 'moderator'], private: ['participant', 'orgMember', 'moderator'] }, 'support phase');
  assertMatrix((role, state) => canSupport(context(role, state, VOTING)), { public: NOBODY, semipublic: NOBODY, private: NOBODY, draft: NOBODY, archived: NOBODY }, 'voting phase');
});

test('voting: context members of a live project while the voting phase runs; after it nobody, moderators neither', () => {
  assertMatrix((role, state) => canVote(context(role, state, VOTING)), { ...PUBLIC_ANSWERS, semipublic: ['participant', 'orgMember', 'moderator'], private: ['participant', 'orgMember', 'moderator'] }, 'voting phase');
  assertMatrix((role, state) => canVote(context(role, state, OVER)), { public: NOBODY, semipublic: NOBODY, private: NOBODY, draft: NOBODY, archived: NOBODY }, 'phase over');
  assertMatrix((role, state) => canVote(context(role, state, SUPPORTING)), { public: NOBODY, semipublic: NOBODY, private: NOBODY, draft: NOBODY, archived: NOBODY }, 'before the voting phase');
});

test('a vote code votes in any live project while the voting phase runs, without an account', () => {
  const everyone: Role[] = ['anonymous', ...SIGNED_IN];
  assertMatrix((role, state) => canVoteWithCode(context(role, state, VOTING)), { public: everyone, semipublic: everyone, private: everyone, draft: NOBODY, archived: NOBODY });
  assertMatrix((role, state) => canVoteWithCode(context(role, state, OVER)), { public: NOBODY, semipublic: NOBODY, private: NOBODY, draft: NOBODY, archived: NOBODY });
});

test('the result: public once the voting phase has ended; moderators see it while it runs', () => {
  const viewers: Role[] = ['anonymous', ...SIGNED_IN];
  assertMatrix((role, state) => canViewResult(context(role, state, OVER)), {
    public: viewers,
    semipublic: viewers,
    private: ['participant', 'orgMember', ...MODERATING],
    draft: MODERATING,
    archived: viewers,
  });
  assertMatrix((role, state) => canViewResult(context(role, state, VOTING)), { public: MODERATING, semipublic: MODERATING, private: MODERATING, draft: MODERATING, archived: MODERATING });
});

test('supports: the limit per participant and the threshold for the vote', () => {
  assert.equal(supportLimitReached(2, { supportLimit: 3 }), false);
  assert.equal(supportLimitReached(3, { supportLimit: 3 }), true);
  assert.equal(supportLimitReached(99, { supportLimit: null }), false);
  assert.equal(goesToVote({ supports: 2, isArchived: false }, { supportThreshold: 3 }, true), false);
  assert.equal(goesToVote({ supports: 3, isArchived: false }, { supportThreshold: 3 }, true), true);
  assert.equal(goesToVote({ supports: 0, isArchived: false }, { supportThreshold: 3 }, false), true, 'without a support phase every proposal goes on');
  assert.equal(goesToVote({ supports: 9, isArchived: true }, { supportThreshold: 3 }, true), false, 'archived proposals never');
});

test('the winners: in rank order, each that still fits into the rest of the budget (Decidim)', () => {
  const rows = [
    { id: 1, name: 'Park', budget: 60_000, votes: 10 },
    { id: 2, name: 'Bridge', budget: 50_000, votes: 8 },
    { id: 3, name: 'Bench', budget: 30_000, votes: 8 },
    { id: 4, name: 'Trees', budget: 10_000, votes: 2 },
    { id: 5, name: 'Nothing', budget: 0, votes: 0 },
  ];
  const ranked = rankResults(rows, 100_000);
  assert.deepEqual(ranked.map((r) => [r.id, r.rank, r.winner]), [
    [1, 1, true],
    [2, 2, false],
    [3, 3, true],
    [4, 4, true],
    [5, 5, false],
  ]);
});

test('the voting form: a budget, a rule, and a minimum not above the maximum', () => {
  assert.deepEqual(readVotingSettings({ total_budget: '100000', rule: 'count', min_proposals: '4', max_proposals: '2' }, 'en').errors, { max_proposals: ['The maximum cannot be smaller than the minimum.'] });
  assert.deepEqual(Object.keys(readVotingSettings({ total_budget: '', rule: 'x' }, 'en').errors).sort(), ['rule', 'total_budget']);
  assert.deepEqual(readVotingSettings({ total_budget: '-5', rule: 'percent', min_percent: '101' }, 'en').errors, { total_budget: ['Enter a whole number.'], min_percent: ['Ensure this value is less than or equal to 100.'] });
  assert.deepEqual(readVotingSettings({ total_budget: '250000', rule: 'percent', min_percent: '80' }, 'en'), { parsed: { totalBudget: 250_000, rule: 'percent', minPercent: 80, minProposals: 1, maxProposals: 5 }, errors: {} });
});

test('vote codes: 16 characters that cannot be mistaken, typed with dashes, spaces or in small letters', () => {
  const codes = new Set(Array.from({ length: 1000 }, newVoteCode));
  assert.equal(codes.size, 1000);
  for (const code of codes) assert.match(code, /^[A-HJ-NP-Z2-9]{16}$/);
  const code = [...codes][0];
  assert.equal(normaliseVoteCode(` ${formatVoteCode(code).toLowerCase()} `), code);
  assert.match(formatVoteCode(code), /^\w{4}-\w{4}-\w{4}-\w{4}$/);
  assert.equal(normaliseVoteCode('ABCD-EFGH-IJKL-MNOP'), null, 'I and O are not in the alphabet');
  assert.equal(normaliseVoteCode('ABCD'), null);
});
