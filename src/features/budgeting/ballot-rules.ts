import { canViewModule, type ModuleContext, participatesIn, phaseAllowsFor } from '../../core/modules/rules.js';
import { canModerate } from '../../core/projects/rules.js';
import { phaseIsPast } from '../../core/modules/phases.js';
import { type Lang, t } from '../../i18n/index.js';

/**
 * Participatory budgeting beyond adhocracy+ (issue 24, part 3): the support phase, the ballot of
 * the voting phase, vote codes and the result. meinBerlin's support/voting design (spec §4.3) with
 * Decidim's ballot rules (§14). Pure predicates over loaded data; the pages, services and tests
 * ask these and nothing else.
 */

/** The phase types (registered by the participatory budgeting types; content: proposals). */
export const SUPPORT_PHASE = 'a4_candy_budgeting:support';
export const VOTING_PHASE = 'a4_candy_budgeting:voting';

/** How a ballot is checked: spend at least a share of the budget, or choose between a minimum and a maximum number of proposals. */
type BallotRule = 'percent' | 'count';

/** The initiator's settings of the support and voting phases (dashboard components "Support" and "Voting"). */
export interface BudgetSettings {
  /** How many proposals one participant may support; null: not set yet. */
  supportLimit: number | null;
  /** Supports a proposal needs to go on to the vote (0: every proposal goes on). */
  supportThreshold: number;
  /** The money to spend, in whole euros; null: not set yet. */
  totalBudget: number | null;
  rule: BallotRule;
  /** With the rule `percent`: a ballot spends at least this share of the budget (0–100) and never more than the budget. */
  minPercent: number;
  /** With the rule `count`: a ballot chooses between these numbers of proposals (the budget does not limit a ballot, as in Decidim). */
  minProposals: number;
  maxProposals: number;
}

export const DEFAULT_SETTINGS: BudgetSettings = { supportLimit: null, supportThreshold: 0, totalBudget: null, rule: 'percent', minPercent: 70, minProposals: 1, maxProposals: 5 };

/**
 * A message (a catalogue key) with its placeholders (`sum`, `total` and `minSpend` are sums of money,
 * in euros); `plural`: the message's plural form and the count that chooses between them (the plural rules).
 */
export interface Problem {
  message: string;
  vars?: Record<string, string | number>;
  plural?: { message: string; count: number };
}

// Who may do what.

/** Support a proposal: a member of a live project while the support phase runs (moderators too, but not outside the phase). */
export const canSupport = (c: ModuleContext) => participatesIn(c) && phaseAllowsFor(c, 'support', 'proposal');

/** Fill in or change one's ballot: a member of a live project while the voting phase runs (no exception for moderators: a vote is a vote). */
export const canVote = (c: ModuleContext) => participatesIn(c) && phaseAllowsFor(c, 'vote', 'proposal');

/**
 * Cast a ballot with a vote code: anyone holding a code (no account needed, the code is the
 * right to vote), in a live, not archived project and a published module, while the voting phase runs.
 */
export const canVoteWithCode = (c: ModuleContext) => !c.project.isDraft && !c.project.isArchived && !c.module.isDraft && phaseAllowsFor(c, 'vote', 'proposal');

/** Support counts are public to whoever may see the module (meinBerlin hides them outside the support phase; here they are the reason for the vote). */
export const canViewSupports = (c: ModuleContext) => canViewModule(c);

/** The voting phase of the module has ended. */
export const votingIsOver = (c: ModuleContext) => {
  const voting = c.phases.filter((p) => p.type === VOTING_PHASE);
  return voting.length > 0 && voting.every((p) => phaseIsPast(p, c.now));
};

/** The result: public once the voting phase has ended; the project's moderators may watch it grow (shown as preliminary). */
export const canViewResult = (c: ModuleContext) => canViewModule(c) && c.phases.some((p) => p.type === VOTING_PHASE) && (votingIsOver(c) || canModerate(c.project));

// Supports.

/** Whether one more support would take a participant over the limit. */
export const supportLimitReached = (supportsSoFar: number, settings: Pick<BudgetSettings, 'supportLimit'>) => settings.supportLimit !== null && supportsSoFar >= settings.supportLimit;

