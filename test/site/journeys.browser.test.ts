import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { comments, reports } from '../../src/db/schema/index.js';
import { ideas } from '../../src/features/ideas/schema.js';
import { ideaPath } from '../../src/core/urls.js';
import { lastMail, linkIn } from '../me/accounts/client.js';
import { basicWorld, daysFromNow, load } from '../fixtures.js';
import { createTestApp, type TestApp } from '../helpers.js';
import { axeViolations, challengeSolved, chromiumMissing, launchChromium, logInAs, tabTo } from '../chromium.js';

// One app, one browser for the file: the journeys run one after the other on the same data.
let t: TestApp;
let chromium: Browser;
let base: string;
let ideaUrl = '';

if (!chromiumMissing) {
  t = await createTestApp();
  const world = basicWorld();
  await load(t.db, {
    ...world,
    projects: [...(world.projects ?? []), { id: 2, slug: 'secret', name: 'Secret project', organisation: 1, access: 'PRIVATE', participants: [4], moderators: [3] }],
    modules: [
      ...(world.modules ?? []),
      { id: 2, slug: 'secret-ideas', project: 2, name: 'Secret ideas', phases: [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(10) }] },
    ],
    ideas: [{ id: 1, module: 1, creator: 6, name: 'Shade for the playground', description: '<p>Trees <em>or</em> sails</p>', category: 1, created: new Date(Date.now() - 3600_000).toISOString() }],
    comments: [{ id: 1, creator: 6, target: { type: 'idea', id: 1 }, comment: 'Sails are faster' }],
  });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const [idea] = await t.db.select().from(ideas).where(eq(ideas.id, 1));
  ideaUrl = ideaPath('org', idea.created, idea.id);
}

before(async () => {
  if (!chromiumMissing) chromium = await launchChromium();
});

after(async () => {
  await chromium?.close();
});

async function newPage(locale = 'en-US'): Promise<Page> {
  const context = await chromium.newContext({ locale, extraHTTPHeaders: { 'accept-language': locale } });
  return context.newPage();
}

const loginAs = (page: Page, login: string) => logInAs(page, base, login);

async function assertAccessible(page: Page, what: string) {
  const violations = await axeViolations(page);
  assert.deepEqual(violations, [], `${what}: ${JSON.stringify(violations, null, 1)}`);
}

test('a visitor finds a project and reads an idea, and is asked to log in to take part', { skip: chromiumMissing }, async () => {
  const page = await newPage();
  await page.goto(`${base}/`);
  await assertAccessible(page, 'home');
  await page.getByRole('link', { name: 'Project', exact: true }).click();
  await page.waitForURL(`${base}/org/projects/project/`);
  await assertAccessible(page, 'project page');
  await page.getByRole('link', { name: 'Shade for the playground' }).click();
  await page.waitForURL(`${base}${ideaUrl}`);
  await assertAccessible(page, 'idea page (visitor)');
  assert.match(await page.locator('.rich-text').innerText(), /Trees or sails/);
  await page.getByRole('link', { name: 'Please log in to comment.' }).waitFor();
  // Keyboard: the skip link is the first stop and leads to the content.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { textContent: string } } }).document.activeElement.textContent), 'Skip to content');
  await page.context().close();
});

