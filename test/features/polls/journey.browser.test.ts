import '../../../src/module-types.js';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { load } from '../../fixtures.js';
import { createTestApp, type TestApp } from '../../helpers.js';
import { pollWorld } from './world.js';
import { assertAccessible, chromiumMissing, launchChromium, logInAs } from '../../chromium.js';

/**
 * The poll in the browser (issue 25): the initiator adds a question in the dashboard's editor; a
 * citizen votes without JavaScript (one form), another with it (one question per step); the
 * results show. The editor and the module page pass axe.
 */
let t: TestApp;
let chromium: Browser;
let base: string;

if (!chromiumMissing) {
  t = await createTestApp();
  await load(t.db, pollWorld());
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
}

before(async () => {
  if (!chromiumMissing) chromium = await launchChromium();
});

after(async () => {
  await chromium?.close();
});

const form = (p: Page) => p.locator('form.poll-form');

async function page(javaScriptEnabled = true): Promise<Page> {
  const context = await chromium.newContext({ javaScriptEnabled, locale: 'en-US', extraHTTPHeaders: { 'accept-language': 'en-US' } });
  context.setDefaultTimeout(30_000);
  return context.newPage();
}

test('the initiator adds a question in the poll editor', { skip: chromiumMissing }, async () => {
  const p = await page();
  await logInAs(p, base, 'initiator');
  await p.goto(`${base}/org/dashboard/modules/poll/polls/`);
  await assertAccessible(p, 'the poll editor');
  const added = p.locator('fieldset.poll-editor-question').last();
  await added.getByLabel('Question', { exact: true }).fill('Where should we meet?');
  await added.getByLabel('Choice 1', { exact: true }).fill('Town hall');
  await added.getByLabel('Choice 2', { exact: true }).fill('Library');
  await p.getByRole('button', { name: 'Save' }).click();
  await p.waitForURL(/polls\/\?/);
  assert.equal(await p.locator('input[value="Where should we meet?"]').count(), 1);
});

test('a citizen votes without JavaScript: one form with every question', { skip: chromiumMissing }, async () => {
  const p = await page(false);
  await logInAs(p, base, 'member');
  await p.goto(`${base}/org/projects/module/poll/`);
  assert.equal(await p.locator('fieldset.poll-question').count(), 4);
  await form(p).getByLabel('Red', { exact: true }).check();
  await form(p).getByLabel('Monday', { exact: true }).check();
  await form(p).getByLabel('Friday', { exact: true }).check();
  await p.getByLabel('Your answer').fill('More benches');
  await form(p).getByLabel('Library', { exact: true }).check();
  await p.getByRole('button', { name: 'Submit answers' }).click();
  await p.getByText('Thank you for taking part in the poll.').waitFor();
});

test('a citizen votes with JavaScript, one question per step; the results show', { skip: chromiumMissing }, async () => {
  const p = await page();
  await logInAs(p, base, 'user');
  await p.goto(`${base}/org/projects/module/poll/`);
  await assertAccessible(p, 'the module page with the poll');
  const visibleSteps = () => p.locator('fieldset.poll-question:visible').count();
  assert.equal(await visibleSteps(), 1);
  await form(p).getByLabel('Other', { exact: true }).check();
  await p.getByLabel('Other: please specify').fill('Green');
  await p.getByRole('button', { name: 'Next' }).click();
  await form(p).getByLabel('Friday', { exact: true }).check();
  await p.getByRole('button', { name: 'Next' }).click();
  await p.getByLabel('Your answer').fill('Shade');
  await p.getByRole('button', { name: 'Next' }).click();
  await form(p).getByLabel('Library', { exact: true }).check();
  await p.getByRole('button', { name: 'Submit answers' }).click();
  await p.getByText('Thank you for taking part in the poll.').waitFor();
  const results = p.locator('.poll-results');
  assert.match(await p.locator('.poll').innerText(), /2 participants/);
  assert.match(await results.innerText(), /Library\s*100 % \(2 votes\)/);
  assert.match(await results.innerText(), /Friday\s*100 % \(2 votes\)/);
  await results.getByText('Other answers').click();
  await results.getByText('Green').waitFor();
  await assertAccessible(p, 'the module page after voting');
});
