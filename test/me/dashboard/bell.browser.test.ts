import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { load, tokenHeader } from '../../fixtures.js';
import { createTestApp, type TestApp } from '../../helpers.js';
import { dashboardWorld } from '../../manage/world.js';
import { assertAccessible, chromiumMissing, launchChromium, logInAs, newLocalePage, tabTo } from '../../chromium.js';

/*
 * Issue 34, item 3: someone comments on my idea while I read another page; the bell in the header
 * counts it without a reload. The bell and the centre are used with the keyboard; the notification
 * centre and the settings page pass axe in English and German.
 */
let t: TestApp;
let chromium: Browser;
let base: string;

if (!chromiumMissing) {
  t = await createTestApp();
  await load(t.db, { ...dashboardWorld(), ideas: [{ id: 1, module: 1, creator: 5, name: 'My idea', description: 'x', category: 1 }] });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
}

before(async () => {
  if (!chromiumMissing) chromium = await launchChromium();
});

after(async () => {
  await chromium?.close();
  await t?.app.close();
});

test('the bell counts a new notification live, without a reload; the centre reads it with the keyboard; its pages are accessible in English and German', { skip: chromiumMissing }, async () => {
  const page = await newLocalePage(chromium);
  await logInAs(page, base, 'user');
  await page.goto(`${base}/org/projects/project/`);
  await page.evaluate(() => ((globalThis as unknown as { bellMark: number }).bellMark = 42));
  await page.locator('html[data-bell-open]').waitFor({ state: 'attached' });
  const bell = page.getByRole('link', { name: /^Notifications/ });
  assert.equal(await page.locator('[data-bell-badge]').isHidden(), true, 'no badge without unread notifications');

  const comment = await t.app.inject({ method: 'POST', url: '/api/contenttypes/4/objects/1/comments/', headers: await tokenHeader(t.db, 4), payload: { comment: 'Nice idea' } });
  assert.equal(comment.statusCode, 201);
  await page.locator('[data-bell-count]').filter({ hasText: /^1$/ }).waitFor();
  assert.equal(await page.evaluate(() => (globalThis as unknown as { bellMark?: number }).bellMark), 42, 'the page was not reloaded');
  assert.match(String(await bell.textContent()), /1 unread/);

  await tabTo(page, (f) => f.tag === 'a' && /^Notifications/.test(f.text), 'the bell');
  await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
  await page.getByRole('link', { name: 'member commented on your contribution in the project "Project".' }).waitFor();
  assert.equal(await page.getByRole('button', { name: /^Mark as read\W+member commented on your contribution/ }).count(), 1, 'each button names its notification');
  await assertAccessible(page, 'notification centre');
  await tabTo(page, (f) => f.tag === 'button' && f.text === 'Mark all as read', 'Mark all as read');
  await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
  await page.getByText('All notifications are marked as read.').waitFor();
  assert.equal(await page.locator('[data-bell-badge]').isHidden(), true);

  await page.goto(`${base}/account/notifications/`);
  await assertAccessible(page, 'notification settings');
  await page.context().close();

  const german = await newLocalePage(chromium, 'de-DE');
  await logInAs(german, base, 'user');
  // The user's language is English: the language chooser's cookie switches the pages to German.
  await german.context().addCookies([{ name: 'language', value: 'de', url: base }]);
  for (const path of ['/userdashboard/notifications/', '/account/notifications/']) {
    await german.goto(`${base}${path}`);
    assert.equal(await german.getAttribute('html', 'lang'), 'de');
    await assertAccessible(german, `de ${path}`);
  }
  await german.context().close();
});
