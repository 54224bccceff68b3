import '../../../src/module-types.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { organisations, projectInsightDays } from '../../../src/db/schema/index.js';
import { pollAnswers, polls, pollVotes } from '../../../src/features/polls/schema.js';
import { solvedChallenge } from '../../me/accounts/client.js';
import { tokenHeader } from '../../fixtures.js';
import { ballot, pollApp } from './world.js';

type PollJson = {
  id: number;
  questions: { id: number; choices: { id: number; count: number }[]; userChoices: number[]; userAnswer: number | ''; answers: { answer: string }[]; other_choice_answers: { answer: string }[]; isReadOnly: boolean; totalVoteCount: number; totalVoteCountMulti: number; totalAnswerCount: number; is_confidential: boolean }[];
  has_user_vote: boolean;
  [key: string]: unknown;
};

const counts = (poll: PollJson) => poll.questions.map((q) => q.choices.map((c) => c.count));

test('GET /api/polls/<pk>/ answers with exactly the fields of adhocracy+ (§5.3) and the three the widget reads', async () => {
  const t = await pollApp();
  const response = await t.request({ method: 'GET', url: '/api/polls/1/' });
  assert.equal(response.status, 200);
  const poll = response.body as PollJson;
  assert.deepEqual(Object.keys(poll).sort(), [
    'allow_unregistered_users', 'guest_can_vote', 'has_user_vote', 'hide_results_until_finished', 'id', 'module_description', 'module_name', 'org_terms_url', 'questions', 'total_participants', 'use_org_terms_of_use', 'user_has_agreed', 'voting_ended',
  ]);
  assert.deepEqual(Object.keys(poll.questions[0]).sort(), [
    'answers', 'authenticated', 'choices', 'help_text', 'id', 'image_alt_text', 'image_help_text', 'image_url', 'isReadOnly', 'is_confidential', 'is_open', 'label', 'multiple_choice', 'other_choice_answers', 'other_choice_user_answer', 'totalAnswerCount', 'totalVoteCount', 'totalVoteCountMulti', 'userAnswer', 'userChoices',
  ]);
  assert.deepEqual(Object.keys(poll.questions[0].choices[0]).sort(), ['count', 'id', 'is_other_choice', 'label']);
  assert.equal(poll.org_terms_url, '/org/terms-of-use/');
  assert.equal(poll.module_name, 'Poll');
  assert.equal(poll.questions[0].isReadOnly, false, 'an anonymous visitor of an open poll sees the form (and is asked to log in)');
  assert.equal(poll.questions[0].userAnswer, '');
});

test('a private or draft poll is a 404 for who cannot see it; an unknown poll too', async () => {
  const t = await pollApp();
  assert.equal((await t.request({ method: 'GET', url: '/api/polls/3/' })).status, 404);
  assert.equal((await t.request({ method: 'GET', url: '/api/polls/3/', headers: await tokenHeader(t.db, 5) })).status, 404);
  assert.equal((await t.request({ method: 'GET', url: '/api/polls/3/', headers: await tokenHeader(t.db, 4) })).status, 200, 'a participant sees it');
  assert.equal((await t.request({ method: 'POST', url: '/api/polls/3/vote/', payload: { votes: { '5': { choices: [8], other_choice_answer: '', open_answer: '' } } } })).status, 404);
  assert.equal((await t.request({ method: 'GET', url: '/api/polls/99/' })).status, 404);
  assert.equal((await t.request({ method: 'GET', url: '/api/polls/abc/' })).status, 404);
});

