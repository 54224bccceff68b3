import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { outbox } from '../../../src/db/schema/index.js';
import { assertAccessible, chromiumMissing, launchChromium, logInAs, newLocalePage } from '../../chromium.js';
import { daysFromNow, load } from '../../fixtures.js';
import { resultsApp } from './world.js';

/**
 * Results in Chromium (issue 39, "done when"): an initiator turns the winners of a budget vote into
 * results from the project dashboard, moves one to "done" with a timeline entry, links a poll's
 * question through the link form's search, opens the statuses and the import's preview; the
 * proposal's author sees it in the feed, on the result's page, on the proposal's page (reached from
 * the result) and in the mail, by clicking, and asks in the result's discussion; a visitor reaches
 * the organisation's overview and the poll's question beside its result. Every page axe-clean, the
 * Results tab in English and German.
 */
const t = chromiumMissing ? null : await resultsApp();
// A poll in the project, so that a result answers one of its questions.
if (t)
  await load(t.db, {
    modules: [{ id: 41, slug: 'survey', project: 1, name: 'Survey', description: 'Tell us', blueprint_type: 'PO', phases: [{ type: 'a4polls:voting', name: 'Voting', description: 'Vote', start_date: daysFromNow(-5), end_date: daysFromNow(5) }] }],
    polls: [{ id: 1, module: 41, creator: 2 }],
    questions: [{ id: 1, poll: 1, label: 'Where should the fountain go?' }],
    choices: [{ id: 1, question: 1, label: 'Square' }],
  });
const base = t ? await t.app.listen({ host: '127.0.0.1', port: 0 }) : '';
let chromium: Browser;
before(async () => {
  if (!chromiumMissing) chromium = await launchChromium();
});
after(async () => {
  await chromium?.close();
});

/** A window whose map tiles are not fetched (no network in tests). */
async function windowOf(login: string | null, locale = 'en-US'): Promise<Page> {
  const page = await newLocalePage(chromium, locale);
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort());
  if (login) await logInAs(page, base, login);
  return page;
}

