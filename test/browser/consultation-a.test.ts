import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { newsletterOptouts, notificationOptouts, outbox, users } from '../../src/db/schema/index.js';
import { Browser as FormClient } from '../accounts/client.js';
import { basicWorld, load } from '../fixtures.js';
import { createTestApp, type TestApp } from '../helpers.js';
import { axeViolations, chromiumMissing, launchChromium } from './chromium.js';

/**
 * Issue 22, items 1–5, as the people concerned click them in Chromium: one app and one browser for
 * the file, the tests run one after the other on the same data.
 */
let t: TestApp;
let chromium: Browser;
let base: string;

if (!chromiumMissing) {
  t = await createTestApp();
  const world = basicWorld();
  await load(t.db, { ...world, follows: [{ creator: 5, project: 1 }] });
  await t.db.update(users).set({ getNewsletters: true }).where(eq(users.id, 5));
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
}

before(async () => {
  if (!chromiumMissing) chromium = await launchChromium();
});

after(async () => {
  await chromium?.close();
});

async function newPage(locale = 'en-US'): Promise<Page> {
  const context = await chromium.newContext({ locale, extraHTTPHeaders: { 'accept-language': locale } });
  context.setDefaultTimeout(10_000);
  return context.newPage();
}

async function loginAs(page: Page, login: string) {
  await page.goto(`${base}/accounts/login/`);
  await page.getByLabel(/Username or e-mail address|Benutzername oder E-Mail-Adresse/).fill(login);
  await page.getByLabel(/^(Password|Passwort)$/).fill(`${login}-password`);
  await page.locator('main').getByRole('button', { name: /Login|Anmelden/ }).click();
  await page.waitForURL(/userdashboard/);
}

async function assertAccessible(page: Page, what: string) {
  const violations = await axeViolations(page);
  assert.deepEqual(violations, [], `${what}: ${JSON.stringify(violations, null, 1)}`);
}

/** A signed-in form client (app.inject) for the steps that only prepare a browser test. */
async function client(username: string) {
  const form = new FormClient(t.app);
  assert.equal((await form.login(username, `${username}-password`)).status, 302);
  return form;
}

test('item 2: a citizen unsubscribes from a newsletter with one click, without login, and switches notification e-mails off in the settings', { skip: chromiumMissing }, async () => {
  const initiator = await client('initiator');
  assert.equal((await initiator.post('/org/dashboard/communication/newsletters/create/', { sender_name: 'City', project: '1', subject: 'Spring', body: '<p>News</p>' })).status, 302);
  const [mail] = await t.db.select().from(outbox).where(and(eq(outbox.kind, 'newsletter'), eq(outbox.recipient, 'user@example.org')));
  assert.ok(mail.unsubscribeUrl);

  const anonymous = await newPage();
  await anonymous.goto(`${base}${new URL(mail.unsubscribeUrl).pathname}`);
  await assertAccessible(anonymous, 'unsubscribe page');
  await anonymous.getByRole('button', { name: 'Unsubscribe' }).click();
  await anonymous.getByText('You will no longer receive newsletters from Organisation.').waitFor();
  assert.deepEqual((await t.db.select().from(newsletterOptouts)).map((o) => o.organisationId), [1]);
  await anonymous.context().close();

  const page = await newPage('de-DE');
  await loginAs(page, 'user');
  await page.goto(`${base}/account/`);
  await page.getByRole('link', { name: 'E-Mail-Benachrichtigungen und Newsletter' }).click();
  await assertAccessible(page, 'mail settings (de)');
  assert.equal(await page.getByLabel('Newsletter von Organisation').isChecked(), false, 'the withdrawal shows');
  await page.getByLabel('Jemand kommentiert meinen Beitrag').uncheck();
  await page.getByRole('button', { name: 'Änderungen speichern' }).click();
  await page.getByText('Ihre Änderungen wurden gespeichert.').waitFor();
  assert.deepEqual((await t.db.select().from(notificationOptouts).where(eq(notificationOptouts.userId, 5))).map((o) => o.kind), ['comment_on_content']);
  await page.context().close();
});