test('a member votes; the whole ballot counts, and voting again replaces it', async () => {
  const t = await pollApp();
  const member = await tokenHeader(t.db, 4);
  const first = await t.request({ method: 'POST', url: '/api/polls/1/vote/', headers: member, payload: ballot([1], [4, 5]) });
  assert.equal(first.status, 201, first.text);
  const poll = first.body as PollJson;
  assert.deepEqual(counts(poll), [[1, 0, 0], [1, 1], []]);
  assert.deepEqual(poll.questions[1].userChoices, [4, 5]);
  assert.equal(poll.questions[1].totalVoteCount, 1);
  assert.equal(poll.questions[1].totalVoteCountMulti, 2);
  assert.equal(poll.questions[2].totalAnswerCount, 1);
  assert.equal(poll.has_user_vote, true);
  assert.equal(typeof poll.questions[2].userAnswer, 'number');
  const again = await t.request({ method: 'POST', url: '/api/polls/1/vote/', headers: member, payload: ballot([3], [], '', 'Turquoise') });
  assert.equal(again.status, 201, again.text);
  const after = again.body as PollJson;
  assert.deepEqual(counts(after), [[0, 0, 1], [0, 0], []]);
  assert.deepEqual(after.questions[0].other_choice_answers.map((a) => a.answer), ['Turquoise']);
  assert.equal(after.questions[2].totalAnswerCount, 0, 'an empty open answer deletes the earlier one');
  assert.equal(after.total_participants, 1);
  const [day] = await t.db.select().from(projectInsightDays);
  assert.equal(day.votes, 1, "the statistics count the voter's first ballot, not the second");
});

test('every refusal of a ballot answers as adhocracy4 does, and nothing of the ballot is saved (one transaction)', async () => {
  const t = await pollApp();
  const member = await tokenHeader(t.db, 4);
  const vote = (votes: Record<string, unknown>) => t.request({ method: 'POST', url: '/api/polls/1/vote/', headers: member, payload: { votes } });
  const fine = { choices: [1], other_choice_answer: '', open_answer: '' };
  const cases: [Record<string, unknown>, number, unknown][] = [
    [{ '1': fine, '2': { choices: [99], other_choice_answer: '', open_answer: '' } }, 404, { detail: 'Choice not found.' }],
    [{ '1': fine, '2': { choices: [4] } }, 400, { detail: "Key error for 'other_choice_answer'" }],
    [{ '1': fine, '2': { other_choice_answer: '', open_answer: '' } }, 400, { detail: "Key error for 'choices'" }],
    [{ '1': fine, '2': { choices: [4, 4], other_choice_answer: '', open_answer: '' } }, 400, ['Duplicate choices detected.']],
    [{ '2': { choices: [4], other_choice_answer: '', open_answer: '' }, '1': { choices: [1, 2], other_choice_answer: '', open_answer: '' } }, 400, ['Multiple choice disabled for question.']],
    [{ '1': fine, '2': { choices: [1], other_choice_answer: '', open_answer: '' } }, 400, { choice: ['Choice has to belong to the question set in the url.'] }],
    [{ '1': fine, '4': { choices: [6], other_choice_answer: '', open_answer: '' } }, 400, { question: ['Question has to belong to the poll set in the url.'] }],
    [{ '2': { choices: [4], other_choice_answer: '', open_answer: '' }, '1': { choices: [3], other_choice_answer: '  ', open_answer: '' } }, 400, { choice: 'Please specify your answer.' }],
    [{ '1': fine, '999': fine }, 404, { detail: 'Not found.' }],
  ];
  for (const [votes, status, body] of cases) {
    const response = await vote(votes);
    assert.equal(response.status, status, JSON.stringify(votes));
    assert.deepEqual(response.body, body);
  }
  assert.equal((await t.db.select().from(pollVotes)).length, 0, 'the valid first question of every refused ballot was not saved');
});

test('who may vote: 401 where logging in helps, 403 for a signed-in user who may not, moderators at any time', async () => {
  const t = await pollApp();
  const payload = ballot();
  assert.equal((await t.request({ method: 'POST', url: '/api/polls/1/vote/', payload })).status, 401);
  const oldBallot = { votes: { '6': { choices: [9], other_choice_answer: '', open_answer: '' } } };
  assert.equal((await t.request({ method: 'POST', url: '/api/polls/4/vote/', headers: await tokenHeader(t.db, 4), payload: oldBallot })).status, 403, 'after the phase');
  assert.equal((await t.request({ method: 'POST', url: '/api/polls/4/vote/', payload: oldBallot })).status, 403, 'logging in would not help after the phase');
  assert.equal((await t.request({ method: 'POST', url: '/api/polls/4/vote/', headers: await tokenHeader(t.db, 3), payload: oldBallot })).status, 201, 'the moderator');
  assert.equal((await t.request({ method: 'POST', url: '/api/polls/1/vote/', headers: await tokenHeader(t.db, 5), payload })).status, 201, 'any registered user in a public project');
  const foreign = { votes: { '4': { choices: [6], other_choice_answer: '', open_answer: '' } } };
  assert.equal((await t.request({ method: 'POST', url: '/api/polls/2/vote/', headers: await tokenHeader(t.db, 2), payload: foreign })).status, 201, "another organisation's initiator votes as a plain user of a public project");
});

