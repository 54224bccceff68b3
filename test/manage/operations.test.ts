import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { outbox } from '../../src/db/schema/index.js';
import { createMailDelivery, mailFile } from '../../src/mail/delivery.js';
import { queueMail } from '../../src/mail/outbox.js';
import { Browser } from '../me/accounts/client.js';
import { dashboardApp, dashboardWorld, signedIn } from './world.js';

test('development mail goes to files under DATA_DIR and the console, and superusers read it in the back-office', async () => {
  const { app, db, config } = await dashboardApp();
  await queueMail(db, { to: 'someone@example.org', subject: 'Willkommen', body: 'Hallo und willkommen', kind: 'test' });
  const printed: string[] = [];
  const mailDir = `${config.dataDir}/mail`;
  const delivery = createMailDelivery({ db, mailDir, from: 'Allmende <noreply@example.org>', print: (text) => printed.push(text) });
  delivery.kick();
  await delivery.idle();
  await delivery.close();
  const [row] = await db.select().from(outbox).where(eq(outbox.recipient, 'someone@example.org'));
  assert.ok(row.sentAt instanceof Date);
  const file = mailFile(mailDir, row.id);
  assert.ok(existsSync(file));
  assert.match(readFileSync(file, 'utf8'), /Subject: Willkommen/);
  assert.match(printed.join('\n'), /To: someone@example.org[\s\S]*Hallo und willkommen/);

  assert.equal((await (await signedIn(app, 'initiator')).get('/backoffice/mails/')).status, 403);
  const admin = await signedIn(app, 'admin');
  const page = await admin.get('/backoffice/mails/');
  assert.equal(page.status, 200);
  assert.match(page.text, /someone@example.org — Willkommen \[test\] — sent/);
  assert.match(page.text, /Hallo und willkommen/);
  assert.equal((await admin.get('/backoffice/mails/?page=9')).status, 404);
});

test('superusers edit the platform legal pages; the footer and the signup consent link to them', async () => {
  const { app } = await dashboardApp({ ...dashboardWorld(), platform_pages: [] });
  const anonymous = new Browser(app);
  const signup = await anonymous.get('/accounts/signup/');
  assert.doesNotMatch(signup.text, /id_terms_of_use/, 'no consent to unwritten texts (issue 22.3; test/manage/legal-readiness.test.ts)');
  for (const key of ['imprint', 'privacy', 'terms', 'netiquette']) assert.match(signup.text, new RegExp(`<a href="/pages/${key}/">`), `footer links ${key}`);
  assert.match((await anonymous.get('/pages/imprint/')).text, /This page has not been written yet./);
  assert.equal((await anonymous.get('/pages/unknown/')).status, 404);

  const initiator = await signedIn(app, 'initiator');
  assert.equal((await initiator.get('/backoffice/pages/imprint/')).status, 403);
  assert.equal((await initiator.post('/backoffice/pages/imprint/', { body_en: 'x', body_de: 'y' })).status, 403);

  const admin = await signedIn(app, 'admin');
  assert.equal((await admin.post('/backoffice/pages/imprint/', { body_en: '<p>x</p>' }, false)).status, 403, 'CSRF');
  const tooLong = await admin.post('/backoffice/pages/imprint/', { body_en: 'a'.repeat(100_001), body_de: '<p>Kept</p>' });
  assert.equal(tooLong.status, 400);
  assert.match(tooLong.text, /id="id_body_en_errors"/);
  assert.ok(/&lt;p(&gt;|>)Kept/.test(tooLong.text), 'values are kept');
  assert.match((await anonymous.get('/pages/imprint/')).text, /not been written yet/, 'nothing stored');
  const saved = await admin.post('/backoffice/pages/imprint/', { body_en: '<p>Operated by Example e.V.</p><script>alert(1)</script>', body_de: '<p>Betrieben von Beispiel e.V.</p>' });
  assert.equal(saved.location, '/backoffice/pages/?done=saved');
  const english = await anonymous.get('/pages/imprint/');
  assert.match(english.text, /Operated by Example e.V./);
  assert.doesNotMatch(english.text, /alert\(1\)/);
  const german = await new Browser(app, { 'accept-language': 'de' }).get('/pages/imprint/');
  assert.match(german.text, /Betrieben von Beispiel e.V./);
  assert.match(german.text, />Impressum</);
  assert.match((await admin.get('/backoffice/pages/imprint/')).text, /Betrieben von Beispiel/);
});

test('superusers see reported content across organisations with project, organisation, reasons and a link to moderate', async () => {
  const world = dashboardWorld();
  const { app } = await dashboardApp({
    ...world,
    modules: [...(world.modules ?? []), { id: 9, project: 4, name: 'Foreign ideas', phases: [] }],
    ideas: [
      { id: 1, module: 1, creator: 5, name: 'Bike lanes', description: 'x', category: 1 },
      { id: 2, module: 9, creator: 6, name: 'Foreign idea', description: 'y' },
    ],
    comments: [{ id: 1, creator: 5, target: { type: 'idea', id: 1 }, comment: 'A rude remark' }],
    reports: [
      { creator: 4, target: { type: 'idea', id: 1 }, description: 'Off topic' },
      { creator: 6, target: { type: 'idea', id: 1 }, description: 'Spam' },
      { creator: 4, target: { type: 'comment', id: 1 }, description: 'Insulting' },
      { creator: 2, target: { type: 'idea', id: 2 }, description: 'Duplicate' },
    ],
  });
  assert.equal((await (await signedIn(app, 'moderator')).get('/backoffice/reports/')).status, 403);
  const admin = await signedIn(app, 'admin');
  const page = await admin.get('/backoffice/reports/');
  assert.equal(page.status, 200);
  assert.match(page.text, /3 reported items/);
  assert.match(page.text, /Bike lanes[\s\S]*href="\/org\/projects\/project\/"[\s\S]*Organisation<\/a>[\s\S]*Moderate[\s\S]*Reported 2 times[\s\S]*Off topic[\s\S]*Spam/);
  assert.match(page.text, /A rude remark[\s\S]*href="\/userdashboard\/moderation\/detail\/project\/">Moderate[\s\S]*Insulting/);
  assert.match(page.text, /Foreign idea[\s\S]*Other organisation[\s\S]*\/moderate\/">Moderate[\s\S]*Duplicate/);
  assert.equal((await admin.get('/backoffice/reports/?page=2')).status, 404);
});