test('a citizen signs up, posts an idea with an image, edits it, comments, replies, rates, reports and follows', { skip: chromiumMissing }, async () => {
  const page = await newPage();
  await page.goto(`${base}/accounts/signup/`);
  await page.getByLabel('Username').fill('citizen');
  await page.getByLabel('E-mail address').fill('citizen@example.org');
  await page.getByLabel('Password', { exact: true }).fill('citizen-in-the-park');
  await page.getByLabel('Password (again)').fill('citizen-in-the-park');
  await page.getByLabel(/I accept the terms/).check();
  await challengeSolved(page);
  await page.locator('main').getByRole('button', { name: 'Register' }).click();
  const mail = await lastMail(t.db, 'citizen@example.org');
  assert.ok(mail);
  await page.goto(`${base}${linkIn(mail.body, '/accounts/confirm-email/')}`);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.waitForURL(`${base}/userdashboard/overview/`);

  // Submit an idea with an image (the form first refuses the image without the rights confirmation).
  await page.goto(`${base}/org/projects/module/module-1/`);
  await page.getByRole('link', { name: 'Submit your idea' }).click();
  await assertAccessible(page, 'idea form');
  await page.getByLabel('Title').fill('Water fountain');
  await page.locator('#id_description_editor').fill('A fountain by the benches');
  await page.getByLabel('Category').selectOption({ label: 'Parks' });
  await page.getByLabel('Upload an image').setInputFiles({ name: 'fountain.png', mimeType: 'image/png', buffer: await sharp({ create: { width: 640, height: 480, channels: 3, background: '#48c' } }).png().toBuffer() });
  await page.getByLabel('Copyright').fill('Citizen');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.locator('#id_right_of_use_errors').waitFor();
  assert.equal(await page.getByLabel('Title').inputValue(), 'Water fountain');
  await assertAccessible(page, 'idea form with errors');
  await page.getByLabel('Upload an image').setInputFiles({ name: 'fountain.png', mimeType: 'image/png', buffer: await sharp({ create: { width: 640, height: 480, channels: 3, background: '#48c' } }).png().toBuffer() });
  await page.getByLabel(/I hold the rights to this image/).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Your idea has been saved.').waitFor();
  await page.locator('.idea-image img').waitFor();
  assert.ok(await page.locator('.idea-image img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth > 0), 'the image loads');
  await assertAccessible(page, 'idea page (author)');

  await page.getByRole('link', { name: 'Edit' }).click();
  await page.getByLabel('Title').fill('Water fountain by the benches');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { name: 'Water fountain by the benches' }).waitFor();

  // Comment on the other idea, reply to its comment, rate that comment, report it, follow.
  await page.goto(`${base}${ideaUrl}`);
  await page.getByLabel('Your comment', { exact: true }).fill('Sails are cheaper\nand quick to set up');
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await page.getByText('Your comment has been posted.').waitFor();
  const first = page.locator('#comment-1');
  await first.getByText('Reply', { exact: true }).click();
  await first.getByLabel('Your reply').fill('Agreed!');
  await first.getByRole('button', { name: 'Post reply' }).click();
  await page.getByText('Your reply has been posted.').waitFor();
  await page.locator('#comment-1').getByRole('button', { name: '0 agree' }).click();
  await page.locator('#comment-1').getByRole('button', { name: '1 agrees' }).waitFor();
  await page.locator('#comment-1').getByText('Report', { exact: true }).click();
  await page.locator('#comment-1').getByLabel('Why do you report this comment?').fill('Advertising');
  await page.locator('#comment-1').getByRole('button', { name: 'Send report' }).click();
  await page.getByText('The moderators have been told').waitFor();
  // Commenting made the citizen follow the project (auto-follow); the button toggles it.
  await page.getByRole('button', { name: 'Unfollow', exact: true }).click();
  await page.getByText('You no longer follow this project.').waitFor();
  await page.getByRole('button', { name: 'Follow', exact: true }).click();
  await page.getByText('You are now following this project.').waitFor();
  await assertAccessible(page, 'idea page with a discussion');
  assert.equal((await t.db.select().from(reports).where(eq(reports.description, 'Advertising'))).length, 1);
  assert.match(await page.locator('.comment-text', { hasText: 'Sails are cheaper' }).innerText(), /cheaper\nand quick/);
  await page.context().close();
});

test('a moderator gives an idea a status and a statement and blocks a comment', { skip: chromiumMissing }, async () => {
  const page = await newPage();
  await loginAs(page, 'moderator');
  await page.goto(`${base}${ideaUrl}`);
  await page.getByRole('link', { name: 'Give feedback' }).click();
  await assertAccessible(page, 'moderate idea');
  await page.getByLabel('Processing status').selectOption('ACCEPTED');
  await page.locator('#id_moderator_feedback_text_editor').fill('We will build sails in spring.');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('The moderation of the idea has been saved.').waitFor();
  await page.locator('.feedback', { hasText: 'We will build sails in spring.' }).waitFor();
  const [reported] = await t.db.select().from(comments).where(eq(comments.id, 1));
  await page.locator(`#comment-${reported.id}`).getByRole('button', { name: 'Block' }).click();
  await page.getByText('The comment has been moderated.').waitFor();
  await page.goto(`${base}/userdashboard/moderation/detail/project/?filter=blocked`);
  await page.locator('#comment-1').waitFor();
  await assertAccessible(page, 'moderation queue');
  await page.context().close();
  const visitor = await newPage('de-DE');
  await visitor.goto(`${base}${ideaUrl}`);
  await visitor.getByText('Von Moderation blockiert').waitFor();
  await visitor.getByText('wird umgesetzt').first().waitFor();
  await assertAccessible(visitor, 'idea page in German');
  await visitor.context().close();
});

test('a member of a private project takes part while an outsider is refused', { skip: chromiumMissing }, async () => {
  const member = await newPage();
  await loginAs(member, 'member');
  await member.goto(`${base}/org/projects/secret/`);
  await member.getByText('This project is not publicly visible').waitFor();
  await member.getByRole('link', { name: 'Submit your idea' }).click();
  await member.getByLabel('Title').fill('Members only bench');
  await member.locator('#id_description_editor').fill('Just for us');
  await member.getByRole('button', { name: 'Save' }).click();
  await member.getByText('Your idea has been saved.').waitFor();
  const url = member.url();
  await member.getByLabel('Your comment', { exact: true }).fill('First!');
  await member.getByRole('button', { name: 'Post', exact: true }).click();
  await member.getByText('Your comment has been posted.').waitFor();
  await member.context().close();

  const outsider = await newPage();
  await loginAs(outsider, 'other');
  // §A5.4: a signed-in outsider is refused (403), as the API refuses.
  const project = await outsider.goto(`${base}/org/projects/secret/`);
  assert.equal(project?.status(), 403);
  const idea = await outsider.goto(url);
  assert.equal(idea?.status(), 403);
  await outsider.context().close();
});

test('on a phone the dashboard content comes before the sidebar', { skip: chromiumMissing }, async () => {
  const context = await chromium.newContext({ viewport: { width: 375, height: 800 } });
  const page = await context.newPage();
  await loginAs(page, 'user');
  const sidebar = await page.locator('.sidebar').boundingBox();
  const tabs = await page.locator('.dashboard .tabs').boundingBox();
  assert.ok(sidebar && tabs && tabs.y < sidebar.y, 'the tabs and content sit above the sidebar');
  await context.close();
});

test('a citizen posts an idea and a comment with the keyboard alone, the focus always visible', { skip: chromiumMissing }, async () => {
  const page = await newPage();
  await page.goto(`${base}/accounts/login/`);
  await tabTo(page, (f) => f.name === 'login', 'login field');
  await page.keyboard.type('user');
  await tabTo(page, (f) => f.name === 'password', 'password field');
  await page.keyboard.type('user-password');
  await page.keyboard.press('Enter');
  await page.waitForURL(/userdashboard/);

  await page.goto(`${base}/org/projects/module/module-1/`);
  await tabTo(page, (f) => f.tag === 'a' && f.text === 'Submit your idea', 'Submit your idea');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/ideas\/create\/module\//);
  await tabTo(page, (f) => f.id === 'id_name', 'title');
  await page.keyboard.type('Benches by the pond');
  await tabTo(page, (f) => f.id === 'id_description_editor', 'description editor');
  await page.keyboard.type('Somewhere to sit');
  await tabTo(page, (f) => f.id === 'id_category', 'category');
  await page.keyboard.press('ArrowDown');
  await tabTo(page, (f) => f.id === 'id_labels_1', 'label');
  await page.keyboard.press('Space');
  await tabTo(page, (f) => f.tag === 'button' && f.text === 'Save', 'Save');
  await page.keyboard.press('Enter');
  await page.getByText('Your idea has been saved.').waitFor();
  await page.getByRole('heading', { name: 'Benches by the pond' }).waitFor();
  const [idea] = await t.db.select().from(ideas).where(eq(ideas.name, 'Benches by the pond'));
  assert.ok(idea.categoryId !== null && /Somewhere to sit/.test(idea.description));

  // The comment form of the new idea: Tab to the text, type, Tab to Post, Space.
  await tabTo(page, (f) => f.tag === 'textarea' && f.name === 'comment', 'comment field');
  await page.keyboard.type('I would sit there every day');
  await tabTo(page, (f) => f.tag === 'button' && f.text === 'Post', 'Post');
  await page.keyboard.press('Space');
  await page.getByText('Your comment has been posted.').waitFor();
  assert.equal((await t.db.select().from(comments).where(eq(comments.comment, 'I would sit there every day'))).length, 1);
  await page.context().close();
});