test('an initiator makes the winners results and moves one to done; the proposal’s author sees it on the proposal, in the feed and in a mail', { skip: chromiumMissing }, async () => {
  if (!t) return;
  const ines = await windowOf('initiator');
  await ines.goto(`${base}/org/dashboard/projects/project/basic/`);
  await ines.getByRole('link', { name: 'Results', exact: true }).click();
  await ines.getByRole('heading', { level: 1, name: 'Results' }).waitFor();
  await assertAccessible(ines, 'results dashboard');
  await ines.getByRole('button', { name: 'Make the winners results: Budget counted' }).click();
  await ines.getByText('The winners are results now.').waitFor();
  await assertAccessible(ines, 'results dashboard with results');

  await ines.getByRole('link', { name: 'Park 32', exact: true }).click();
  await ines.getByRole('heading', { level: 1, name: 'Park 32' }).waitFor();
  await assertAccessible(ines, 'result page (editor)');
  await ines.getByLabel('What happened').fill('The playground is open.');
  await ines.getByLabel('New status').selectOption({ label: 'done (100 %)' });
  await ines.getByRole('button', { name: 'Add entry' }).click();
  await ines.getByText('The entry has been added.').waitFor();
  await ines.getByText('Status: planned → done').waitFor();

  // The park also answers a question of the poll: found by the link form's search, linked by a tick.
  await ines.getByRole('link', { name: 'Edit result' }).click();
  await ines.getByRole('heading', { level: 1, name: 'Edit result: Park 32' }).waitFor();
  await assertAccessible(ines, 'result edit page with the link form');
  await ines.getByLabel('Find contributions of the project').fill('fountain');
  await ines.getByRole('button', { name: 'Search', exact: true }).click();
  await ines.getByLabel('Where should the fountain go?').check();
  await ines.getByRole('button', { name: 'Link', exact: true }).click();
  await ines.getByText('The contributions have been linked.').waitFor();
  await assertAccessible(ines, 'result edit page with its links');
  // The organisation's statuses and the import's preview.
  await ines.getByRole('link', { name: 'Back to the results' }).first().click();
  await ines.getByRole('link', { name: 'Statuses of the organisation' }).click();
  await ines.getByRole('heading', { level: 1, name: 'Statuses of results' }).waitFor();
  await assertAccessible(ines, 'statuses of results');
  await ines.goBack();
  await ines.getByRole('link', { name: 'Import results' }).click();
  await ines.getByLabel('File (CSV or xlsx)').setInputFiles({ name: 'results.csv', mimeType: 'text/csv', buffer: Buffer.from('Title,Status\nBenches,planned\n,unknown\n') });
  await ines.getByRole('button', { name: 'Show the preview' }).click();
  await ines.getByRole('heading', { name: 'Preview' }).waitFor();
  await assertAccessible(ines, 'import preview with errors');
  await ines.context().close();

  // The author: in the feed, on the result's page, on the proposal's page by the result's link, and from the mail.
  const author = await windowOf('user');
  await author.goto(`${base}/userdashboard/overview/`);
  await author.getByText('of your contribution is now "done" (100 %)').waitFor();
  await author.locator('.feed').getByRole('link', { name: 'Park 32' }).first().click();
  await author.getByRole('heading', { level: 1, name: 'Park 32' }).waitFor();
  await author.getByText('The playground is open.').waitFor();
  assert.equal(await author.getByText('Add a timeline entry').count(), 0);
  await author.getByRole('region', { name: 'The contributions it answers' }).getByRole('link', { name: 'Park 32' }).click();
  const notice = author.locator('.became-part-of');
  await notice.waitFor();
  assert.match((await notice.innerText()).replace(/\s+/g, ' '), /This became part of: Park 32 — done, 100 %/);
  await assertAccessible(author, 'proposal page with its result');
  await author.goBack();
  // The result's discussion (issue 39.3): the author asks by the page's form; the page stays axe-clean.
  await author.getByLabel('Your comment').fill('When does it open on Sundays?');
  await author.getByRole('button', { name: 'Post', exact: true }).click();
  await author.getByText('Your comment has been posted.').waitFor();
  await author.locator('.comment-text').getByText('When does it open on Sundays?').waitFor();
  await assertAccessible(author, 'result page with its discussion');

  const [mail] = await t.db.select().from(outbox).where(and(eq(outbox.recipient, 'user@example.org'), eq(outbox.kind, 'result_status')));
  assert.match(mail.body, /is now "done" \(100 %\)/);
  const link = /Follow what becomes of it: (\S+)/.exec(mail.body)?.[1] ?? '';
  await author.goto(link.replace(t.config.baseUrl, base));
  await author.getByRole('heading', { level: 1, name: 'Park 32' }).waitFor();
  await author.context().close();

  // The Results tab, for a visitor in English and German.
  for (const [locale, heading] of [['en-US', 'What became of it'], ['de-DE', 'Was daraus wurde']]) {
    const visitor = await windowOf(null, locale);
    await visitor.goto(`${base}/org/projects/project/?tab=result`);
    await visitor.getByRole('heading', { name: heading }).waitFor();
    await visitor.locator('.result-item').first().waitFor();
    await assertAccessible(visitor, `Results tab (${locale})`);
    await visitor.context().close();
  }
  // The organisation's overview, and the poll's page with what its question became part of.
  const visitor = await windowOf(null);
  await visitor.goto(`${base}/org/`);
  await visitor.getByRole('link', { name: 'What became of it' }).click();
  await visitor.getByRole('link', { name: 'Park 32' }).waitFor();
  await assertAccessible(visitor, "the organisation's results");
  await visitor.getByRole('link', { name: 'Park 32' }).click();
  await visitor.getByRole('link', { name: 'Where should the fountain go?' }).click();
  const question = visitor.locator('#poll-question-1');
  assert.match((await question.innerText()).replace(/\s+/g, ' '), /Where should the fountain go\? .*This became part of: Park 32 — done, 100 %/);
  await assertAccessible(visitor, 'poll page with what a question became part of');
  await visitor.context().close();
});
