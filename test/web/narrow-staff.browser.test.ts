import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { users } from '../../src/db/schema/index.js';
import { basicWorld, load } from '../fixtures.js';
import { createTestApp, type TestApp } from '../helpers.js';
import { axeViolations, chromiumMissing, launchChromium } from '../chromium.js';

/** Issue 37.5: staff pages on a phone — every page of the initiator's, the moderator's and the operator's walk (and the citizen's) fits 320 px (the narrowest phones; 360 px is the common width) without horizontal scrolling, in English and German. */
const WIDTH = 320;

let t: TestApp;
let chromium: Browser;
let base: string;

if (!chromiumMissing) {
  t = await createTestApp();
  await load(t.db, basicWorld());
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
}

before(async () => {
  if (!chromiumMissing) chromium = await launchChromium();
});

after(async () => {
  await chromium?.close();
});

async function signedIn(login: string, locale: string): Promise<Page> {
  const context = await chromium.newContext({ locale, extraHTTPHeaders: { 'accept-language': locale }, viewport: { width: WIDTH, height: 740 } });
  const page = await context.newPage();
  await page.goto(`${base}/accounts/login/`);
  await page.locator('#id_login').fill(login);
  await page.locator('#id_password').fill(`${login}-password`);
  await page.locator('main form button[type="submit"]').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/accounts/login/'));
  return page;
}

const WALKS: Record<string, string[]> = {
  initiator: [
    '/userdashboard/overview/',
    '/org/dashboard/projects/',
    '/org/dashboard/projects/project/basic/',
    '/org/dashboard/projects/project/moderators/',
    '/org/dashboard/modules/module-1/phases/',
    '/org/projects/project/',
    '/userdashboard/moderation/',
    '/userdashboard/moderation/detail/project/',
    '/account/',
  ],
  moderator: ['/userdashboard/overview/', '/userdashboard/moderation/', '/userdashboard/moderation/detail/project/', '/org/projects/project/', '/account/'],
  admin: ['/backoffice/', '/backoffice/organisations/', '/backoffice/organisations/org/', '/backoffice/users/', '/backoffice/users/5/', '/backoffice/projects/', '/backoffice/mails/', '/backoffice/reports/', '/backoffice/pages/', '/backoffice/pages/imprint/'],
  user: ['/', '/org/', '/org/projects/project/', '/org/projects/module/module-1/', '/userdashboard/overview/', '/userdashboard/notifications/', '/account/notifications/'],
};

test(`the pages of the initiator, the moderator, the operator and a citizen fit ${WIDTH} px without horizontal scrolling, en and de`, { skip: chromiumMissing }, async () => {
  const wide: string[] = [];
  for (const locale of ['en-US', 'de-DE']) {
    // The account's language decides the pages' (German words are longer).
    await t.db.update(users).set({ language: locale.slice(0, 2) });
    for (const [login, paths] of Object.entries(WALKS)) {
      const page = await signedIn(login, locale);
      for (const path of paths) {
        const response = await page.goto(`${base}${path}`);
        assert.equal(response?.status(), 200, `${login} ${path}`);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        // The innermost elements that reach past the screen's edge, to say what is too wide.
        const past = await page.evaluate((edge) => {
          const all = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > edge + 1 || e.scrollWidth > e.clientWidth + 1);
          return all.filter((e) => !all.some((o) => o !== e && e.contains(o))).slice(0, 3).map((e) => `${e.tagName.toLowerCase()}.${e.className}: ${e.textContent?.trim().slice(0, 30)}`);
        }, WIDTH);
        if (width > WIDTH) wide.push(`${locale} ${login} ${path}: ${width} px (${past.join('; ')})`);
        // Axe on the back-office's tables as a phone shows them (their scrolling box takes the focus).
        if (login === 'admin') for (const v of await axeViolations(page)) wide.push(`${locale} ${path}: axe ${JSON.stringify(v)}`);
      }
      await page.context().close();
    }
  }
  assert.deepEqual(wide, []);
});
