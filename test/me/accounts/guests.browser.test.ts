import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { users } from '../../../src/db/schema/index.js';
import { ideas } from '../../../src/features/ideas/schema.js';
import { basicWorldWith, daysFromNow, load } from '../../fixtures.js';
import { createTestApp, type TestApp } from '../../helpers.js';
import { assertAccessible, challengeSolved, chromiumMissing, launchChromium, newLocalePage, tabTo } from '../../chromium.js';
import { lastMail, linkIn } from './client.js';

let t: TestApp;
let chromium: Browser;
let base: string;

// At the top level (not in a hook), so that the app's own after() closes it at the end of the file.
if (!chromiumMissing) {
  t = await createTestApp();
  await load(
    t.db,
    basicWorldWith({
      projects: [{ id: 2, slug: 'open-to-guests', name: 'Open to guests', organisation: 1, allow_guests: true, moderators: [3] }],
      modules: [{ id: 2, slug: 'guest-ideas', project: 2, name: 'Guest ideas', phases: [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(10) }] }],
    }),
  );
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
}

before(async () => {
  if (!chromiumMissing) chromium = await launchChromium();
});

after(async () => {
  await chromium?.close();
});

/** The browser's own check of required fields would stop the form; the server's answer beside the field is what is tested. */
const serverChecksOnly = (page: Page, action: string) => page.locator(`form[action="${action}"]`).evaluate((form) => form.setAttribute('novalidate', ''));

test('a guest posts an idea, registers from the same browser and still owns it; becoming one works with the keyboard; the guest pages pass axe in English and German', { skip: chromiumMissing }, async () => {
  for (const [locale, takePart, proceed] of [
    ['de-DE', 'Als Gast mitmachen', 'Als Gast fortfahren'],
    ['en-US', 'Take part as a guest', 'Continue as a guest'],
  ] as const) {
    const page = await newLocalePage(chromium, locale);
    await page.goto(`${base}/org/projects/module/guest-ideas/`);
    await assertAccessible(page, `${locale} module page offering guests`);
    await page.getByRole('link', { name: takePart }).click();
    await assertAccessible(page, `${locale} guest page`);
    await challengeSolved(page);
    await serverChecksOnly(page, '/accounts/guest/');
    await page.getByRole('button', { name: proceed }).click();
    await page.locator('#id_terms_of_use_errors').waitFor();
    await assertAccessible(page, `${locale} guest page with an error`);
    await challengeSolved(page);
    // With the keyboard: the terms ticked with Space, the form sent with Enter.
    await tabTo(page, (f) => f.name === 'terms_of_use', 'the terms of use');
    await page.keyboard.press('Space');
    await tabTo(page, (f) => f.tag === 'button' && f.text === proceed, 'the guest button');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/ideas\/create\/module\/guest-ideas\/$/);
    await assertAccessible(page, `${locale} idea form of a guest`);
    if (locale === 'de-DE') {
      await page.goto(`${base}/accounts/guest/convert/`);
      await assertAccessible(page, 'de registration of a guest');
      await page.context().close();
      continue;
    }

    // The journey, in English: the idea, then the account.
    await page.getByLabel('Title').fill('A bench by the river');
    await page.locator('#id_description_editor').fill('To rest in the shade');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your idea has been saved.').waitFor();
    const ideaUrl = page.url();
    await page.locator('.idea-meta .badge-guest').waitFor();
    await assertAccessible(page, 'idea page with the guest badge');

    await page.getByRole('link', { name: 'Guest: create an account' }).click();
    await page.getByLabel('Username').fill('riverbench');
    await page.getByLabel('E-mail address').fill('not an address');
    await page.getByLabel('Password', { exact: true }).fill('a-long-secret');
    await page.getByLabel('Password (again)').fill('a-long-secret');
    await page.locator('#id_terms_of_use').check();
    await serverChecksOnly(page, '/accounts/guest/convert/');
    await page.locator('main').getByRole('button', { name: 'Register' }).click();
    await page.locator('#id_email_errors').waitFor();
    await assertAccessible(page, 'registration of a guest with an error');
    await page.getByLabel('E-mail address').fill('river@example.org');
    await page.getByLabel('Password', { exact: true }).fill('a-long-secret');
    await page.getByLabel('Password (again)').fill('a-long-secret');
    await page.locator('main').getByRole('button', { name: 'Register' }).click();
    await page.getByText('Verify your e-mail address').first().waitFor();

    const mail = await lastMail(t.db, 'river@example.org');
    assert.ok(mail);
    await page.goto(`${base}${linkIn(mail.body, '/accounts/confirm-email/')}`);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(`${base}/userdashboard/overview/`);
    await page.goto(ideaUrl);
    assert.equal(await page.locator('.idea-meta .badge-guest').count(), 0, 'no guest any more');
    await page.getByRole('link', { name: 'riverbench' }).first().waitFor();
    const [account] = await t.db.select().from(users).where(eq(users.username, 'riverbench'));
    const [idea] = await t.db.select().from(ideas).where(eq(ideas.name, 'A bench by the river'));
    assert.deepEqual([account.isGuest, account.emailVerified, idea.creatorId], [false, true, account.id], 'the same user, now an account, owns the idea');
    await page.context().close();
  }
});
