import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { after, before, test } from 'node:test';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { outbox } from '../../src/db/schema/index.js';
import { toLocalInput } from '../../src/i18n/dates.js';
import { lastMail, linkIn } from '../me/accounts/client.js';
import { load, PLATFORM_TEXTS } from '../fixtures.js';
import { createTestApp, type TestApp } from '../helpers.js';
import { axeViolations, chromiumMissing, launchChromium, tabTo } from '../chromium.js';

/**
 * Issue 14's whole path in the browser (§B, §D, E1, E10): an operator creates an organisation and
 * appoints an initiator; the initiator sets up a private Idea Challenge, invites a moderator and a
 * participant, is told what blocks publishing, publishes; the participant posts an idea (an
 * outsider is refused); the initiator exports it and archives the project after the last phase.
 * Only the people are seeded; every step goes through the pages. Every dashboard and back-office
 * page on the way is checked with axe in English and German.
 */
let t: TestApp;
let chromium: Browser;
let base: string;

const people = ['admin', 'ines', 'mona', 'paul', 'otto'];
if (!chromiumMissing) {
  t = await createTestApp();
  await load(t.db, {
    users: people.map((username, i) => ({ id: i + 1, username, email: `${username}@example.org`, password: `${username}-password`, is_superuser: username === 'admin', language: 'en' as const })),
    platform_pages: PLATFORM_TEXTS,
  });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
}

const contexts = new Map<string, BrowserContext>();

before(async () => {
  if (!chromiumMissing) chromium = await launchChromium();
});

after(async () => {
  await chromium?.close();
});