/** Whether a proposal goes on to the vote: not archived and, when the module has a support phase, supported at least `supportThreshold` times. */
export const goesToVote = (proposal: { supports: number; isArchived: boolean }, settings: Pick<BudgetSettings, 'supportThreshold'>, hasSupportPhase: boolean) =>
  !proposal.isArchived && (!hasSupportPhase || proposal.supports >= settings.supportThreshold);

// The ballot.

/** The smallest sum a ballot must spend under the rule `percent`. */
export const minimumSpend = (settings: Pick<BudgetSettings, 'totalBudget' | 'minPercent'>) => Math.ceil(((settings.totalBudget ?? 0) * settings.minPercent) / 100);

/**
 * What is wrong with a ballot (empty: it counts). `chosen` are the proposal ids as posted;
 * `eligible` the proposals on the ballot (those that went on to the vote) with their budgets.
 */
export function ballotProblems(chosen: readonly number[], eligible: ReadonlyMap<number, { budget: number }>, settings: BudgetSettings): Problem[] {
  if (new Set(chosen).size !== chosen.length) return [{ message: 'Each proposal can be chosen only once.' }];
  if (chosen.some((id) => !eligible.has(id))) return [{ message: 'Select a valid choice. That proposal is not on the ballot.' }];
  if (!chosen.length) return [{ message: 'Choose at least one proposal.' }];
  const sum = chosen.reduce((total, id) => total + (eligible.get(id)?.budget ?? 0), 0);
  if (settings.rule === 'count') {
    if (chosen.length < settings.minProposals) return [{ message: 'Choose at least %(min)s proposal.', plural: { message: 'Choose at least %(min)s proposals.', count: settings.minProposals }, vars: { min: settings.minProposals } }];
    if (chosen.length > settings.maxProposals) return [{ message: 'Choose at most %(max)s proposal.', plural: { message: 'Choose at most %(max)s proposals.', count: settings.maxProposals }, vars: { max: settings.maxProposals } }];
    return [];
  }
  const total = settings.totalBudget ?? 0;
  if (sum > total) return [{ message: 'Your choice costs %(sum)s, more than the budget of %(total)s.', vars: { sum, total } }];
  const minSpend = minimumSpend(settings);
  if (sum < minSpend) return [{ message: 'Spend at least %(minSpend)s (%(percent)s % of the budget); your choice costs %(sum)s.', vars: { minSpend, percent: settings.minPercent, sum } }];
  return [];
}

// The settings forms.

const MAX_BUDGET = 2_000_000_000;
const MAX_SUPPORT_LIMIT = 1000;
const MAX_PROPOSAL_COUNT = 1000;

type SettingsErrors = Record<string, string[]>;

const wholeNumber = (value: string) => (/^\d{1,10}$/.test(value) ? Number(value) : null);

/** Reads a whole number field within [min, max]; the message beside the field otherwise. */
function readNumber(lang: Lang, errors: SettingsErrors, name: string, value: string, min: number, max: number, required = true): number | null {
  const trimmed = value.trim();
  if (!trimmed) {
    if (required) errors[name] = [t(lang, 'This field is required.')];
    return null;
  }
  const n = wholeNumber(trimmed);
  if (n === null) errors[name] = [t(lang, 'Enter a whole number.')];
  else if (n < min) errors[name] = [t(lang, 'Ensure this value is greater than or equal to %(limit_value)s.', { limit_value: min })];
  else if (n > max) errors[name] = [t(lang, 'Ensure this value is less than or equal to %(limit_value)s.', { limit_value: max })];
  return n !== null && n >= min && n <= max ? n : null;
}

/** The support form: limit per participant (1–1000), threshold (0 or more). */
export function readSupportSettings(body: Record<string, string>, lang: Lang): { parsed: Pick<BudgetSettings, 'supportLimit' | 'supportThreshold'>; errors: SettingsErrors } {
  const errors: SettingsErrors = {};
  const supportLimit = readNumber(lang, errors, 'support_limit', body.support_limit ?? '', 1, MAX_SUPPORT_LIMIT);
  const supportThreshold = readNumber(lang, errors, 'support_threshold', body.support_threshold ?? '', 0, 1_000_000) ?? 0;
  return { parsed: { supportLimit, supportThreshold }, errors };
}

