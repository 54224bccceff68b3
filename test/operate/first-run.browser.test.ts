import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { assertAccessible, challengeSolved, chromiumMissing, launchChromium, newLocalePage } from '../chromium.js';
import { toLocalInput } from '../../src/i18n/dates.js';
import { programArgs, type Running, startServer } from '../processes.js';

/**
 * Issue 37's measure: the whole first-run path of an empty install, as a person who reads only the
 * screens walks it. The server is started as `npm start` starts it (no demo data) and the setup
 * code is read from its log; from there on everything is a click on a link or button the screen
 * shows, or a form filled in: no terminal, no address typed but the one of the start log and the
 * confirmation link passed on from the back-office's e-mail view. Clicks and page loads are counted
 * (docs/operations.md gives the count); each screen on the way names the next step.
 */
let chromium: Browser;
let server: Running;
let dataDir = '';

/** A free port, so that the links in e-mails (BASE_URL defaults to the address listened on) lead back to this server. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

before(async () => {
  if (chromiumMissing) return;
  dataDir = mkdtempSync(join(tmpdir(), 'allmende-first-run-'));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(await freePort()), SEED_DEMO: 'false', NODE_ENV: 'development', LOG_LEVEL: 'warn' };
  for (const name of ['DATABASE_URL', 'BASE_URL', 'SMTP_URL', 'SECRET_KEY', 'REDIS_URL', 'WEB_CONCURRENCY']) delete env[name];
  server = await startServer(programArgs('main'), env);
  chromium = await launchChromium();
});

after(async () => {
  await chromium?.close();
  const child: ChildProcess | undefined = server?.child;
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** What the walk cost: clicks on links and buttons, pages loaded, addresses typed or pasted. */
const count = { clicks: 0, pages: 0, addresses: 0 };

async function window(): Promise<Page> {
  const page = await newLocalePage(chromium, 'en-US');
  // A page is a document the main frame was sent (not a redirect). Counted from its answer, which
  // comes before anything of it shows: a 'load' event can come after the next click (or never, for
  // a page left before its images loaded) on a busy machine, and a CI run once missed one that way.
  page.on('response', (response) => {
    const status = response.status();
    if (response.request().isNavigationRequest() && response.frame() === page.mainFrame() && (status < 300 || status >= 400)) count.pages++;
  });
  return page;
}

async function click(target: Locator) {
  count.clicks++;
  await target.click();
}

async function open(page: Page, address: string) {
  count.addresses++;
  await page.goto(address);
}

/** The count so far, once the page shown has loaded. */
async function counted(page: Page) {
  await page.waitForLoadState('load');
  return { ...count };
}

/** The screen says what to do next: a visible text or link/button naming it. */
async function nextStep(page: Page, what: Locator | string, screen: string) {
  const target = typeof what === 'string' ? page.locator('main').getByText(what).first() : what;
  try {
    await target.waitFor({ state: 'visible' });
  } catch {
    assert.fail(`${screen} (${page.url()}) does not say what to do next (${String(what)}):\n${await page.locator('main').innerText()}`);
  }
  return target;
}

/** Fills a form's fields by their labels. */
async function fill(page: Page, fields: Record<string, string>) {
  for (const [label, value] of Object.entries(fields)) await page.getByLabel(label).fill(value);
}