/** The one window of a person (logged in on first use), reused by every step. */
async function windowOf(login: string): Promise<Page> {
  const known = contexts.get(login);
  if (known) return known.pages()[0];
  const page = await newWindow(login);
  await logIn(page, login);
  await page.waitForURL(/\/userdashboard\//);
  return page;
}

async function newWindow(login: string): Promise<Page> {
  const context = await chromium.newContext({ locale: 'en-US', extraHTTPHeaders: { 'accept-language': 'en' } });
  context.setDefaultTimeout(30_000);
  contexts.set(login, context);
  return context.newPage();
}

async function logIn(page: Page, login: string) {
  if (!page.url().includes('/accounts/login/')) await page.goto(`${base}/accounts/login/`);
  await page.getByLabel('Username or e-mail address').fill(login);
  await page.getByLabel('Password', { exact: true }).fill(`${login}-password`);
  await page.locator('main').getByRole('button', { name: 'Login' }).click();
}

async function setLanguage(page: Page, lang: 'en' | 'de') {
  await page.context().addCookies([{ name: 'language', value: lang, url: base }]);
}

async function assertAccessible(page: Page, what: string) {
  const violations = await axeViolations(page);
  assert.deepEqual(violations, [], `${what}: ${JSON.stringify(violations, null, 1)}`);
}

/** axe on the page shown (a GET page) in English, then reloaded in German, then back in English. */
async function checkPage(page: Page, what: string) {
  assert.equal(await page.locator('html').getAttribute('lang'), 'en', `${what} is in English`);
  await assertAccessible(page, `${what} (en)`);
  await setLanguage(page, 'de');
  await page.reload();
  assert.equal(await page.locator('html').getAttribute('lang'), 'de', `${what} is in German`);
  await assertAccessible(page, `${what} (de)`);
  await setLanguage(page, 'en');
  await page.reload();
}

/** The texts and addresses of the links in a list of missing fields. */
function missingLinks(page: Page, scope = page.locator('main')) {
  return scope.locator('.missing-list a').evaluateAll((links) => links.map((a) => ({ text: (a.textContent ?? '').trim(), href: a.getAttribute('href') })));
}

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** A time `days` from now as the phase form takes it (the platform's time zone). */
const local = (days: number) => toLocalInput(new Date(Date.now() + days * DAY), t.config.timeZone);

async function fillPhases(page: Page, dates: [number, number, number, number]) {
  const [collectStart, collectEnd, ratingStart, ratingEnd] = dates;
  const collect = page.getByRole('group', { name: 'Phase 1' });
  const rating = page.getByRole('group', { name: 'Phase 2' });
  await collect.getByLabel('Start').fill(local(collectStart));
  await collect.getByLabel('End').fill(local(collectEnd));
  await rating.getByLabel('Start').fill(local(ratingStart));
  await rating.getByLabel('End').fill(local(ratingEnd));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
}

// Filled in as the journey goes.
const org = 'stadt-grunau';
let dashboard = '';
let projectSlug = '';
let moduleSlug = '';
const projectDashboard = (component: string) => `${base}/${org}/dashboard/projects/${projectSlug}/${component}/`;
const moduleDashboard = (component: string) => `${base}/${org}/dashboard/modules/${moduleSlug}/${component}/`;

test('an operator creates an organisation in the back-office and appoints an initiator', { skip: chromiumMissing }, async () => {
  const admin = await windowOf('admin');
  await admin.getByRole('link', { name: 'Back-office' }).click();
  await admin.waitForURL(`${base}/backoffice/organisations/`);
  await checkPage(admin, 'back-office: organisations');
  // A name is required; the error stands beside the field.
  await admin.getByRole('button', { name: 'Create organisation' }).click();
  await admin.locator('#id_name_errors').waitFor();
  await assertAccessible(admin, 'back-office: new organisation with an error');
  await admin.getByLabel('Name').fill('Stadt Grünau');
  await admin.getByRole('button', { name: 'Create organisation' }).click();
  await admin.waitForURL(`${base}/backoffice/organisations/${org}/?done=created`);
  await admin.getByText('The organisation was created.').waitFor();
  await checkPage(admin, 'back-office: organisation');
  const appoint = admin.locator('form', { has: admin.getByRole('button', { name: 'Appoint initiator' }) });
  await appoint.getByLabel('Username or e-mail address').fill('ines@example.org');
  await appoint.getByRole('button', { name: 'Appoint initiator' }).click();
  await admin.getByText('Your changes have been saved.').waitFor();
  await admin.getByRole('button', { name: 'Remove: ines' }).waitFor();
  dashboard = `${base}/${org}/dashboard/projects/`;
});

test('the initiator creates a private Idea Challenge with phases, categories and labels', { skip: chromiumMissing }, async () => {
  const ines = await windowOf('ines');
  // The user dashboard links the organisation's dashboard.
  await ines.getByRole('link', { name: 'Stadt Grünau' }).first().click();
  await ines.waitForURL(dashboard);
  await checkPage(ines, 'dashboard: project list (empty)');
  await ines.getByRole('link', { name: 'New project' }).click();
  await checkPage(ines, 'dashboard: new project');
  // Each access choice's label starts on the line of its radio button, not below it.
  const radio = await ines.getByLabel(/^Private/).boundingBox();
  const label = await ines.locator('label[for="id_access_2"]').boundingBox();
  assert.ok(radio && label && label.y < radio.y + radio.height, `the label starts beside its radio button: ${JSON.stringify([radio, label])}`);
  // Bad input: the errors stand beside the fields, the values stay.
  await ines.getByRole('group', { name: 'Access to the project' }).getByLabel(/^Private/).check();
  await ines.getByRole('button', { name: 'Create draft' }).click();
  await ines.locator('#id_name_errors').waitFor();
  assert.equal(await ines.getByLabel(/^Private/).isChecked(), true);
  await assertAccessible(ines, 'dashboard: new project with errors');
  // The form works with the keyboard alone, the focus always visible (the access choice was kept).
  await tabTo(ines, (f) => f.id === 'id_name', 'title');
  await ines.keyboard.type('Neue Parkbänke');
  await tabTo(ines, (f) => f.id === 'id_description', 'short description');
  await ines.keyboard.type('Where should the new benches of the park go?');
  await tabTo(ines, (f) => f.tag === 'button' && f.text === 'Create draft', 'Create draft');
  await ines.keyboard.press('Enter');
  await ines.getByText('Project was created.').waitFor();
  projectSlug = /\/dashboard\/projects\/([^/]+)\/basic\//.exec(ines.url())?.[1] ?? '';
  assert.ok(projectSlug, ines.url());
  await ines.goto(projectDashboard('basic'));
  await checkPage(ines, 'dashboard: basic settings');

  await ines.getByRole('link', { name: 'Add module' }).click();
  await checkPage(ines, 'dashboard: blueprints');
  await ines.getByRole('button', { name: 'Add module: Idea Challenge' }).click();
  await ines.getByText('The module was created.').waitFor();
  moduleSlug = /\/dashboard\/modules\/([^/]+)\/module_basic\//.exec(ines.url())?.[1] ?? '';
  assert.ok(moduleSlug, ines.url());
  await ines.goto(moduleDashboard('module_basic'));
  await checkPage(ines, 'dashboard: module basic information');

  // Phases: the rule "in form order" is told beside the form; then the collect phase runs now, the rating phase follows.
  await ines.locator('.dashboard-menu').getByRole('link', { name: 'Phases' }).click();
  await checkPage(ines, 'dashboard: phases');
  await fillPhases(ines, [5, 10, -1, 4]);
  await ines.getByText('Phases need to be in same order as in form.').waitFor();
  await assertAccessible(ines, 'dashboard: phases with an error');
  await fillPhases(ines, [-1, 7, 7, 14]);
  await ines.getByText('Your changes have been saved.').waitFor();

  await ines.locator('.dashboard-menu').getByRole('link', { name: 'Categories' }).click();
  await checkPage(ines, 'dashboard: categories');
  await ines.locator('#id_new-0').fill('Playground');
  await ines.locator('#id_new-1').fill('Lakeside');
  await ines.getByRole('button', { name: 'Save', exact: true }).click();
  await ines.getByText('Your changes have been saved.').waitFor();
  assert.equal(await ines.getByLabel('Category 2').inputValue(), 'Lakeside');

  await ines.locator('.dashboard-menu').getByRole('link', { name: 'Labels' }).click();
  await checkPage(ines, 'dashboard: labels');
  await ines.locator('#id_new-0').fill('Shade');
  await ines.getByRole('button', { name: 'Save', exact: true }).click();
  await ines.getByText('Your changes have been saved.').waitFor();
  assert.equal(await ines.getByLabel('Label 1').inputValue(), 'Shade');
});

test('the initiator invites a moderator and a participant, who accept through the link in their e-mail', { skip: chromiumMissing }, async () => {
  const ines = await windowOf('ines');
  for (const [role, who] of [
    ['Moderators', 'mona'],
    ['Participants', 'paul'],
  ] as const) {
    await ines.goto(projectDashboard(role.toLowerCase()));
    await checkPage(ines, `dashboard: ${role.toLowerCase()}`);
    await ines.getByLabel('E-mail addresses', { exact: true }).fill(`${who}@example.org`);
    await ines.getByRole('button', { name: 'Invite', exact: true }).click();
    await ines.getByText('1 invitation sent.').waitFor();
    await ines.getByRole('button', { name: `Remove invitation: ${who}@example.org` }).waitFor();
  }

  // The moderator follows the link while logged out, logs in on the way, and accepts.
  const mail = await lastMail(t.db, 'mona@example.org');
  assert.ok(mail, 'the moderator got an invitation');
  const mona = await newWindow('mona');
  await mona.goto(`${base}${linkIn(mail.body, `/${org}/projects/moderator-invites/`)}`);
  await mona.getByRole('heading', { name: 'Invitation to moderate Neue Parkbänke' }).waitFor();
  await mona.locator('main').getByRole('link', { name: 'Login' }).click();
  await logIn(mona, 'mona');
  await mona.getByRole('button', { name: 'Accept invitation' }).click();
  await mona.getByText('You are now a moderator of Neue Parkbänke.').waitFor();

  const invitation = await lastMail(t.db, 'paul@example.org');
  assert.ok(invitation, 'the participant got an invitation');
  const paul = await windowOf('paul');
  await paul.goto(`${base}${linkIn(invitation.body, `/${org}/projects/participant-invites/`)}`);
  await paul.getByRole('button', { name: 'Accept invitation' }).click();
  await paul.getByText('You are now a participant of Neue Parkbänke.').waitFor();

  // E2: each e-mail exactly once — the invitations, the new moderator's pointer to her queue (issue 22) and the participant's welcome (§A5.5, C14).
  for (const [who, kinds] of [
    ['mona', ['invite_moderator', 'moderator_appointed']],
    ['paul', ['invite_participant', 'welcome_participant']],
  ] as const) {
    const mails = await t.db.select({ kind: outbox.kind }).from(outbox).where(eq(outbox.recipient, `${who}@example.org`)).orderBy(outbox.id);
    assert.deepEqual(mails.map((m) => m.kind), kinds, who);
  }

  await ines.goto(projectDashboard('participants'));
  await ines.getByRole('button', { name: 'Remove: paul' }).waitFor();
  await ines.goto(projectDashboard('moderators'));
  await ines.getByRole('button', { name: 'Remove: mona' }).waitFor();
});

test('publishing is refused with every missing field linked to its form; once filled in, the project is published', { skip: chromiumMissing }, async () => {
  const ines = await windowOf('ines');
  const information = `/${org}/dashboard/projects/${projectSlug}/information/`;
  await ines.goto(projectDashboard('basic'));
  await ines.getByRole('button', { name: 'Publish', exact: true }).click();
  const refusal = ines.getByRole('alert');
  await refusal.getByText('Project cannot be published.').waitFor();
  await refusal.getByText('No module is added.', { exact: false }).waitFor();
  assert.deepEqual(await missingLinks(ines, refusal), [{ text: 'Description of your project', href: information }]);
  await assertAccessible(ines, 'dashboard: publishing refused (en)');
  // The same refusal in German (the page shown is still the English one).
  await setLanguage(ines, 'de');
  await ines.getByRole('button', { name: 'Publish', exact: true }).click();
  await refusal.getByText('Das Projekt kann nicht veröffentlicht werden.').waitFor();
  assert.equal((await missingLinks(ines, refusal)).length, 1);
  await assertAccessible(ines, 'dashboard: publishing refused (de)');
  await setLanguage(ines, 'en');

  // The link leads to the form of the missing field.
  await ines.reload();
  await ines.getByRole('alert').getByRole('link', { name: 'Description of your project' }).click();
  await ines.waitForURL(`${base}${information}`);
  await checkPage(ines, 'dashboard: information');
  // The rich-text editor (issue 22.1) stands in for the textarea.
  await ines.locator('#id_information_editor').fill('The park gets twenty new benches. Tell us where.');
  await ines.getByLabel('Contact person').fill('Ines Initiator');
  await ines.getByRole('button', { name: 'Save', exact: true }).click();
  await ines.getByText('Your changes have been saved.').waitFor();

  // The module is not complete yet: it says what is missing and cannot be added.
  await ines.goto(moduleDashboard('module_basic'));
  const box = ines.getByRole('region', { name: 'Module' });
  assert.deepEqual(await missingLinks(ines, box), [{ text: 'Ideenwettbewerb: Module description', href: `/${org}/dashboard/modules/${moduleSlug}/module_basic/` }]);
  await ines.getByRole('button', { name: 'Add to project' }).click();
  await ines.getByText('Module cannot be added. Required fields are missing.').waitFor();
  await assertAccessible(ines, 'dashboard: module refused');
  await ines.getByLabel('Module description').fill('Suggest a place for a bench, then rate the suggestions.');
  await ines.getByRole('button', { name: 'Save', exact: true }).click();
  await ines.getByText('Your changes have been saved.').waitFor();
  await ines.getByRole('button', { name: 'Add to project' }).click();
  await ines.getByText('The module is displayed in the project.').waitFor();

  await ines.getByRole('button', { name: 'Publish', exact: true }).click();
  await ines.getByText('The project has been published.').waitFor();
  await checkPage(ines, 'dashboard: published project');
});

let ideaUrl = '';

test('the participant posts an idea in the private project; an outsider is refused', { skip: chromiumMissing }, async () => {
  const paul = await windowOf('paul');
  await paul.goto(`${base}/${org}/projects/${projectSlug}/`);
  await paul.getByText('This project is not publicly visible').waitFor();
  await paul.getByRole('link', { name: 'Submit your idea' }).click();
  await paul.getByLabel('Title').fill('A bench under the old oak');
  await paul.locator('#id_description_editor').fill('Shade in the afternoon and a view of the pond');
  await paul.getByLabel('Category').selectOption({ label: 'Lakeside' });
  await paul.getByLabel('Shade').check();
  await paul.getByRole('button', { name: 'Save' }).click();
  await paul.getByText('Your idea has been saved.').waitFor();
  ideaUrl = paul.url();

  const otto = await windowOf('otto');
  assert.equal((await otto.goto(`${base}/${org}/projects/${projectSlug}/`))?.status(), 403);
  assert.equal((await otto.goto(ideaUrl))?.status(), 403);
  assert.equal((await otto.goto(dashboard))?.status(), 403);
});

/** Clicks a download link and returns the file. */
async function download(page: Page, name: string) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()]);
  assert.match(file.suggestedFilename(), new RegExp(`^${projectSlug}_.+\\.(csv|xlsx)$`));
  return readFile(await file.path());
}