test("the organisation's terms: a voter who has not agreed must send agreed_terms_of_use; it is stored once", async () => {
  const t = await pollApp();
  await t.db.update(organisations).set({ termsOfUse: '<p>Be kind.</p>' }).where(eq(organisations.id, 1));
  const member = await tokenHeader(t.db, 4);
  const refused = await t.request({ method: 'POST', url: '/api/polls/1/vote/', headers: member, payload: ballot() });
  assert.equal(refused.status, 400);
  assert.deepEqual(refused.body, ["Please agree to the organisation's terms of use."]);
  const agreed = await t.request({ method: 'POST', url: '/api/polls/1/vote/', headers: member, payload: { ...ballot(), agreed_terms_of_use: true } });
  assert.equal(agreed.status, 201);
  assert.equal((agreed.body as PollJson).user_has_agreed, true);
  assert.equal((await t.request({ method: 'POST', url: '/api/polls/1/vote/', headers: member, payload: ballot() })).status, 201);
});

test('unregistered voters: only where the poll allows it in a public project, with a solved challenge; the same browser replaces its ballot', async () => {
  const t = await pollApp();
  await t.db.update(polls).set({ allowUnregisteredUsers: true }).where(eq(polls.id, 1));
  const post = (payload: unknown, cookie?: string) => t.app.inject({ method: 'POST', url: '/api/polls/1/vote/', payload: payload as Record<string, unknown>, headers: cookie ? { cookie } : {} });
  for (const [captcha, message] of [
    [undefined, 'Please complete the captcha.'],
    ['', 'Please complete the captcha.'],
    ['testanswer:abcdef', 'Captcha verification failed. Please try again.'],
    ['bm9wZQ==', 'Captcha verification failed. Please try again.'],
    // What adhocracy+'s poll app sends with Prosopo: a procaptcha token, never accepted (docs/decisions.md).
    ['eyJjb21taXQiOnsiaWQiOiIweDEyMyJ9LCJwcm92aWRlciI6InByb3NvcG8ifQ', 'Captcha verification failed. Please try again.'],
  ] as const) {
    const response = await post({ ...ballot(), ...(captcha === undefined ? {} : { captcha }) });
    assert.equal(response.statusCode, 400, String(captcha));
    assert.deepEqual(JSON.parse(response.body), [message]);
  }
  assert.equal((await t.db.select().from(pollVotes)).length, 0);
  const challenge = await solvedChallenge(t.app);
  const first = await post({ ...ballot([1]), captcha: challenge });
  assert.equal(first.statusCode, 201, first.body);
  const poll = JSON.parse(first.body) as PollJson;
  assert.equal(poll.questions[0].isReadOnly, true, 'no voting screen again');
  assert.equal(poll.guest_can_vote, true);
  const replay = await post({ ...ballot([1]), captcha: challenge });
  assert.equal(replay.statusCode, 400, 'a solved challenge counts once');
  const cookie = String(first.headers['set-cookie']).split(';')[0];
  const again = await post({ ...ballot([2]), captcha: await solvedChallenge(t.app) }, cookie);
  assert.equal(again.statusCode, 201);
  assert.deepEqual(counts(JSON.parse(again.body) as PollJson)[0], [0, 1, 0], 'the same browser replaced its ballot');
  const stranger = await post({ ...ballot([2]), captcha: await solvedChallenge(t.app) });
  assert.deepEqual(counts(JSON.parse(stranger.body) as PollJson)[0], [0, 2, 0]);
  assert.equal((JSON.parse(stranger.body) as PollJson).total_participants, 2);
  assert.equal((await t.db.select().from(pollAnswers)).length, 2);
});

test('unregistered voting stays off in a poll that does not allow it and in a non-public project', async () => {
  const t = await pollApp();
  await t.db.update(polls).set({ allowUnregisteredUsers: true }).where(eq(polls.id, 3));
  const response = await t.request({ method: 'POST', url: '/api/polls/1/vote/', payload: { ...ballot(), captcha: await solvedChallenge(t.app) } });
  assert.equal(response.status, 401);
  assert.equal((await t.request({ method: 'GET', url: '/api/polls/3/' })).status, 404);
});

