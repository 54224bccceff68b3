import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, smallint, text, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { modules, users, authorRef, timestamps } from '../../db/schema/index.js';

/* The Poll module type's tables (drizzle.config.ts finds them here). */

export const polls = pgTable(
  'polls',
  {
    id: serial('id').primaryKey(),
    moduleId: integer('module_id')
      .notNull()
      .references(() => modules.id, { onDelete: 'cascade' }),
    creatorId: authorRef(),
    /** Voting without an account (public projects only; features/polls/rules.ts). */
    allowUnregisteredUsers: boolean('allow_unregistered_users').notNull().default(false),
    /** Counts read 0 for everyone who may not edit the poll while its phase runs. */
    hideResultsUntilFinished: boolean('hide_results_until_finished').notNull().default(false),
    ...timestamps,
  },
  (t) => [index('polls_module_idx').on(t.moduleId)],
);

export const pollQuestions = pgTable(
  'poll_questions',
  {
    id: serial('id').primaryKey(),
    pollId: integer('poll_id')
      .notNull()
      .references(() => polls.id, { onDelete: 'cascade' }),
    label: varchar('label', { length: 255 }).notNull(),
    helpText: varchar('help_text', { length: 250 }).notNull().default(''),
    weight: smallint('weight').notNull().default(0),
    multipleChoice: boolean('multiple_choice').notNull().default(false),
    isOpen: boolean('is_open').notNull().default(false),
    isConfidential: boolean('is_confidential').notNull().default(false),
    image: text('image'),
    imageAltText: varchar('image_alt_text', { length: 80 }).notNull().default(''),
  },
  (t) => [index('poll_questions_poll_idx').on(t.pollId, t.weight), check('poll_questions_open_single', sql`not (${t.isOpen} and ${t.multipleChoice})`)],
);

export const pollChoices = pgTable(
  'poll_choices',
  {
    id: serial('id').primaryKey(),
    questionId: integer('question_id')
      .notNull()
      .references(() => pollQuestions.id, { onDelete: 'cascade' }),
    label: varchar('label', { length: 255 }).notNull(),
    isOtherChoice: boolean('is_other_choice').notNull().default(false),
    weight: smallint('weight').notNull().default(0),
  },
  (t) => [index('poll_choices_question_idx').on(t.questionId, t.weight), uniqueIndex('poll_choices_one_other').on(t.questionId).where(sql`${t.isOtherChoice}`)],
);

/**
 * A voter's choice. A registered voter is its creator; an unregistered one a random token per
 * ballot (adhocracy4's content_id). A deleted account leaves its votes behind without a creator.
 */
export const pollVotes = pgTable(
  'poll_votes',
  {
    id: serial('id').primaryKey(),
    choiceId: integer('choice_id')
      .notNull()
      .references(() => pollChoices.id, { onDelete: 'cascade' }),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    voterToken: uuid('voter_token'),
    /** An unregistered ballot's client address as a keyed hash (polls/services.voterAddressHash), never the address itself. */
    voterAddress: varchar('voter_address', { length: 32 }),
    /** The free text of an "other" choice (adhocracy4's OtherVote). */
    otherChoiceAnswer: varchar('other_choice_answer', { length: 250 }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('poll_votes_choice_creator').on(t.choiceId, t.creatorId).where(sql`${t.creatorId} IS NOT NULL`),
    uniqueIndex('poll_votes_choice_token').on(t.choiceId, t.voterToken).where(sql`${t.voterToken} IS NOT NULL`),
    index('poll_votes_creator_idx').on(t.creatorId),
  ],
);

/** The answer to an open question, by a registered voter or an unregistered one's ballot token. */
export const pollAnswers = pgTable(
  'poll_answers',
  {
    id: serial('id').primaryKey(),
    questionId: integer('question_id')
      .notNull()
      .references(() => pollQuestions.id, { onDelete: 'cascade' }),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    voterToken: uuid('voter_token'),
    /** As poll_votes.voter_address. */
    voterAddress: varchar('voter_address', { length: 32 }),
    answer: varchar('answer', { length: 750 }).notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('poll_answers_question_creator').on(t.questionId, t.creatorId).where(sql`${t.creatorId} IS NOT NULL`),
    index('poll_answers_creator_idx').on(t.creatorId),
  ],
);
