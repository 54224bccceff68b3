import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { outbox } from '../../src/db/schema/index.js';
import { Browser } from '../me/accounts/client.js';
import { basicWorld, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';
import { programArgs } from '../processes.js';
import { setupAnnouncement, setupCode } from '../../src/operate/setup/rules.js';

test('the empty start page shows the operator her first steps, a visitor the way in, and neither once a project is listed', async () => {
  const t = await createTestApp();
  await load(t.db, { users: basicWorld().users });
  const visitor = (await new Browser(t.app).get('/')).text;
  assert.match(visitor, /There are no projects yet\./);
  assert.match(visitor, /Do you run this platform\? <a href="\/accounts\/login\/">Log in as its operator to begin\.<\/a>/);
  assert.doesNotMatch(visitor, /Getting started/);
  const admin = new Browser(t.app);
  await admin.login('admin', 'admin-password');
  const steps = (await admin.get('/')).text;
  assert.match(steps, /<h2 id="first-steps">Getting started<\/h2><ol><li><a href="\/backoffice\/pages\/">Write the legal pages<\/a>/);
  assert.match(steps, /<a href="\/backoffice\/organisations\/">Create an organisation<\/a>.*<a href="\/backoffice\/mails\/">Check the e-mails<\/a>/s);
  const user = new Browser(t.app);
  await user.login('user', 'user-password');
  assert.doesNotMatch((await user.get('/')).text, /Getting started|Do you run this platform/);
  const german = new Browser(t.app, { 'accept-language': 'de' });
  assert.match((await german.get('/')).text, /Betreiben Sie diese Plattform\?/);

  await load(t.db, { organisations: basicWorld().organisations, projects: basicWorld().projects, modules: basicWorld().modules });
  for (const browser of [new Browser(t.app), admin]) assert.doesNotMatch((await browser.get('/')).text, /Getting started|Do you run this platform|There are no projects yet/);
});

test('a command on the embedded database while the server holds it says exactly what to do', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'allmende-first-run-'));
  try {
    // The lock file of a live process other than the command: this test's own process plays the server.
    writeFileSync(join(dataDir, 'pglite.lock'), String(process.pid));
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, SEED_DEMO: 'false', NODE_ENV: 'development' };
    delete env.DATABASE_URL;
    const result = spawnSync(process.execPath, programArgs('manage', 'createsuperuser', '--username', 'opsteam', '--email', 'ops@example.org', '--password', 'pw-123456'), { env, encoding: 'utf8' });
    assert.equal(result.status, 1);
    assert.match(result.stderr, new RegExp(`is in use by process ${process.pid} \\(the running server, most likely\\)`));
    assert.match(result.stderr, new RegExp(`1\\. stop the server \\(Ctrl\\+C where it runs, or: kill ${process.pid}\\),\\n  2\\. run the command again`));
    assert.match(result.stderr, /With PostgreSQL \(DATABASE_URL\) commands run while the server runs\./);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the links of e-mails in the back-office\'s mail view can be clicked, and nothing else turns into markup', async () => {
  const t = await createTestApp();
  await load(t.db, { users: basicWorld().users });
  await t.db.insert(outbox).values({ recipient: 'new@example.org', kind: 'account_confirm_email', subject: 'Confirm', body: 'Open http://localhost:80/accounts/confirm-email/abc.def/ now.\n<b>not bold</b> https://example.org/x?a=1&b=2' });
  const admin = new Browser(t.app);
  await admin.login('admin', 'admin-password');
  const page = (await admin.get('/backoffice/mails/')).text;
  assert.match(page, /Open <a href="http:\/\/localhost:80\/accounts\/confirm-email\/abc.def\/" rel="noopener noreferrer">http:\/\/localhost:80\/accounts\/confirm-email\/abc.def\/<\/a> now\./);
  assert.match(page, /&lt;b>not bold&lt;\/b> <a href="https:\/\/example.org\/x\?a=1&amp;b=2"/);
});