test('confidential questions count 0 and show only the own answers; hidden results read 0 until the poll is over, except for its editors', async () => {
  const t = await pollApp();
  await t.request({ method: 'POST', url: '/api/polls/1/vote/', headers: await tokenHeader(t.db, 5), payload: ballot([3], [4], 'Secret', 'Green') });
  const member = await tokenHeader(t.db, 4);
  await t.request({ method: 'POST', url: '/api/polls/1/vote/', headers: member, payload: ballot([1], [4], 'Mine') });
  await t.db.update(polls).set({ hideResultsUntilFinished: true }).where(eq(polls.id, 1));
  const hidden = (await t.request({ method: 'GET', url: '/api/polls/1/', headers: member })).body as PollJson;
  assert.deepEqual(counts(hidden), [[0, 0, 0], [0, 0], []]);
  assert.equal(hidden.total_participants, 0);
  assert.deepEqual(hidden.questions[2].answers.map((a) => a.answer), ['Mine']);
  const editor = (await t.request({ method: 'GET', url: '/api/polls/1/', headers: await tokenHeader(t.db, 2) })).body as PollJson;
  assert.deepEqual(counts(editor), [[1, 0, 1], [2, 0], []]);
  const moderator = (await t.request({ method: 'GET', url: '/api/polls/1/', headers: await tokenHeader(t.db, 3) })).body as PollJson;
  assert.deepEqual(counts(moderator)[0], [0, 0, 0], 'moderators cannot edit polls');
  await t.db.update(polls).set({ hideResultsUntilFinished: false }).where(eq(polls.id, 1));
  const edit = await t.request({ method: 'PATCH', url: '/api/polls/1/', headers: await tokenHeader(t.db, 2), payload: { questions: [{ id: 1, label: 'Which colour?', is_confidential: true, choices: [{ id: 1, label: 'Red' }, { id: 2, label: 'Blue' }, { id: 3, label: 'Other', is_other_choice: true }] }, { id: 2, label: 'Which days?', multiple_choice: true, choices: [{ id: 4, label: 'Monday' }, { id: 5, label: 'Friday' }] }, { id: 3, label: 'Anything else?', is_open: true, is_confidential: true }] } });
  assert.equal(edit.status, 200, edit.text);
  const confidential = (await t.request({ method: 'GET', url: '/api/polls/1/', headers: member })).body as PollJson;
  assert.deepEqual(counts(confidential), [[0, 0, 0], [2, 0], []]);
  assert.deepEqual(confidential.questions[0].other_choice_answers, []);
  assert.deepEqual(confidential.questions[2].answers.map((a) => a.answer), ['Mine']);
  const anonymous = (await t.request({ method: 'GET', url: '/api/polls/1/' })).body as PollJson;
  assert.deepEqual(anonymous.questions[2].answers, []);
});

test('PUT/PATCH: initiators of the organisation edit; others 403, anonymous 401; the list is authoritative', async () => {
  const t = await pollApp();
  const edit = (headers: Record<string, string>, payload: unknown, method: 'PUT' | 'PATCH' = 'PUT') => t.request({ method, url: '/api/polls/1/', headers, payload: payload as Record<string, unknown> });
  const body = { allow_unregistered_users: true, hide_results_until_finished: true, questions: [{ id: 1, label: 'Which colour now?', choices: [{ id: 2, label: 'Blue' }, { id: 1, label: 'Red' }, { label: 'Green' }] }, { label: 'New open one', is_open: true, choices: [] }] };
  assert.equal((await edit({}, body)).status, 401);
  for (const user of [3, 4, 6]) assert.equal((await edit(await tokenHeader(t.db, user), body)).status, 403, `user ${user}`);
  const saved = await edit(await tokenHeader(t.db, 2), body);
  assert.equal(saved.status, 200, saved.text);
  const poll = saved.body as PollJson & { allow_unregistered_users: boolean };
  assert.equal(poll.allow_unregistered_users, true);
  assert.deepEqual(poll.questions.map((q) => q.id).slice(0, 1), [1]);
  assert.equal(poll.questions.length, 2);
  assert.deepEqual((poll.questions[0] as unknown as { choices: { label: string }[] }).choices.map((c) => c.label), ['Blue', 'Red', 'Green']);
  const patched = await edit(await tokenHeader(t.db, 7), { hide_results_until_finished: false }, 'PATCH');
  assert.equal(patched.status, 200);
  assert.equal((patched.body as { allow_unregistered_users: boolean }).allow_unregistered_users, false, 'omitted means off, as adhocracy+');
  assert.equal((patched.body as PollJson).questions.length, 2, 'no questions sent: the questions stay');
});