test('the initiator exports the ideas as xlsx and CSV and archives the project after its last phase', { skip: chromiumMissing }, async () => {
  const ines = await windowOf('ines');
  await ines.goto(projectDashboard('basic'));
  await ines.locator('.dashboard-menu').getByRole('link', { name: 'Export' }).click();
  await ines.waitForURL(moduleDashboard('export'));
  await checkPage(ines, 'dashboard: export');
  const csv = (await download(ines, 'Ideas: CSV')).toString('utf8');
  assert.match(csv, /A bench under the old oak/);
  assert.match(csv, /Lakeside/);
  assert.match(csv, /paul/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.read(Readable.from([await download(ines, 'Ideas: Excel (xlsx)')]));
  const titles: unknown[] = [];
  workbook.worksheets[0].eachRow((row) => titles.push((row.values as unknown[])[3]));
  assert.deepEqual(titles, ['Title', 'A bench under the old oak']);

  // The moderator finds the export on her moderation page.
  const mona = await windowOf('mona');
  await mona.goto(`${base}/userdashboard/moderation/`);
  await mona.locator('main').getByRole('link', { name: 'Neue Parkbänke' }).first().click();
  await mona.getByRole('link', { name: 'Export the contributions of Ideenwettbewerb' }).click();
  await checkPage(mona, 'export (moderator)');
  assert.match((await download(mona, 'Ideas: CSV')).toString('utf8'), /A bench under the old oak/);

  // While a phase is still to come, archiving is refused.
  await ines.goto(projectDashboard('basic'));
  await ines.getByRole('button', { name: 'Archive', exact: true }).click();
  await ines.getByText('A project can only be archived when its last phase has ended.').waitFor();
  // The consultation is over: the initiator records when its phases really ran (no waiting in a test).
  await ines.goto(moduleDashboard('phases'));
  await fillPhases(ines, [-20, -10, -10, -1]);
  await ines.getByText('Your changes have been saved.').waitFor();
  await ines.getByRole('button', { name: 'Archive', exact: true }).click();
  await ines.getByText('The project was archived.').waitFor();

  // The project list hides it unless asked for archived projects.
  await ines.goto(dashboard);
  await ines.getByText('No projects found.').waitFor();
  await ines.getByLabel('Archived').selectOption('yes');
  await ines.getByRole('button', { name: 'Filter' }).click();
  await ines.getByRole('link', { name: 'Edit: Neue Parkbänke' }).waitFor();
  await checkPage(ines, 'dashboard: project list (archived)');

  // The operator sees it archived in the back-office.
  const admin = await windowOf('admin');
  await admin.getByRole('link', { name: 'Projects', exact: true }).click();
  await admin.getByRole('button', { name: 'Unarchive: Neue Parkbänke' }).waitFor();
  await checkPage(admin, 'back-office: projects');
});

test('the other dashboard and back-office pages pass axe in English and German', { skip: chromiumMissing }, async () => {
  const ines = await windowOf('ines');
  for (const path of [
    projectDashboard('result'),
    projectDashboard('location'),
    `${base}/${org}/dashboard/projects/${projectSlug}/delete/`,
    `${base}/${org}/dashboard/settings/`,
    `${base}/${org}/dashboard/settings/legal-information/`,
    `${base}/${org}/dashboard/communication/newsletters/`,
    `${base}/${org}/dashboard/communication/newsletters/create/`,
  ]) {
    await ines.goto(path);
    await checkPage(ines, path.slice(base.length));
  }
  const admin = await windowOf('admin');
  for (const path of ['users', 'reports', 'pages', 'mails']) {
    await admin.goto(`${base}/backoffice/${path}/`);
    await checkPage(admin, `/backoffice/${path}/`);
  }
  for (const context of contexts.values()) await context.close();
});