test('an empty install leads from the start page through the setup code to its first organisation, its legal texts and "create your first project"', async () => {
  const t = await createTestApp();
  const operator = new Browser(t.app);
  assert.equal((await operator.get('/')).location, '/setup/');
  const form = (await operator.get('/setup/')).text;
  assert.match(form, /Step 1 of 4/);
  assert.match(form, /printed it in its start log/);
  const account = { username: 'opsteam', email: 'ops@example.org', password: 'a-long-password' };

  const wrong = await operator.post('/setup/', { ...account, code: 'AAAA-BBBB-CCCC' });
  assert.equal(wrong.status, 400);
  assert.match(wrong.text, /This is not the setup code of the start log\./);
  const code = setupCode(t.config.secretKey);
  const typed = code.toLowerCase().replaceAll('-', ' ');
  const created = await operator.post('/setup/', { ...account, code: typed });
  assert.equal(created.location, '/setup/organisation/');
  const organisationForm = (await operator.get('/setup/organisation/')).text;
  assert.match(organisationForm, /Step 2 of 4/);
  assert.match(organisationForm, /name="initiator" type="text" value="opsteam"/);
  const unknown = await operator.post('/setup/organisation/', { name: 'Stadt Beispiel', initiator: 'nobody' });
  assert.equal(unknown.status, 400);
  assert.match(unknown.text, /No user with this username or e-mail address\./);
  const organisation = await operator.post('/setup/organisation/', { name: 'Stadt Beispiel', initiator: 'opsteam' });
  assert.equal(organisation.location, '/stadt-beispiel/dashboard/settings/legal-information/?setup=1');
  const legal = (await operator.get(organisation.location ?? '')).text;
  assert.match(legal, /Step 3 of 4/);
  assert.match(legal, /One language is enough/);
  const saved = await operator.post('/stadt-beispiel/dashboard/settings/legal-information/', { imprint: '<p>Stadt Beispiel, Marktplatz 1</p>', terms_of_use: '', data_protection: '', netiquette: '', setup: '1' });
  assert.equal(saved.location, '/stadt-beispiel/dashboard/projects/?done=legal_saved');
  const dashboard = (await operator.get(saved.location ?? '')).text;
  assert.match(dashboard, /The legal texts have been saved\./);
  assert.match(dashboard, /<h2 id="first-project">Create your first project<\/h2>/);
  assert.match(dashboard, /href="\/stadt-beispiel\/dashboard\/projects\/create\/">Create your first project/);
  assert.match(dashboard, /0 projects/);

  // The setup is over: the code opens nothing any more, the start page is the start page.
  const latecomer = new Browser(t.app);
  assert.equal((await latecomer.get('/')).status, 200);
  assert.equal((await latecomer.get('/setup/')).location, '/');
  const again = await latecomer.post('/setup/', { username: 'intruder', email: 'x@example.org', password: 'a-long-password', code });
  assert.equal(again.status, 400);
  assert.match(again.text, /This platform has been set up already\./);
  assert.equal((await latecomer.post('/accounts/login/', { login: 'intruder', password: 'a-long-password' })).location, undefined);
});

test('the setup pages speak German, and the setup code is refused after a wrong attempt just the same', async () => {
  const t = await createTestApp();
  const german = new Browser(t.app, { 'accept-language': 'de' });
  const page = (await german.get('/setup/')).text;
  assert.match(page, /Diese Plattform einrichten/);
  assert.match(page, /Schritt 1 von 4/);
  const wrong = await german.post('/setup/', { username: 'opsteam', email: 'ops@example.org', password: '123', code: '' });
  assert.match(wrong.text, /Das ist nicht der Einrichtungscode aus der Startausgabe\./);
  assert.match(wrong.text, /nur Ziffern|zu kurz/);
  await german.post('/setup/', { username: 'opsteam', email: 'ops@example.org', password: 'ein-langes-passwort', code: setupCode(t.config.secretKey) });
  assert.match((await german.get('/setup/organisation/')).text, /Ihre erste Organisation/);
  assert.match(setupAnnouncement('http://127.0.0.1:8004', t.config.secretKey), /open\n {2}http:\/\/127\.0\.0\.1:8004\/setup\/\nand enter the setup code [0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
});
