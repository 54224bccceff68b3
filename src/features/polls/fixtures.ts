import { and, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { modules, users } from '../../db/schema/index.js';
import { pollAnswers, pollChoices, pollQuestions, polls, pollVotes } from './schema.js';
import { defaultItemCreator } from '../moduletypes/items.js';
import { FixtureError, FixtureId, fixtureKind, requireRow, strictRecord } from '../moduletypes/fixtures.js';

/** The poll's loaddata kinds (docs/fixtures.md): polls, questions, choices, votes, answers. */

const Weight = Type.Optional(Type.Integer({ minimum: -32768, maximum: 32767 }));

const pollKind = fixtureKind({
  name: 'polls',
  record: Type.Object(
    { id: FixtureId, module: FixtureId, creator: Type.Optional(FixtureId), allow_unregistered_users: Type.Optional(Type.Boolean()), hide_results_until_finished: Type.Optional(Type.Boolean()) },
    strictRecord,
  ),
  tables: ['polls'],
  load: async ({ tx }, records) => {
    for (const [i, p] of records.entries()) {
      await requireRow(tx, modules, p.module, `polls[${i}].module`, 'module');
      const creator = p.creator ?? (await defaultItemCreator(tx, p.module));
      if (creator === null) throw new FixtureError(`polls[${i}].creator: missing, and there is no initiator or superuser to take it`);
      await requireRow(tx, users, creator, `polls[${i}].creator`, 'user');
      await tx.insert(polls).values({
        id: p.id,
        moduleId: p.module,
        creatorId: creator,
        allowUnregisteredUsers: p.allow_unregistered_users ?? false,
        hideResultsUntilFinished: p.hide_results_until_finished ?? false,
      });
    }
  },
});

const questionKind = fixtureKind({
  name: 'questions',
  record: Type.Object(
    {
      id: FixtureId,
      poll: FixtureId,
      label: Type.String({ minLength: 1, maxLength: 255 }),
      help_text: Type.Optional(Type.String({ maxLength: 250 })),
      multiple_choice: Type.Optional(Type.Boolean()),
      is_open: Type.Optional(Type.Boolean()),
      is_confidential: Type.Optional(Type.Boolean()),
      weight: Weight,
    },
    strictRecord,
  ),
  tables: ['poll_questions'],
  load: async ({ tx }, records) => {
    for (const [i, q] of records.entries()) {
      const where = `questions[${i}]`;
      await requireRow(tx, polls, q.poll, `${where}.poll`, 'poll');
      if (q.is_open && q.multiple_choice) throw new FixtureError(`${where}.is_open: Questions with open answers cannot have multiple choices.`);
      await tx.insert(pollQuestions).values({
        id: q.id,
        pollId: q.poll,
        label: q.label,
        helpText: q.help_text ?? '',
        multipleChoice: q.multiple_choice ?? false,
        isOpen: q.is_open ?? false,
        isConfidential: q.is_confidential ?? false,
        weight: q.weight ?? i,
      });
    }
  },
});

const choiceKind = fixtureKind({
  name: 'choices',
  record: Type.Object({ id: FixtureId, question: FixtureId, label: Type.String({ minLength: 1, maxLength: 255 }), is_other_choice: Type.Optional(Type.Boolean()), weight: Weight }, strictRecord),
  tables: ['poll_choices'],
  load: async ({ tx }, records) => {
    for (const [i, c] of records.entries()) {
      const where = `choices[${i}]`;
      const [question] = await tx.select({ isOpen: pollQuestions.isOpen }).from(pollQuestions).where(eq(pollQuestions.id, c.question));
      if (!question) throw new FixtureError(`${where}.question: no question ${c.question}`);
      if (question.isOpen) throw new FixtureError(`${where}.question: Open questions cannot have choices.`);
      const [other] = c.is_other_choice
        ? await tx.select({ id: pollChoices.id }).from(pollChoices).where(and(eq(pollChoices.questionId, c.question), eq(pollChoices.isOtherChoice, true)))
        : [];
      if (other) throw new FixtureError(`${where}.is_other_choice: Question already has "other" choice.`);
      await tx.insert(pollChoices).values({ id: c.id, questionId: c.question, label: c.label, isOtherChoice: c.is_other_choice ?? false, weight: c.weight ?? i });
    }
  },
});

const voteKind = fixtureKind({
  name: 'votes',
  record: Type.Object({ choice: FixtureId, creator: FixtureId, other_choice_answer: Type.Optional(Type.String({ maxLength: 250 })) }, strictRecord),
  tables: ['poll_votes'],
  load: async ({ tx }, records) => {
    for (const [i, v] of records.entries()) {
      const where = `votes[${i}]`;
      const [choice] = await tx.select({ isOtherChoice: pollChoices.isOtherChoice }).from(pollChoices).where(eq(pollChoices.id, v.choice));
      if (!choice) throw new FixtureError(`${where}.choice: no choice ${v.choice}`);
      await requireRow(tx, users, v.creator, `${where}.creator`, 'user');
      if (v.other_choice_answer && !choice.isOtherChoice) throw new FixtureError(`${where}.other_choice_answer: only a vote on an "other" choice has an answer`);
      if (choice.isOtherChoice && !v.other_choice_answer?.trim()) throw new FixtureError(`${where}.other_choice_answer: Please specify your answer.`);
      await tx.insert(pollVotes).values({ choiceId: v.choice, creatorId: v.creator, otherChoiceAnswer: choice.isOtherChoice ? (v.other_choice_answer ?? '').trim() : null });
    }
  },
});

const answerKind = fixtureKind({
  name: 'answers',
  record: Type.Object({ question: FixtureId, creator: FixtureId, answer: Type.String({ minLength: 1, maxLength: 750 }) }, strictRecord),
  tables: ['poll_answers'],
  load: async ({ tx }, records) => {
    for (const [i, a] of records.entries()) {
      const where = `answers[${i}]`;
      const [question] = await tx.select({ isOpen: pollQuestions.isOpen }).from(pollQuestions).where(eq(pollQuestions.id, a.question));
      if (!question) throw new FixtureError(`${where}.question: no question ${a.question}`);
      if (!question.isOpen) throw new FixtureError(`${where}.question: Only open questions can have answers.`);
      await requireRow(tx, users, a.creator, `${where}.creator`, 'user');
      await tx.insert(pollAnswers).values({ questionId: a.question, creatorId: a.creator, answer: a.answer });
    }
  },
});

export const pollFixtures = [pollKind, questionKind, choiceKind, voteKind, answerKind];
