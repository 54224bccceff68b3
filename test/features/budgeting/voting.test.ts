import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, eq, isNotNull } from 'drizzle-orm';
import { budgetBallotChoices, budgetBallots, budgetSettings, budgetVoteCodes, proposalSupports } from '../../../src/features/budgeting/schema.js';
import { users } from '../../../src/db/schema/index.js';
import { Browser } from '../../me/accounts/client.js';
import { signedIn } from '../../manage/world.js';
import { assertStatus, budgetApp, BUDGET_MODULES, checkedOn, proposalId } from './world.js';

const S = BUDGET_MODULES.supporting;
const V = BUDGET_MODULES.voting;
const C = BUDGET_MODULES.counted;

test('supporting: a participant supports up to the limit, once per proposal, withdraws, and the counts show', async () => {
  const { app, db } = await budgetApp();
  const member = await signedIn(app, 'member');
  const url = '/org/budgeting/module/supporting/support/';
  const page = await member.get(url);
  assertStatus(page, 200, 'the support page');
  assert.match(page.text, /Support Park 30/);
  for (const n of [1, 1, 2] as const) assertStatus(await member.post(url, { proposal: String(proposalId(S, n)), action: 'support' }), 302, 'support');
  const third = await member.post(url, { proposal: String(proposalId(S, 3)), action: 'support' });
  assertStatus(third, 302, 'a support over the limit');
  assert.match((await member.get(url)).text, /You have used all your supports/);
  assert.deepEqual((await db.select().from(proposalSupports).where(eq(proposalSupports.userId, 4))).map((r) => r.proposalId).sort(), [proposalId(S, 1), proposalId(S, 2)]);
  assert.match((await member.get(url)).text, /id="proposal-301">.*?1 support</s);
  await member.post(url, { proposal: String(proposalId(S, 1)), action: 'withdraw' });
  assert.equal((await db.select().from(proposalSupports).where(eq(proposalSupports.userId, 4))).length, 1);
  const anonymous = new Browser(app);
  assert.match((await anonymous.get(url)).text, /Log in to support proposals/);
  assert.match((await anonymous.post(url, { proposal: String(proposalId(S, 3)), action: 'support' })).location ?? '', /^\/accounts\/login\//);
  assertStatus(await member.post(url, { proposal: String(proposalId(V, 1)), action: 'support' }), 404, 'a proposal of another module');
  assertStatus(await member.post('/org/budgeting/module/voting/support/', { proposal: String(proposalId(V, 1)), action: 'support' }), 403, 'after the support phase');
});

test('supporting at once: many supports of one participant never go over the limit', async () => {
  const { app, db } = await budgetApp();
  const member = await signedIn(app, 'member');
  const url = '/org/budgeting/module/supporting/support/';
  const answers = await Promise.all(([1, 2, 3, 4, 1, 2] as const).map((n) => member.post(url, { proposal: String(proposalId(S, n)), action: 'support' })));
  for (const answer of answers) assert.equal(answer.status, 302);
  assert.equal((await db.select().from(proposalSupports).where(eq(proposalSupports.userId, 4))).length, 2);
});

test('the ballot: cast, refused with the reason beside it, changed until the phase ends; only the last one counts', async () => {
  const { app, db } = await budgetApp();
  const member = await signedIn(app, 'member');
  const url = '/org/budgeting/module/voting/ballot/';
  const form = await member.get(url);
  assertStatus(form, 200, 'the ballot');
  assert.match(form.text, /The budget is 100,000 €\. Choose proposals that cost at least 50,000 €/);
  const over = await member.post(url, { proposal: [String(proposalId(V, 1)), String(proposalId(V, 4))] });
  assertStatus(over, 400, 'over the budget');
  assert.match(over.text, /Your choice costs 110,000 €, more than the budget of 100,000 €\./);
  assert.deepEqual(checkedOn(over.text), [proposalId(V, 1), proposalId(V, 4)], 'the choice comes back checked');
  const under = await member.post(url, { proposal: String(proposalId(V, 3)) });
  assertStatus(under, 400, 'under the share');
  assertStatus(await member.post(url, { proposal: ['banana'] }), 400, 'not a proposal');
  assertStatus(await member.post(url, { proposal: [String(proposalId(V, 1)), String(proposalId(V, 2))] }), 302, 'a valid ballot');
  const changed = await member.post(url, { proposal: [String(proposalId(V, 1)), String(proposalId(V, 3))] });
  assertStatus(changed, 302, 'the change');
  const after = await member.get(url);
  assert.match(after.text, /Your ballot has been changed\./);
  assert.deepEqual(checkedOn(after.text), [proposalId(V, 1), proposalId(V, 3)]);
  const ballots = await db.select().from(budgetBallots).where(eq(budgetBallots.moduleId, V));
  assert.equal(ballots.length, 1);
  assert.deepEqual((await db.select().from(budgetBallotChoices).where(eq(budgetBallotChoices.ballotId, ballots[0].id))).map((c) => c.proposalId).sort(), [proposalId(V, 1), proposalId(V, 3)]);
  assertStatus(await member.post('/org/budgeting/module/counted/ballot/', { proposal: [String(proposalId(C, 1)), String(proposalId(C, 3))] }), 403, 'the phase is over');
  assert.match((await new Browser(app).get(url)).text, /Log in to vote\./);
});

test('one ballot per participant, also when two changes arrive at once', async () => {
  const { app, db } = await budgetApp();
  const member = await signedIn(app, 'member');
  const url = '/org/budgeting/module/voting/ballot/';
  const answers = await Promise.all([
    member.post(url, { proposal: [String(proposalId(V, 1)), String(proposalId(V, 2))] }),
    member.post(url, { proposal: [String(proposalId(V, 1)), String(proposalId(V, 3))] }),
    member.post(url, { proposal: [String(proposalId(V, 2)), String(proposalId(V, 3))] }),
  ]);
  for (const answer of answers) assert.equal(answer.status, 302);
  const ballots = await db.select().from(budgetBallots).where(eq(budgetBallots.moduleId, V));
  assert.equal(ballots.length, 1);
  assert.equal((await db.select().from(budgetBallotChoices).where(eq(budgetBallotChoices.ballotId, ballots[0].id))).length, 2, 'one whole ballot, not a mix');
});

async function generatedCodes(app: Parameters<typeof signedIn>[0], db: Awaited<ReturnType<typeof budgetApp>>['db'], moduleSlug: string, moduleId: number, count: number) {
  const initiator = await signedIn(app, 'initiator');
  const made = await initiator.post(`/org/dashboard/modules/${moduleSlug}/vote_codes/`, { count: String(count), format: 'csv' });
  assertStatus(made, 200, 'generating codes');
  assert.equal((await db.select().from(budgetVoteCodes).where(eq(budgetVoteCodes.moduleId, moduleId))).length, count);
  return { initiator, codes: made.text.trim().split(/\r\n/).slice(1).map((c) => c.replace(/-/g, '')) };
}

test('vote codes: the initiator generates them (and gets them once); a code casts one ballot without an account, then is spent', async () => {
  const { app, db } = await budgetApp();
  const { initiator, codes } = await generatedCodes(app, db, 'voting', V, 3);
  assert.equal(codes.length, 3);
  const component = await initiator.get('/org/dashboard/modules/voting/vote_codes/');
  assert.match(component.text, /3 codes, 0 of them used\./);
  assert.match(component.text, /in the voting phase of Budget voting, without an account/, 'the module by its name, not its slug');

  const voter = new Browser(app);
  const url = '/org/budgeting/module/voting/code/';
  assertStatus(await voter.get(url), 200, 'the code page');
  const wrong = await voter.post(url, { code: 'AAAA-BBBB-CCCC-DDDD' });
  assertStatus(wrong, 400, 'an unknown code');
  assert.match(wrong.text, /This code is not valid for this vote, or it has been used already\./);
  const typed = codes[0].toLowerCase().replace(/(.{4})/g, '$1 ');
  const ballot = await voter.post(url, { code: typed });
  assertStatus(ballot, 200, 'a known code');
  assert.match(ballot.text, /name="cast" value="1"/);
  const bad = await voter.post(url, { code: codes[0], cast: '1', proposal: String(proposalId(V, 3)) });
  assertStatus(bad, 400, 'a ballot under the share of the budget');
  assert.match(bad.text, /Spend at least 50,000 € \(50 % of the budget\); your choice costs 20,000 €\./);
  assert.equal((await db.select().from(budgetVoteCodes).where(isNotNull(budgetVoteCodes.used))).length, 0, 'a refused ballot spends no code');
  const cast = await voter.post(url, { code: codes[0], cast: '1', proposal: [String(proposalId(V, 1)), String(proposalId(V, 3))] });
  assertStatus(cast, 200, 'the ballot');
  assert.match(cast.text, /Your ballot has been cast and your code is now spent\./);
  const again = await voter.post(url, { code: codes[0], cast: '1', proposal: [String(proposalId(V, 1)), String(proposalId(V, 3))] });
  assertStatus(again, 400, 'the spent code');
  assert.equal((await db.select().from(budgetBallots).where(and(eq(budgetBallots.moduleId, V), isNotNull(budgetBallots.voteCodeId)))).length, 1);
  assert.match((await initiator.get('/org/dashboard/modules/voting/vote_codes/')).text, /3 codes, 1 of them used\./);
  assertStatus(await voter.post('/org/budgeting/module/foreign-vote/code/', { code: codes[1] }), 404, 'a code of another module, in another organisation');
  assertStatus(await voter.post('/other-org/budgeting/module/foreign-vote/code/', { code: codes[1] }), 400, 'a code of another module');
});

test('a vote code used by many at once casts exactly one ballot', async () => {
  const { app, db } = await budgetApp();
  const { codes } = await generatedCodes(app, db, 'voting', V, 1);
  const voters = Array.from({ length: 6 }, () => new Browser(app));
  for (const voter of voters) await voter.get('/org/budgeting/module/voting/code/');
  const answers = await Promise.all(voters.map((voter) => voter.post('/org/budgeting/module/voting/code/', { code: codes[0], cast: '1', proposal: [String(proposalId(V, 1)), String(proposalId(V, 2))] })));
  assert.deepEqual(answers.map((a) => a.status).sort(), [200, 400, 400, 400, 400, 400]);
  assert.equal((await db.select().from(budgetBallots).where(eq(budgetBallots.moduleId, V))).length, 1);
});

test('wrong vote codes are throttled per address; good ones from one address (a polling station) are not', async () => {
  const { app, db } = await budgetApp();
  const { codes } = await generatedCodes(app, db, 'voting', V, 12);
  const station = new Browser(app);
  await station.get('/org/budgeting/module/voting/code/');
  for (const code of codes) {
    const cast = await station.post('/org/budgeting/module/voting/code/', { code, cast: '1', proposal: [String(proposalId(V, 1)), String(proposalId(V, 2))] });
    assertStatus(cast, 200, 'a good code');
  }
  const statuses: number[] = [];
  for (let i = 0; i < 7; i++) statuses.push((await station.post('/org/budgeting/module/voting/code/', { code: `WRONG${i}` })).status);
  assert.deepEqual(statuses, [...Array<number>(5).fill(400), 429, 429], 'five wrong tries of one code (as typed: its first four characters), then 429');
});

test('a mistyping queue at a polling station does not lock out the next voters; the address still has a limit (issue 36.16)', async () => {
  const { app, db } = await budgetApp();
  const { codes } = await generatedCodes(app, db, 'voting', V, 1);
  const station = new Browser(app);
  await station.get('/org/budgeting/module/voting/code/');
  const url = '/org/budgeting/module/voting/code/';
  // Twelve voters before: each mistypes their own code twice (every code begins differently).
  const mistyped = Array.from({ length: 12 }, (_, i) => `${'ABCDEFGHJKLM'[i]}${'NPQRSTUVWXYZ'[i]}${'23456789ABCD'[i]}ZZZZZZZZZZZZZ`);
  for (const typed of mistyped) for (let n = 0; n < 2; n++) assertStatus(await station.post(url, { code: typed }), 400, 'a mistyped code');
  assertStatus(await station.post(url, { code: codes[0] }), 200, 'the next voter with a good code');
  // The address's own limit: 100 wrong codes in the window, whatever they begin with.
  const statuses: number[] = [];
  for (let i = 0; i < 78; i++) statuses.push((await station.post(url, { code: `${String(i).padStart(4, '0')}XXXXXXXXXXXX` })).status);
  assert.deepEqual(statuses.slice(-3), [400, 429, 429], 'the 100th wrong code of the address is the last');
  assertStatus(await station.post(url, { code: codes[0] }), 429, 'then the address waits, with good codes too');
});

test('the result: ranked by votes, winners within the budget, the bar chart; public once the vote is over; the export', async () => {
  const { app, db } = await budgetApp();
  const ballots = [
    [1, 3],
    [1, 2],
    [2, 3],
    [4],
  ] as const;
  for (const [i, chosen] of ballots.entries()) {
    const [ballot] = await db.insert(budgetBallots).values({ moduleId: C, userId: i + 1 }).returning();
    await db.insert(budgetBallotChoices).values(chosen.map((n) => ({ ballotId: ballot.id, proposalId: proposalId(C, n as 1 | 2 | 3 | 4) })));
  }
  const anonymous = new Browser(app);
  const page = await anonymous.get('/org/budgeting/module/counted/result/');
  assertStatus(page, 200, 'the result');
  assert.match(page.text, /4 ballots were cast\./);
  // Park 2, Bridge 2, Bench 2, Pool 1 → Park (50,000) and Bridge (30,000) and Bench (20,000) fit into 100,000.
  const rows = [...page.text.matchAll(/<tr id="result-(\d+)"( class="winner")?>/g)].map((m) => [Number(m[1]), Boolean(m[2])]);
  assert.deepEqual(rows, [
    [proposalId(C, 1), true],
    [proposalId(C, 2), true],
    [proposalId(C, 3), true],
    [proposalId(C, 4), false],
  ]);
  assert.match(page.text, /<svg viewBox="0 0 640 \d+" role="img"/);
  assert.match(page.text, /<title id="vote-chart-title">Votes per proposal<\/title>/);
  assertStatus(await anonymous.get('/org/budgeting/module/voting/result/'), 404, 'while voting: not for the public');
  assertStatus(await (await signedIn(app, 'user')).get('/org/budgeting/module/voting/result/'), 403, 'while voting: not for a user');
  const moderator = await signedIn(app, 'moderator');
  assert.match((await moderator.get('/org/budgeting/module/voting/result/')).text, /this result is preliminary/);
  const initiator = await signedIn(app, 'initiator');
  const csv = await initiator.download('/org/dashboard/modules/counted/export/result.csv');
  assert.equal(csv.status, 200);
  const text = csv.body.toString('utf8');
  assert.match(text, /Rank,Reference No\.,Title,Budget,Votes,Winner/);
  assert.match(text, /1,\d{4}-00321,Park 32,50000,2,yes/);
  assert.equal((await initiator.download('/org/dashboard/modules/counted/export/result.xlsx')).status, 200);
});

test('the module page links to the support, ballot, code and result pages', async () => {
  const { app } = await budgetApp();
  const member = await signedIn(app, 'member');
  assert.match((await member.get('/org/projects/module/supporting/')).text, /href="\/org\/budgeting\/module\/supporting\/support\/">Support proposals now/);
  const voting = (await member.get('/org/projects/module/voting/')).text;
  assert.match(voting, /href="\/org\/budgeting\/module\/voting\/ballot\/">Vote now/);
  assert.match(voting, /href="\/org\/budgeting\/module\/voting\/code\/">Vote with a vote code/);
  assert.match((await member.get('/org/projects/module/counted/')).text, /href="\/org\/budgeting\/module\/counted\/result\/">Result of the vote/);
});

test('a ballot for one proposal says so in the singular, on the form and in its refusal, in English and German', async () => {
  const { app, db } = await budgetApp();
  // Set before the vote (the dashboard locks the settings once it runs).
  await db.update(budgetSettings).set({ rule: 'count', minProposals: 1, maxProposals: 1 }).where(eq(budgetSettings.moduleId, V));
  const member = await signedIn(app, 'member');
  const url = '/org/budgeting/module/voting/ballot/';
  assert.match((await member.get(url)).text, /The budget is 100,000 €\. Choose 1 proposal\./);
  const two = await member.post(url, { proposal: [String(proposalId(V, 1)), String(proposalId(V, 2))] });
  assertStatus(two, 400, 'two proposals');
  assert.match(two.text, /Choose at most 1 proposal\./);
  await db.update(users).set({ language: 'de' }).where(eq(users.username, 'member'));
  const german = await signedIn(app, 'member');
  assert.match((await german.get(url)).text, /Wählen Sie 1 Vorschlag\./);
  assert.match((await german.post(url, { proposal: [String(proposalId(V, 1)), String(proposalId(V, 2))] })).text, /Wählen Sie höchstens 1 Vorschlag\./);
});
