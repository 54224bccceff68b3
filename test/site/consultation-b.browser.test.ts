import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { users } from '../../src/db/schema/index.js';
import { lastMail, linkIn } from '../me/accounts/client.js';
import { basicWorld, daysFromNow, load } from '../fixtures.js';
import { createTestApp, type TestApp } from '../helpers.js';
import { axeViolations, challengeSolved, chromiumMissing, focused, launchChromium, logInAs } from '../chromium.js';

// One app and one browser for the file (issue 22, items 7, 9 and 10).
let t: TestApp;
let chromium: Browser;
let base: string;

if (!chromiumMissing) {
  t = await createTestApp();
  const world = basicWorld();
  const running = [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(10) }];
  await load(t.db, {
    ...world,
    projects: [
      ...(world.projects ?? []),
      { id: 2, slug: 'bike-lanes', name: 'Bike lanes', description: 'Safer cycling to school', organisation: 1, topics: ['TRA'] },
      { id: 3, slug: 'closed-circle', name: 'Closed circle', organisation: 1, access: 'PRIVATE', participants: [5] },
    ],
    modules: [...(world.modules ?? []), { id: 2, project: 2, name: 'Ideas', phases: running }, { id: 3, project: 3, name: 'Ideas', phases: running }],
  });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
}

before(async () => {
  if (!chromiumMissing) chromium = await launchChromium();
});

after(async () => {
  await chromium?.close();
});

async function newPage(locale = 'en-US', options: BrowserContextOptions = {}): Promise<Page> {
  const context = await chromium.newContext({ locale, extraHTTPHeaders: { 'accept-language': locale }, ...options });
  return context.newPage();
}

async function assertAccessible(page: Page, what: string) {
  const violations = await axeViolations(page);
  assert.deepEqual(violations, [], `${what}: ${JSON.stringify(violations, null, 1)}`);
}

const accountOf = async (username: string) => (await t.db.select().from(users).where(eq(users.username, username)))[0];

test('sign-up by keyboard alone: the widget solves the challenge by itself, the honeypot is never reached', { skip: chromiumMissing }, async () => {
  const page = await newPage();
  await page.goto(`${base}/accounts/signup/`);
  // Typing and Tab only, as a keyboard or screen-reader user does.
  const stops: string[] = [];
  await page.getByLabel('Username').focus();
  await page.keyboard.type('keyboarder');
  for (const text of ['keyboarder@example.org', 'typing-all-the-way', 'typing-all-the-way']) {
    await page.keyboard.press('Tab');
    await page.keyboard.type(text);
  }
  for (let i = 0; i < 25; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    stops.push(f.name || f.id || f.tag);
    if (f.name === 'terms_of_use') await page.keyboard.press('Space');
    if (f.tag === 'button' && f.text === 'Register') break;
  }
  assert.ok(!stops.includes('website'), `the honeypot is not a Tab stop: ${stops.join(', ')}`);
  // The widget has solved its challenge by itself (auto="onload") and says so.
  await challengeSolved(page);
  await assertAccessible(page, 'signup with the solved widget');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Verify your e-mail address' }).waitFor();
  const mail = await lastMail(t.db, 'keyboarder@example.org');
  assert.ok(mail);
  await page.goto(`${base}${linkIn(mail.body, '/accounts/confirm-email/')}`);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.waitForURL(`${base}/userdashboard/overview/`);
  await page.context().close();
});

test('without JavaScript a person answers the sum instead, in German', { skip: chromiumMissing }, async () => {
  const page = await newPage('de-DE', { javaScriptEnabled: false });
  await page.goto(`${base}/accounts/signup/`);
  // No axe here: it runs as page script, which this browser does not run. The sum is a labelled field.
  await page.getByLabel('Benutzername').fill('ohneskript');
  await page.getByLabel('E-Mail-Adresse').fill('ohneskript@example.org');
  await page.getByLabel('Passwort', { exact: true }).fill('ganz-ohne-skript');
  await page.getByLabel('Passwort (wiederholen)').fill('ganz-ohne-skript');
  await page.getByLabel(/Ich akzeptiere/).check();
  const label = await page.getByText(/Spam-Schutz: Was ist \d+ plus \d+\?/).innerText();
  const [, a, b] = /(\d+) plus (\d+)/.exec(label) ?? [];
  await page.getByLabel(/Spam-Schutz/).fill(String(Number(a) + Number(b)));
  await page.locator('main').getByRole('button', { name: 'Registrieren' }).click();
  await page.getByRole('heading', { name: /E-Mail-Adresse/ }).waitFor();
  assert.ok(await accountOf('ohneskript'));
  await page.context().close();
});

