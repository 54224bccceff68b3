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
    const result = spawnSync(process.execPath, programArgs('manage', 'createsuperuser', '--username', 'ops', '--email', 'ops@example.org', '--password', 'pw-123456'), { env, encoding: 'utf8' });
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