test('from `npm start` on an empty install to a citizen\'s idea in a published project, by clicking', { skip: chromiumMissing, timeout: 300_000 }, async () => {
  // The start log: the address and the setup code.
  const log = server.output();
  const announced = /open\n {2}(http:\/\/\S+\/setup\/)\nand enter the setup code ([0-9A-Z-]{14})/.exec(log);
  assert.ok(announced, `the start log names the setup page and its code:\n${log}`);
  const [, setupUrl, code] = announced;

  // 1. The operator: the setup code and her account.
  const operator = await window();
  await open(operator, setupUrl);
  await nextStep(operator, 'Step 1 of 4', 'setup: operator');
  await assertAccessible(operator, 'setup: operator');
  await fill(operator, { 'Setup code': code, Username: 'opsteam', 'E-mail address': 'ops@example.org', Password: 'a-long-password' });
  await click(await nextStep(operator, operator.getByRole('button', { name: 'Create the operator account' }), 'setup: operator'));

  // 2. The first organisation and its initiator (herself).
  await nextStep(operator, 'Step 2 of 4', 'setup: organisation');
  await assertAccessible(operator, 'setup: organisation');
  await fill(operator, { 'Name of the organisation': 'Stadt Grünau' });
  await click(operator.getByRole('button', { name: 'Create the organisation' }));

  // 3. The organisation's legal texts.
  await nextStep(operator, 'Step 3 of 4', 'setup: legal texts');
  await nextStep(operator, /One language is enough/.source, 'setup: legal texts');
  await assertAccessible(operator, 'setup: legal texts');
  await operator.locator('#id_imprint_editor').fill('Stadt Grünau, Marktplatz 1, 12345 Grünau');
  await click(operator.getByRole('button', { name: 'Save and continue to the first project' }));

  // 4. The dashboard: the first project.
  await click(await nextStep(operator, operator.locator('main').getByRole('link', { name: 'Create your first project' }), 'dashboard: no project yet'));
  await fill(operator, { Title: 'Neue Parkbänke', 'Short description': 'Where should the new benches of the park go?' });
  await click(operator.getByRole('button', { name: 'Create draft' }));
  await operator.getByText('Project was created.').waitFor();

  // 5. A module, its description, its phase starting now.
  await click(await nextStep(operator, operator.getByRole('link', { name: 'Add at least one module to the project.' }), 'dashboard: new project'));
  await click(operator.getByRole('button', { name: 'Add module: Idea Challenge' }));
  await operator.getByText('The module was created.').waitFor();
  await nextStep(operator, 'Required fields are missing:', 'dashboard: new module');
  // The organisation speaks the language it was set up in: the module and its phases are named in English.
  assert.equal(await operator.getByLabel('Title of the module').inputValue(), 'Idea Challenge');
  await operator.getByLabel('Module description').fill('Suggest a place for a bench.');
  await click(operator.getByRole('button', { name: 'Save', exact: true }));
  await operator.getByText('Your changes have been saved.').waitFor();
  await click(await nextStep(operator, operator.locator('main').getByRole('link', { name: 'Idea Challenge: Phase 1: end date' }), 'dashboard: module described'));
  await nextStep(operator, /Participation is open from the start of a phase until its end/.source, 'dashboard: phases');
  await assertAccessible(operator, 'dashboard: phases');
  const zone = /in the time zone (\S+)\./.exec(await operator.locator('main').innerText())?.[1] ?? '';
  const inDays = (days: number) => toLocalInput(new Date(Date.now() + days * 24 * 3600_000), zone);
  await operator.getByRole('group', { name: 'Phase 1' }).getByLabel('End').fill(inDays(14));
  await operator.getByRole('group', { name: 'Phase 2' }).getByLabel('Start').fill(inDays(14));
  await operator.getByRole('group', { name: 'Phase 2' }).getByLabel('End').fill(inDays(28));
  await click(operator.getByRole('group', { name: 'Phase 1' }).getByRole('button', { name: 'Starts now (save)' }));
  await operator.getByText('Your changes have been saved.').waitFor();

  // 6. The module into the project, then publishing, which names what is still missing.
  await click(await nextStep(operator, operator.getByRole('button', { name: 'Add to project' }), 'dashboard: phases saved'));
  await operator.getByText('The module is displayed in the project.').waitFor();
  const publish = async (screen: string) => click(await nextStep(operator, operator.getByRole('button', { name: 'Publish', exact: true }), screen));
  await publish('dashboard: module added');
  const refusal = operator.getByRole('alert');
  await nextStep(operator, refusal.getByText('Project cannot be published.'), 'dashboard: publication refused');
  await click(refusal.getByRole('link', { name: 'Description of your project' }));
  await operator.locator('#id_information_editor').fill('The park gets twenty new benches. Tell us where.');
  await click(operator.getByRole('button', { name: 'Save', exact: true }));
  await operator.getByText('Your changes have been saved.').waitFor();
  // The platform's own legal texts: each link leads to the back-office's form and back here.
  for (const text of ['Imprint of the platform', 'Data protection notice of the platform', 'Terms of use of the platform']) {
    await publish(`dashboard: before "${text}"`);
    await click(await nextStep(operator, refusal.getByRole('link', { name: text }), 'dashboard: publication refused'));
    await nextStep(operator, 'One language is enough', `back-office: ${text}`);
    await nextStep(operator, 'Saving leads you back to the project you were publishing.', `back-office: ${text}`);
    await operator.getByLabel('Text (English)').fill(`<p>${text}: Stadt Grünau</p>`);
    await click(operator.getByRole('button', { name: 'Save', exact: true }));
    await operator.getByText('Your changes have been saved.').waitFor();
  }
  await publish('dashboard: legal texts written');
  await operator.getByText('The project has been published.').waitFor();
  const toPublished = await counted(operator);

  // 7. A citizen: the start page, the project, registration.
  const citizen = await window();
  await open(citizen, new URL('/', setupUrl).href);
  await click(await nextStep(citizen, citizen.locator('main').getByRole('link', { name: 'Neue Parkbänke' }).first(), 'start page'));
  await click(await nextStep(citizen, citizen.getByRole('link', { name: 'Log in to submit your idea' }), 'project page (visitor)'));
  await click(await nextStep(citizen, citizen.locator('main').getByRole('link', { name: 'Register' }), 'login (no account yet)'));
  await fill(citizen, { Username: 'clara', 'E-mail address': 'clara@example.org' });
  await citizen.getByLabel('Password', { exact: true }).fill('clara-in-the-park');
  await citizen.getByLabel('Password (again)').fill('clara-in-the-park');
  await click(citizen.getByLabel(/I accept the terms/));
  await challengeSolved(citizen);
  await click(citizen.locator('main').getByRole('button', { name: 'Register' }));
  await nextStep(citizen, 'The operator finds this e-mail with its link in the back-office under E-mails', 'registered (no SMTP)');

  // 8. The operator passes the confirmation link on from the back-office.
  await click(await nextStep(operator, operator.getByRole('link', { name: 'Back-office' }), 'published project'));
  await click(operator.getByRole('link', { name: 'E-mails' }));
  const mail = operator.locator('.mail-list details', { hasText: 'clara@example.org' }).first();
  await click(mail.locator('summary'));
  const link = await mail.getByRole('link', { name: /\/accounts\/confirm-email\// }).getAttribute('href');
  assert.ok(link, 'the confirmation e-mail has its link');
  await open(citizen, link);
  await click(await nextStep(citizen, citizen.locator('main').getByRole('button', { name: 'Confirm' }), 'confirm e-mail'));
  // 9. Straight back to the idea form the login link came from.
  await nextStep(citizen, 'Your e-mail address has been confirmed.', 'e-mail confirmed');
  await nextStep(citizen, 'Submit a new idea for this project', 'e-mail confirmed');
  await assertAccessible(citizen, 'idea form');
  await citizen.getByLabel('Title').fill('A bench under the old oak');
  await citizen.locator('#id_description_editor').fill('Shade in the afternoon and a view of the pond.');
  await click(citizen.getByRole('button', { name: 'Save' }));
  await citizen.getByText('Your idea has been saved.').waitFor();
  await citizen.getByRole('heading', { name: 'A bench under the old oak' }).waitFor();

  const whole = await counted(citizen);

  // The tile and the project page count the same days to the active phase's end, with the right plural, in English and German.
  for (const [locale, days, ideas] of [
    ['en-US', '14 days remaining', '1 idea'],
    ['de-DE', '14 Tage verbleibend', '1 Idee'],
  ] as const) {
    const visitor = await newLocalePage(chromium, locale);
    await visitor.goto(new URL('/', setupUrl).href);
    await visitor.locator('main').getByText(days).first().waitFor();
    await visitor.locator('main').getByRole('link', { name: 'Neue Parkbänke' }).first().click();
    await visitor.locator('main').getByText(days).first().waitFor();
    await visitor.locator('main').getByText(ideas, { exact: true }).waitFor();
    await assertAccessible(visitor, `project page (${locale})`);
    await visitor.context().close();
  }
  console.log(`first run: to the published project ${toPublished.clicks} clicks, ${toPublished.pages} pages; to the citizen's idea ${whole.clicks} clicks, ${whole.pages} pages, ${whole.addresses} addresses typed or pasted`);
  // The counts of docs/operations.md ("How long the first run takes"): a longer path fails here and is noticed.
  assert.deepEqual(toPublished, { clicks: 24, pages: 25, addresses: 1 });
  assert.deepEqual(whole, { clicks: 34, pages: 35, addresses: 3 });
});
