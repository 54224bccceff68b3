import '../../src/module-types.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { polls, pollVotes } from '../../src/features/polls/schema.js';
import { Browser, solvedChallenge } from '../me/accounts/client.js';
import { signedIn } from '../manage/world.js';
import { load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';
import { ballot, pollWorld } from '../features/polls/world.js';

async function openPoll() {
  const t = await createTestApp({ pollBallotLimitPerIp: 5 });
  await load(t.db, pollWorld());
  await t.db.update(polls).set({ allowUnregisteredUsers: true }).where(eq(polls.id, 1));
  /** A cookie-less scripted ballot through the API, from the given address. */
  const scripted = async (address: string) =>
    t.app.inject({ method: 'POST', url: '/api/polls/1/vote/', remoteAddress: address, payload: { ...ballot([1], [4], ''), captcha: await solvedChallenge(t.app) } });
  return { ...t, scripted };
}

/** A browser without JavaScript, answering the page's sum. */
async function bySum(browser: Browser, fields: Record<string, string> = {}) {
  const page = await browser.get('/org/projects/module/poll/');
  const token = /name="challenge_token" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
  const [, a, b] = /what is (\d+) plus (\d+)\?/.exec(page.text) ?? [];
  return browser.post('/org/projects/module/poll/poll/', { q1: '1', challenge_token: token, challenge_answer: String(Number(a) + Number(b)), website: '', ...fields });
}

const ballots = async (db: Awaited<ReturnType<typeof createTestApp>>['db']) => Number((await db.select({ n: sql<number>`count(distinct ${pollVotes.voterToken})` }).from(pollVotes))[0].n);

test('issue 36 finding 1: cookie-less ballots from one address are limited per poll (429), other addresses still vote', async () => {
  const { db, config, scripted } = await openPoll();
  const answers: number[] = [];
  for (let i = 0; i <= config.pollBallotLimitPerIp; i++) answers.push((await scripted('10.0.0.1')).statusCode);
  assert.deepEqual(answers.slice(0, -1), Array(config.pollBallotLimitPerIp).fill(201));
  const refused = await scripted('10.0.0.1');
  assert.equal(refused.statusCode, 429);
  assert.ok(Number(refused.headers['retry-after']) > 0);
  assert.equal(await ballots(db), config.pollBallotLimitPerIp, 'the refused ballots were not stored');
  assert.equal((await scripted('10.0.0.2')).statusCode, 201, 'another address is not affected');
});

test('issue 36 finding 1: the no-script sum counts only a few ballots per address and poll', async () => {
  const { app, db } = await openPoll();
  for (let i = 0; i < 3; i++) assert.equal((await bySum(new Browser(app))).status, 302);
  assert.equal(await ballots(db), 3);
  const fourth = new Browser(app);
  assert.equal((await bySum(fourth)).status, 302);
  assert.match((await fourth.get('/org/projects/module/poll/')).text, /Too many ballots from your address/);
  assert.equal(await ballots(db), 3, 'the fourth sum ballot from the address is not stored');
});

test('issue 36 finding 1: a filled-in honeypot on the poll form is answered as usual and stores nothing', async () => {
  const { app, db } = await openPoll();
  const robot = new Browser(app);
  const posted = await bySum(robot, { website: 'http://spam.example' });
  assert.equal(posted.status, 302);
  assert.equal(await ballots(db), 0);
});

test('issue 36 finding 1: initiators see the unregistered ballots and the distinct addresses, on the result and in the export, never the address', async () => {
  const { app, db, scripted } = await openPoll();
  for (const address of ['10.0.0.1', '10.0.0.1', '10.0.0.1', '10.0.0.7']) assert.equal((await scripted(address)).statusCode, 201);
  const initiator = await signedIn(app, 'initiator');
  assert.match((await initiator.get('/org/projects/module/poll/')).text, /Ballots without an account: 4, from different addresses: 2/);
  const member = await signedIn(app, 'member');
  assert.doesNotMatch((await member.get('/org/projects/module/poll/')).text, /Ballots without an account/, 'only those who may change the poll see it');
  const lines = (await initiator.download('/org/dashboard/modules/poll/export/poll.csv')).body.toString('utf8').trim().split(/\r?\n/);
  assert.match(lines[0], /,Address group$/);
  assert.deepEqual(lines.slice(1).map((line) => line.split(',').at(-1)).sort(), ['A1', 'A1', 'A1', 'A2']);
  const stored = JSON.stringify(await db.select().from(pollVotes));
  assert.doesNotMatch(stored, /10\.0\.0\.[17]/, 'the plain address is never stored');
});

test('issue 36 finding 5: visitors of one kept poll page each get their own single-use sum, and both vote', async () => {
  const { app, db } = await openPoll();
  const [first, second] = [new Browser(app), new Browser(app)];
  const [one, two] = [await first.get('/org/projects/module/poll/'), await second.get('/org/projects/module/poll/')];
  const tokenOf = (text: string) => /name="challenge_token" value="([^"]+)"/.exec(text)?.[1];
  assert.ok(tokenOf(one.text));
  assert.notEqual(tokenOf(one.text), tokenOf(two.text));
  assert.equal((await bySum(first)).status, 302);
  assert.equal((await bySum(second)).status, 302);
  assert.equal(await ballots(db), 2);
});