test('an edit that would falsify results after votes exist is a 400 naming the votes; relabelling works', async () => {
  const t = await pollApp();
  await t.request({ method: 'POST', url: '/api/polls/1/vote/', headers: await tokenHeader(t.db, 4), payload: ballot([1], [4, 5]) });
  const initiator = await tokenHeader(t.db, 2);
  const questions = (q1: Record<string, unknown>, q2: Record<string, unknown> = {}) => [
    { id: 1, label: 'Which colour?', choices: [{ id: 1, label: 'Red' }, { id: 2, label: 'Blue' }, { id: 3, label: 'Other', is_other_choice: true }], ...q1 },
    { id: 2, label: 'Which days?', multiple_choice: true, choices: [{ id: 4, label: 'Monday' }, { id: 5, label: 'Friday' }], ...q2 },
    { id: 3, label: 'Anything else?', is_open: true },
  ];
  const put = (payload: unknown) => t.request({ method: 'PUT', url: '/api/polls/1/', headers: initiator, payload: payload as Record<string, unknown> });
  const switched = await put({ questions: questions({}, { multiple_choice: false }) });
  assert.equal(switched.status, 400);
  assert.match(JSON.stringify(switched.body), /The question \\"Which days\?\\" has votes \(2\): switching between single and multiple choice/);
  const deleted = await put({ questions: questions({ choices: [{ id: 2, label: 'Blue' }, { id: 3, label: 'Other', is_other_choice: true }] }) });
  assert.equal(deleted.status, 400);
  assert.match(JSON.stringify(deleted.body), /The choice \\"Red\\" has votes \(1\): deleting it would lose them/);
  const dropped = await put({ questions: questions({}).slice(0, 1) });
  assert.equal(dropped.status, 400);
  assert.match(JSON.stringify(dropped.body), /Which days\?.*has votes \(2\)/);
  const relabelled = await put({ questions: questions({ label: 'Which colour, really?', choices: [{ id: 1, label: 'Crimson' }, { id: 2, label: 'Blue' }, { id: 3, label: 'Other', is_other_choice: true }] }) });
  assert.equal(relabelled.status, 200, relabelled.text);
  assert.deepEqual(counts(relabelled.body as PollJson)[0], [1, 0, 0]);
  const invalid = await put({ questions: [{ label: '', is_open: true, multiple_choice: true }] });
  assert.equal(invalid.status, 400);
  assert.deepEqual((invalid.body as { questions: Record<string, string[]>[] }).questions[0].label, ['This field is required.']);
  const otherOnly = await put({ questions: [...questions({}), { label: 'Only other', choices: [{ label: 'Other', is_other_choice: true }] }] });
  assert.equal(otherOnly.status, 400);
  assert.match(JSON.stringify(otherOnly.body), /"Other\\" cannot be the only choice/);
});

test('other methods answer 405', async () => {
  const t = await pollApp();
  assert.equal((await t.request({ method: 'DELETE', url: '/api/polls/1/', headers: await tokenHeader(t.db, 2) })).status, 405);
  assert.equal((await t.request({ method: 'GET', url: '/api/polls/1/vote/' })).status, 405);
});

test('two ballots of one voter at once (a double click) end as one ballot, also on PostgreSQL', async () => {
  const t = await pollApp();
  const member = await tokenHeader(t.db, 4);
  const answers = await Promise.all([ballot([1], [4]), ballot([2], [5]), ballot([1], [4, 5])].map((payload) => t.request({ method: 'POST', url: '/api/polls/1/vote/', headers: member, payload })));
  assert.deepEqual(answers.map((a) => a.status), [201, 201, 201]);
  const votes = await t.db.select().from(pollVotes);
  const q1 = votes.filter((v) => v.choiceId <= 3);
  assert.equal(q1.length, 1, 'one vote on the single-choice question');
  assert.equal((await t.db.select().from(pollAnswers)).length, 1);
});
