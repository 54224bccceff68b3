import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, serial, smallint, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { modules, users } from '../../db/schema/index.js';
import { ideaColumns, ideaIndexes, labelLinks } from '../idealike/columns.js';
import { placeColumns } from '../mapideas/schema.js';

/** Proposals of a participatory budget: a map idea with a budget (whole euros) and an archived flag. */
export const proposals = pgTable(
  'proposals',
  {
    ...ideaColumns(),
    ...placeColumns(),
    budget: integer('budget').notNull().default(0),
    isArchived: boolean('is_archived').notNull().default(false),
  },
  (t) => [...ideaIndexes('proposals', t), check('proposals_budget_not_negative', sql`${t.budget} >= 0`)],
);
export const proposalLabels = labelLinks('proposal_labels', 'proposal_id', proposals);

/**
 * Participatory budgeting beyond adhocracy+ (issue 24, part 3; features/budgeting/ballot-rules.ts):
 * the settings of the support and voting phases, supports, ballots and vote codes. "One per
 * participant" is a unique constraint each, so that two server instances on one database cannot
 * double a support or a ballot.
 */

/** The initiator's settings of a module's support and voting phases (one row per module, made when first saved). */
export const budgetSettings = pgTable(
  'budget_settings',
  {
    moduleId: integer('module_id')
      .primaryKey()
      .references(() => modules.id, { onDelete: 'cascade' }),
    supportLimit: integer('support_limit'),
    supportThreshold: integer('support_threshold').notNull().default(0),
    totalBudget: integer('total_budget'),
    rule: varchar('rule', { length: 8 }).$type<'percent' | 'count'>().notNull().default('percent'),
    minPercent: smallint('min_percent').notNull().default(70),
    minProposals: integer('min_proposals').notNull().default(1),
    maxProposals: integer('max_proposals').notNull().default(5),
    modified: timestamp('modified', { withTimezone: true }),
  },
  (t) => [check('budget_settings_rule_check', sql`${t.rule} IN ('percent', 'count')`), check('budget_settings_percent_check', sql`${t.minPercent} BETWEEN 0 AND 100`)],
);

/** A participant's support of a proposal during the support phase: at most one per proposal and participant. */
export const proposalSupports = pgTable(
  'proposal_supports',
  {
    proposalId: integer('proposal_id')
      .notNull()
      .references(() => proposals.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The proposal's module, kept here so that a participant's supports in a module are counted without a join. */
    moduleId: integer('module_id')
      .notNull()
      .references(() => modules.id, { onDelete: 'cascade' }),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.proposalId, t.userId] }), index('proposal_supports_module_user_idx').on(t.moduleId, t.userId)],
);

/** Single-use vote codes of a module's voting phase (generated in the dashboard; `used` is set once, when the code casts its ballot). */
export const budgetVoteCodes = pgTable(
  'budget_vote_codes',
  {
    id: serial('id').primaryKey(),
    moduleId: integer('module_id')
      .notNull()
      .references(() => modules.id, { onDelete: 'cascade' }),
    /**
     * The code's keyed hash (budgeting/codes.ts `voteCodeHash`, a key derived from SECRET_KEY): the
     * code itself is shown to the initiator once, when it is made, and stored nowhere (issue 36.9).
     */
    codeHash: varchar('code_hash', { length: 64 }),
    /** A code from before its hash was stored; hashed and cleared at the next start (`hashLegacyVoteCodes`). */
    legacyCode: varchar('code', { length: 16 }),
    used: timestamp('used', { withTimezone: true }),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('budget_vote_codes_code_hash_idx').on(t.codeHash), index('budget_vote_codes_module_idx').on(t.moduleId, t.id)],
);

/**
 * A ballot of the voting phase: a participant's (one per module, changed in place until the phase
 * ends) or a vote code's (one per code). A deleted account's ballot stays, without its voter.
 */
export const budgetBallots = pgTable(
  'budget_ballots',
  {
    id: serial('id').primaryKey(),
    moduleId: integer('module_id')
      .notNull()
      .references(() => modules.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    voteCodeId: integer('vote_code_id').references(() => budgetVoteCodes.id, { onDelete: 'cascade' }),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    modified: timestamp('modified', { withTimezone: true }),
  },
  (t) => [uniqueIndex('budget_ballots_module_user_idx').on(t.moduleId, t.userId), uniqueIndex('budget_ballots_code_idx').on(t.voteCodeId)],
);

/** The proposals chosen on a ballot. */
export const budgetBallotChoices = pgTable(
  'budget_ballot_choices',
  {
    ballotId: integer('ballot_id')
      .notNull()
      .references(() => budgetBallots.id, { onDelete: 'cascade' }),
    proposalId: integer('proposal_id')
      .notNull()
      .references(() => proposals.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.ballotId, t.proposalId] }), index('budget_ballot_choices_proposal_idx').on(t.proposalId)],
);