const loginAs = (page: Page, login: string) => logInAs(page, base, login);

test('an operator corrects an address, resends the confirmation and deletes an account on request, by clicking', { skip: chromiumMissing }, async () => {
  const page = await newPage();
  await loginAs(page, 'admin');
  await page.goto(`${base}/backoffice/users/`);
  await page.getByLabel('Search').fill('other');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: 'other', exact: true }).click();
  await page.waitForURL(/\/backoffice\/users\/6\/$/);
  await assertAccessible(page, 'back-office account page');
  await page.getByLabel('New e-mail address').fill('other.fixed@example.org');
  await page.getByRole('button', { name: 'Save the address' }).click();
  await page.getByText('The address was corrected; a confirmation e-mail has been sent to it.').waitFor();
  assert.equal((await lastMail(t.db, 'other.fixed@example.org'))?.kind, 'account_confirm_email');
  await page.getByRole('button', { name: 'Send the confirmation e-mail again' }).click();
  await page.getByText('The confirmation e-mail has been sent.').waitFor();
  await page.getByRole('link', { name: 'Delete the account' }).click();
  await assertAccessible(page, 'back-office delete confirmation');
  await page.getByRole('button', { name: 'Delete the account: other' }).click();
  await page.getByText('The account has been deleted.').waitFor();
  assert.equal(await accountOf('other'), undefined);
  // Her own account offers nothing that would lock her out.
  await page.goto(`${base}/backoffice/users/1/`);
  await page.getByText(/This is your own account/).waitFor();
  assert.equal(await page.getByRole('link', { name: 'Delete the account' }).count(), 0);
  await page.context().close();
});

test('a visitor finds a project by text and filters, the URL keeps them; a participant finds her private project in her dashboard', { skip: chromiumMissing }, async () => {
  const page = await newPage();
  await page.goto(`${base}/`);
  await page.getByRole('searchbox', { name: 'Search' }).fill('cycling');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\?search=cycling/);
  await page.getByRole('link', { name: 'Bike lanes', exact: true }).waitFor();
  assert.equal(await page.getByRole('link', { name: 'Project', exact: true }).count(), 0);
  await page.getByRole('link', { name: 'Show all projects' }).click();
  await page.waitForURL(`${base}/`);
  await page.getByLabel('Topic', { exact: true }).selectOption({ label: 'Traffic' });
  await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Running' });
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/topic=TRA.*status=running/);
  await page.getByRole('status').filter({ hasText: '1 project found' }).waitFor();
  await assertAccessible(page, 'start page with a filter');
  assert.equal(await page.getByRole('link', { name: 'Closed circle' }).count(), 0, 'private projects are not on the start page');
  await loginAs(page, 'user');
  await page.getByRole('heading', { name: 'Your projects that are not public' }).waitFor();
  await page.getByRole('link', { name: 'Closed circle', exact: true }).first().click();
  await page.waitForURL(`${base}/org/projects/closed-circle/`);
  await page.context().close();
});

test('the editor buttons\' accessible names contain what they show (WCAG 2.5.3)', { skip: chromiumMissing }, async () => {
  const page = await newPage();
  await loginAs(page, 'member');
  await page.goto(`${base}/org/projects/module/module-1/`);
  await page.getByRole('link', { name: 'Submit your idea' }).click();
  const buttons = page.getByRole('toolbar', { name: 'Text formatting' }).getByRole('button');
  await buttons.first().waitFor();
  const shown = await buttons.evaluateAll((list) => list.map((b) => ({ text: (b.textContent ?? '').trim(), name: b.getAttribute('aria-label') ?? '' })));
  assert.deepEqual(shown.map((b) => b.name), ['B Bold', 'I Italic', '\u2022 Bulleted list', 'Insert link']);
  for (const b of shown) assert.ok(b.name.startsWith(b.text), JSON.stringify(b));
  await page.context().close();
});
