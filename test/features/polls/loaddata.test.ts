import '../../../src/module-types.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FixtureError, loadFixture } from '../../../src/cli/loaddata.js';
import type { Fixture } from '../../../src/cli/fixture-schema.js';
import * as s from '../../../src/features/polls/schema.js';
import { createTestApp } from '../../helpers.js';
import { tokenHeader } from '../../fixtures.js';
import { pollWorld } from './world.js';

const options = { baseDir: process.cwd() };

test('loaddata loads polls, questions, choices, votes and answers with their ids; the API then counts them', async () => {
  const t = await createTestApp();
  const world = pollWorld({ votes: [{ choice: 3, creator: 4, other_choice_answer: 'Green' }, { choice: 4, creator: 4 }, { choice: 5, creator: 5 }], answers: [{ question: 3, creator: 4, answer: 'Benches' }] });
  const counts = await loadFixture(t.db, world, options);
  assert.equal(counts.questions, 6);
  assert.equal(counts.votes, 3);
  assert.deepEqual((await t.db.select({ id: s.pollChoices.id }).from(s.pollChoices).orderBy(s.pollChoices.id)).map((c) => c.id), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  const [poll3] = (await t.db.select().from(s.polls)).filter((p) => p.id === 3);
  assert.equal(poll3.creatorId, 2, "a poll without creator gets the organisation's first initiator");
  const poll = (await t.request({ method: 'GET', url: '/api/polls/1/', headers: await tokenHeader(t.db, 4) })).body as { questions: { choices: { count: number }[]; other_choice_answers: { answer: string }[]; userAnswer: number }[]; total_participants: number };
  assert.deepEqual(poll.questions[0].choices.map((c) => c.count), [0, 0, 1]);
  assert.deepEqual(poll.questions[0].other_choice_answers.map((a) => a.answer), ['Green']);
  assert.equal(poll.total_participants, 2);
  const [question] = await t.db.insert(s.pollQuestions).values({ pollId: 1, label: 'After loading' }).returning();
  assert.ok(question.id > 6, 'the sequence moved past the ids given');
});

test('loaddata refuses a wrong poll record, names it, and stores nothing', async () => {
  const t = await createTestApp();
  const cases: [Partial<Fixture>, string][] = [
    [{ questions: [{ id: 1, poll: 99, label: 'Q' }] }, 'questions[0].poll: no poll 99'],
    [{ questions: [{ id: 1, poll: 1, label: 'Q', is_open: true, multiple_choice: true }] }, 'questions[0].is_open'],
    [{ choices: [{ id: 1, question: 3, label: 'C' }] }, 'choices[0].question: Open questions cannot have choices.'],
    [{ choices: [{ id: 1, question: 1, label: 'A', is_other_choice: true }, { id: 2, question: 1, label: 'B', is_other_choice: true }] }, 'choices[1].is_other_choice'],
    [{ votes: [{ choice: 3, creator: 4 }] }, 'votes[0].other_choice_answer: Please specify your answer.'],
    [{ votes: [{ choice: 99, creator: 4 }] }, 'votes[0].choice: no choice 99'],
    [{ answers: [{ question: 1, creator: 4, answer: 'x' }] }, 'answers[0].question: Only open questions can have answers.'],
  ];
  for (const [extra, message] of cases) {
    const world = pollWorld(extra);
    if (extra.questions) world.choices = [];
    await assert.rejects(loadFixture(t.db, world, options), (error: unknown) => {
      assert.ok(error instanceof FixtureError, String(error));
      assert.ok(error.message.startsWith(message), `${error.message} should start with ${message}`);
      return true;
    });
    assert.equal((await t.db.select().from(s.polls)).length, 0);
  }
  await assert.rejects(loadFixture(t.db, { polls: [{ id: 1, module: 1, creator: 1, unknown: true } as never] }, options), /polls\[0\]: unknown field unknown/);
});
