import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { outbox } from '../../../src/db/schema/index.js';
import { ideaPath } from '../../../src/core/urls.js';
import { assertAccessible, chromiumMissing, launchChromium, logInAs, newLocalePage } from '../../chromium.js';
import { PARK, resultsApp } from './world.js';

/**
 * Results in Chromium (issue 39, "done when"): an initiator turns the winners of a budget vote into
 * results from the project dashboard, moves one to "done" with a timeline entry, and the proposal's
 * author sees it on the proposal's page, in the feed and in the mail, by clicking, and asks in the
 * result's discussion; every page axe-clean, the Results tab in English and German.
 */
const t = chromiumMissing ? null : await resultsApp();
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
  await ines.context().close();

  // The author: on the proposal's page, in the feed, and from the mail.
  const author = await windowOf('user');
  await author.goto(`${base}${ideaPath('org', new Date(), PARK, 'budgeting')}`);
  const notice = author.locator('.became-part-of');
  assert.match((await notice.innerText()).replace(/\s+/g, ' '), /This became part of: Park 32 — done, 100 %/);
  await assertAccessible(author, 'proposal page with its result');
  await author.goto(`${base}/userdashboard/overview/`);
  await author.getByText('of your contribution is now "done" (100 %)').waitFor();
  await author.locator('.feed').getByRole('link', { name: 'Park 32' }).first().click();
  await author.getByRole('heading', { level: 1, name: 'Park 32' }).waitFor();
  await author.getByText('The playground is open.').waitFor();
  assert.equal(await author.getByText('Add a timeline entry').count(), 0);
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
});
