import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { users } from '../../src/db/schema/index.js';
import { ideas } from '../../src/features/ideas/schema.js';
import { createComment } from '../../src/features/comments/services.js';
import { createIdea } from '../../src/features/idealike/services.js';
import { IDEA_KIND } from '../../src/features/ideas/idea-kind.js';
import { ideaPath } from '../../src/core/urls.js';
import { lastMail, linkIn } from '../me/accounts/client.js';
import { basicWorld, load } from '../fixtures.js';
import { createTestApp, type TestApp } from '../helpers.js';
import { axeViolations, challengeSolved, chromiumMissing, launchChromium } from '../chromium.js';

let t: TestApp;
let chromium: Browser;
let base: string;

// At the top level (not in a hook), so that the app's own after() closes it at the end of the file.
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

/** A fresh browser window; CSP is bypassed so that only escaping can keep injected scripts from running. */
async function newPage(locale = 'en-US'): Promise<Page> {
  const context = await chromium.newContext({ bypassCSP: true, locale, extraHTTPHeaders: { 'accept-language': locale } });
  return context.newPage();
}

async function loginAs(page: Page, login: string, password: string) {
  await page.goto(`${base}/accounts/login/`);
  await page.getByLabel(/Username or e-mail address|Benutzername oder E-Mail-Adresse/).fill(login);
  await page.getByLabel(/^(Password|Passwort)$/).fill(password);
  await page.locator('main').getByRole('button', { name: /Login|Anmelden/ }).click();
}

async function assertAccessible(page: Page, what: string) {
  const violations = await axeViolations(page);
  assert.deepEqual(violations, [], `${what}: ${JSON.stringify(violations, null, 1)}`);
}

test('sign up, confirm through the outbox, log in with e-mail, see a comment in My Feed, log out', { skip: chromiumMissing }, async () => {
  const page = await newPage();
  await page.goto(`${base}/accounts/signup/`);
  await assertAccessible(page, 'signup');
  await page.getByLabel('Username').fill('walker');
  await page.getByLabel('E-mail address').fill('walker@example.org');
  await page.getByLabel('Password', { exact: true }).fill('walking-in-the-park');
  await page.getByLabel('Password (again)').fill('walking-in-the-park');
  await page.getByLabel(/I accept the terms/).check();
  await challengeSolved(page);
  await page.locator('main').getByRole('button', { name: 'Register' }).click();
  await page.getByText('We have sent an e-mail to you for verification').waitFor();

  const mail = await lastMail(t.db, 'walker@example.org');
  assert.ok(mail);
  await page.goto(`${base}${linkIn(mail.body, '/accounts/confirm-email/')}`);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.waitForURL(`${base}/userdashboard/overview/`);
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL(`${base}/accounts/login/`);
  await assertAccessible(page, 'login');

  const [walker] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'walker'));
  await t.db.transaction(async (tx) => {
    const idea = await createIdea(tx, { moduleId: 1, creatorId: walker.id, name: 'A bench by the pond', description: 'Please' }, IDEA_KIND);
    await createComment(tx, { creatorId: 6, target: { type: 'idea', id: idea }, comment: 'Lovely idea, count me in' });
  });

  await loginAs(page, 'Walker@Example.org', 'walking-in-the-park');
  await page.waitForURL(`${base}/userdashboard/overview/`);
  const feed = page.locator('#feed-heading + *, section[aria-labelledby="feed-heading"]');
  await feed.getByText('left a').first().waitFor();
  assert.match(await feed.innerText(), /other left a comment on your contribution on Project/);
  assert.match(await feed.innerText(), /Lovely idea, count me in/);
  await assertAccessible(page, 'overview');
  await page.goto(`${base}/userdashboard/overview/activities/`);
  await assertAccessible(page, 'activities');
  await page.goto(`${base}/userdashboard/overview/following/`);
  await assertAccessible(page, 'following');
  await page.goto(`${base}/account/`);
  await assertAccessible(page, 'account settings');
  await page.goto(`${base}/profile/walker/`);
  await assertAccessible(page, 'profile');
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL(`${base}/accounts/login/`);
  const overview = await page.goto(`${base}/userdashboard/overview/`);
  assert.ok(overview);
  assert.equal(new URL(page.url()).pathname, '/accounts/login/');
  await page.context().close();
});

