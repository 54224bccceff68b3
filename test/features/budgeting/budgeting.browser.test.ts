import assert from 'node:assert/strict';
import { test } from 'node:test';
import { budgetBallotChoices, budgetBallots } from '../../../src/features/budgeting/schema.js';
import { BUDGET_MODULES, proposalId } from './world.js';
import { budgetBrowser } from './browser.js';
import { assertAccessible, chromiumMissing, logInAs, newLocalePage } from '../../chromium.js';

/**
 * A participatory budget's support and voting phases in Chromium, without and with JavaScript
 * being of any help (plain forms): an initiator sets the rules and makes vote codes, a member
 * supports and votes, a code voter votes without an account, and the result shows the winners.
 * Every page passes axe, in English and German.
 */
const world = await budgetBrowser();
const { t, base } = world;

test('a participatory budget in the browser: rules, supports, a ballot, a code voter, the result', { skip: chromiumMissing }, async () => {
  const initiator = await newLocalePage(world.chromium);
  await logInAs(initiator, base, 'initiator');
  await initiator.goto(`${base}/org/dashboard/modules/supporting/voting_settings/`);
  await initiator.getByLabel('Total budget (euros)').fill('100000');
  await initiator.getByLabel('Choose between a minimum and a maximum number of proposals').check();
  await initiator.getByLabel('Minimum number of proposals', { exact: true }).fill('1');
  await initiator.getByLabel('Maximum number of proposals', { exact: true }).fill('2');
  await assertAccessible(initiator, 'the voting rules');
  await initiator.locator('main').getByRole('button', { name: 'Save' }).click();
  await initiator.waitForURL(/done=saved/);
  await initiator.goto(`${base}/org/dashboard/modules/voting/vote_codes/`);
  await initiator.getByLabel('Number of new codes').fill('2');
  await initiator.getByLabel('Show the printable sheet').check();
  await initiator.locator('main').getByRole('button', { name: 'Save' }).click();
  await initiator.locator('.code').first().waitFor();
  const printed = await initiator.locator('.code').allInnerTexts(); // the only time the codes are shown (issue 36.9)
  assert.equal(printed.length, 2);
  await initiator.goto(`${base}/org/dashboard/modules/voting/vote_codes/`);
  assert.match(await initiator.locator('#vote-code-summary').innerText(), /2 codes, 0 of them used/);
  await assertAccessible(initiator, 'the vote codes');

  const member = await newLocalePage(world.chromium);
  await logInAs(member, base, 'member');
  await member.goto(`${base}/org/projects/module/supporting/`);
  await member.getByRole('link', { name: 'Support proposals now' }).click();
  await member.getByRole('button', { name: `Support Park ${BUDGET_MODULES.supporting}` }).click();
  await member.getByText('Thank you for your support.').waitFor();
  assert.match(await member.locator(`#proposal-${proposalId(BUDGET_MODULES.supporting, 1)}`).innerText(), /1 support/);
  await assertAccessible(member, 'the support page');

  await member.goto(`${base}/org/projects/module/voting/`);
  await member.getByRole('link', { name: 'Vote now' }).click();
  await member.getByLabel(/^Park 31/).check();
  await member.getByLabel(/^Pool 31/).check();
  await member.getByRole('button', { name: 'Cast my ballot' }).click();
  await member.getByText(/more than the budget/).waitFor();
  await assertAccessible(member, 'the ballot with its error');
  await member.getByLabel(/^Pool 31/).uncheck();
  await member.getByLabel(/^Bridge 31/).check();
  await member.getByRole('button', { name: 'Cast my ballot' }).click();
  await member.getByText('Your ballot has been cast.').waitFor();
  await assertAccessible(member, 'the ballot');

  const voter = await newLocalePage(world.chromium, 'de-DE');
  await voter.goto(`${base}/org/budgeting/module/voting/code/`);
  await assertAccessible(voter, 'the code page (German)');
  await voter.getByLabel('Abstimmungscode').fill(printed[0].toLowerCase());
  await voter.getByRole('button', { name: 'Weiter' }).click();
  await voter.getByLabel(/^Bench 31/).check();
  await voter.getByLabel(/^Bridge 31/).check();
  await assertAccessible(voter, "the code voter's ballot (German)");
  await voter.getByRole('button', { name: 'Stimmzettel abgeben' }).click();
  await voter.getByText(/Ihr Code ist damit verbraucht/).waitFor();

  const counted = BUDGET_MODULES.counted;
  for (const [i, chosen] of [[1, 3], [2, 3], [4]].entries()) {
    const [ballot] = await t.db.insert(budgetBallots).values({ moduleId: counted, userId: i + 1 }).returning();
    await t.db.insert(budgetBallotChoices).values(chosen.map((n) => ({ ballotId: ballot.id, proposalId: proposalId(counted, n as 1 | 2 | 3 | 4) })));
  }
  for (const locale of ['en-US', 'de-DE']) {
    const visitor = await newLocalePage(world.chromium, locale);
    await visitor.goto(`${base}/org/projects/module/counted/`);
    await visitor.getByRole('link', { name: /Result of the vote|Ergebnis der Abstimmung/ }).click();
    await visitor.locator('svg[role="img"]').waitFor();
    const winners = await visitor.locator('tr.winner th').allInnerTexts();
    assert.deepEqual(winners, [`Bench ${counted}`, `Park ${counted}`, `Bridge ${counted}`]);
    await assertAccessible(visitor, `the result (${locale})`);
  }
});