/** The voting form: the budget, the rule and its numbers (a minimum above the maximum is an error beside the maximum). */
export function readVotingSettings(body: Record<string, string>, lang: Lang): { parsed: Pick<BudgetSettings, 'totalBudget' | 'rule' | 'minPercent' | 'minProposals' | 'maxProposals'>; errors: SettingsErrors } {
  const errors: SettingsErrors = {};
  const totalBudget = readNumber(lang, errors, 'total_budget', body.total_budget ?? '', 1, MAX_BUDGET);
  const rule = body.rule === 'count' ? 'count' : body.rule === 'percent' ? 'percent' : null;
  if (!rule) errors.rule = [t(lang, 'Select a valid choice.')];
  const minPercent = readNumber(lang, errors, 'min_percent', body.min_percent ?? '', 0, 100, rule === 'percent') ?? DEFAULT_SETTINGS.minPercent;
  const minProposals = readNumber(lang, errors, 'min_proposals', body.min_proposals ?? '', 1, MAX_PROPOSAL_COUNT, rule === 'count') ?? DEFAULT_SETTINGS.minProposals;
  const maxProposals = readNumber(lang, errors, 'max_proposals', body.max_proposals ?? '', 1, MAX_PROPOSAL_COUNT, rule === 'count') ?? DEFAULT_SETTINGS.maxProposals;
  if (rule === 'count' && !errors.min_proposals && !errors.max_proposals && minProposals > maxProposals) errors.max_proposals = [t(lang, 'The maximum cannot be smaller than the minimum.')];
  return { parsed: { totalBudget, rule: rule ?? 'percent', minPercent, minProposals, maxProposals }, errors };
}

/** How many vote codes one request may generate. */
const MAX_CODES_PER_BATCH = 10_000;

/**
 * Wrong vote codes (issue 36.16), counted in the login throttle's store over its window
 * (LOGIN_FAILURE_WINDOW_SECONDS): per code as typed (its first four characters: a voter who
 * mistypes their own code keeps them), and per address, high enough for a polling station where
 * many people share one address. Codes carry 80 random bits: even the address limit leaves
 * guessing hopeless, the per-code limit stops one voter's retries from locking out the next.
 */
export const WRONG_CODE_LIMITS = { perCode: 5, perAddress: 100 } as const;

/** The part of a typed code its wrong tries are counted under. */
export const wrongCodeKey = (typed: string) => typed.replace(/[\s-]/g, '').toUpperCase().slice(0, 4);

/** The code generation form: a number of codes, 1–10,000. */
export function readCodeCount(body: Record<string, string>, lang: Lang): { count: number | null; format: VoteCodeFormat; errors: SettingsErrors } {
  const errors: SettingsErrors = {};
  const count = readNumber(lang, errors, 'count', body.count ?? '', 1, MAX_CODES_PER_BATCH);
  const format = VOTE_CODE_FORMATS.find((f) => f === (body.format ?? 'csv'));
  if (!format) errors.format = [t(lang, 'Select a valid choice.')];
  return { count: format ? count : null, format: format ?? 'csv', errors };
}

/** How new vote codes are handed over, once (issue 36.9): a CSV file, or the printable sheet. */
const VOTE_CODE_FORMATS = ['csv', 'html'] as const;
type VoteCodeFormat = (typeof VOTE_CODE_FORMATS)[number];

// The result.

export interface ResultRow {
  id: number;
  name: string;
  budget: number;
  votes: number;
}

/**
 * The result (Decidim's way of filling a budget): proposals ranked by votes (ties: the earlier
 * proposal first); in rank order each proposal with votes that still fits into what is left of the
 * budget wins. A proposal too dear for the rest is passed over, and a cheaper one further down may still win.
 */
export function rankResults<R extends ResultRow>(rows: readonly R[], totalBudget: number): (R & { rank: number; winner: boolean })[] {
  let left = totalBudget;
  return [...rows]
    .sort((a, b) => b.votes - a.votes || a.id - b.id)
    .map((row, i) => {
      const winner = row.votes > 0 && row.budget <= left;
      if (winner) left -= row.budget;
      return { ...row, rank: i + 1, winner };
    });
}