test('a comment containing an encoded <script> keeps only its text and never runs', { skip: chromiumMissing }, async () => {
  await t.db.transaction(async (tx) => {
    const idea = await createIdea(tx, { moduleId: 1, creatorId: 5, name: 'Idea', description: 'x' }, IDEA_KIND);
    await createComment(tx, { creatorId: 6, target: { type: 'idea', id: idea }, comment: '&lt;script&gt;window.__pwned = 1&lt;/script&gt;Harmless words' });
  });
  const page = await newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await loginAs(page, 'user', 'user-password');
  await page.waitForURL(`${base}/userdashboard/overview/`);
  // Plain-text comments never turn decoded entities into markup (F15): the script goes, the words stay.
  await page.getByText('Harmless words').waitFor();
  assert.equal(await page.getByText('<script>').count(), 0);
  assert.equal(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned), undefined);
  assert.deepEqual(dialogs, []);
  await page.context().close();
});

test('German pages pass axe too', { skip: chromiumMissing }, async () => {
  const page = await newPage('de-DE');
  for (const path of ['/accounts/login/', '/accounts/signup/', '/accounts/password/reset/']) {
    await page.goto(`${base}${path}`);
    assert.equal(await page.getAttribute('html', 'lang'), 'de');
    await assertAccessible(page, path);
  }
  await t.db.update(users).set({ language: 'de' }).where(eq(users.id, 4));
  await loginAs(page, 'member', 'member-password');
  await page.waitForURL(`${base}/userdashboard/overview/`);
  await page.getByRole('heading', { name: 'Mein Feed' }).waitFor();
  await assertAccessible(page, 'Übersicht');
  await page.context().close();
});

test('recent activity dates read as relative time once the page script ran', { skip: chromiumMissing }, async () => {
  await t.db.transaction(async (tx) => {
    const idea = await createIdea(tx, { moduleId: 1, creatorId: 5, name: 'Fresh idea', description: 'x' }, IDEA_KIND);
    await createComment(tx, { creatorId: 6, target: { type: 'idea', id: idea }, comment: 'Just now' });
  });
  const page = await newPage();
  await loginAs(page, 'user', 'user-password');
  await page.waitForURL(`${base}/userdashboard/overview/`);
  const text = await page.locator('time.relative').first().innerText();
  assert.match(text, /ago|now|second|minute/);
  await page.context().close();
});

test('public pages, the comment form and the moderation pages pass axe, in English and German', { skip: chromiumMissing }, async () => {
  const ideaId = await t.db.transaction(async (tx) => {
    const idea = await createIdea(tx, { moduleId: 1, creatorId: 5, name: 'Shade for the playground', description: '<p>Trees <em>or</em> sails</p>' }, IDEA_KIND);
    const comment = await createComment(tx, { creatorId: 6, target: { type: 'idea', id: idea }, comment: 'Sails are faster' });
    await createComment(tx, { creatorId: 5, target: { type: 'comment', id: comment.id }, comment: 'Good point' });
    return idea;
  });
  const [idea] = await t.db.select({ created: ideas.created }).from(ideas).where(eq(ideas.id, ideaId));
  const ideaUrl = ideaPath('org', idea.created, ideaId);
  for (const locale of ['en-US', 'de-DE']) {
    const page = await newPage(locale);
    for (const path of ['/', '/org/', '/org/projects/project/', '/org/projects/module/module-1/', ideaUrl, '/no/such/page/']) {
      await page.goto(`${base}${path}`);
      await assertAccessible(page, `${locale} ${path}`);
    }
    await loginAs(page, 'moderator', 'moderator-password');
    await page.waitForURL(`${base}/userdashboard/overview/`);
    for (const path of [ideaUrl, '/org/projects/project/', '/userdashboard/moderation/', '/userdashboard/moderation/detail/project/']) {
      await page.goto(`${base}${path}`);
      await assertAccessible(page, `${locale} ${path} (moderator)`);
    }
    await page.context().close();
  }
  const page = await newPage();
  await loginAs(page, 'other', 'other-password');
  await page.waitForURL(`${base}/userdashboard/overview/`);
  await page.goto(`${base}${ideaUrl}`);
  await page.getByLabel('Your comment', { exact: true }).fill('Typed in the browser');
  await page.getByRole('button', { name: 'Post' }).click();
  await page.locator('.comment-text', { hasText: 'Typed in the browser' }).waitFor();
  assert.match(page.url(), /\?comment=\d+#comment-\d+$/);
  await page.context().close();
});
