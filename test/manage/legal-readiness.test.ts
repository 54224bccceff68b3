import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { projects } from '../../src/db/schema/index.js';
import { Browser } from '../me/accounts/client.js';
import { daysFromNow } from '../fixtures.js';
import { dashboardApp, dashboardWorld, signedIn } from './world.js';

const PUBLISH = '/org/dashboard/projects/ready/publish/';

/** A complete draft project with an added module, on a platform whose legal texts are not written. */
async function readyDraft() {
  const world = dashboardWorld();
  return dashboardApp({
    ...world,
    platform_pages: [{ key: 'netiquette', language: 'en', body: '<p>Be nice</p>' }],
    projects: [...(world.projects ?? []), { id: 9, slug: 'ready', name: 'Ready', organisation: 1, is_draft: true, description: 'All there', information: '<p>Info</p>' }],
    modules: [
      ...(world.modules ?? []),
      { id: 9, project: 9, name: 'Ideas', description: 'Tell us', phases: [{ type: 'a4_candy_ideas:collect', name: 'Collect', description: 'Send', start_date: daysFromNow(1), end_date: daysFromNow(10) }] },
    ],
  });
}

test("a project is not published while the platform's imprint, data protection notice or terms of use are empty; the check links to where they are written, in English and German", async () => {
  const { app, db } = await readyDraft();
  const initiator = await signedIn(app, 'initiator');
  const refused = await initiator.post(PUBLISH, { action: 'publish' });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /Project cannot be published./);
  const back = '\\?next=/org/dashboard/projects/ready/basic/';
  assert.match(refused.text, new RegExp(`<a href="/backoffice/pages/imprint/${back}">Imprint of the platform</a>`));
  assert.match(refused.text, new RegExp(`<a href="/backoffice/pages/privacy/${back}">Data protection notice of the platform</a>`));
  assert.match(refused.text, new RegExp(`<a href="/backoffice/pages/terms/${back}">Terms of use of the platform</a>`));
  assert.doesNotMatch(refused.text, /backoffice\/pages\/netiquette\//, 'the netiquette is not required');
  assert.match((await initiator.get('/org/dashboard/projects/ready/basic/')).text, /Not ready for publication./);
  const german = await (await signedIn(app, 'coinit')).post(PUBLISH, { action: 'publish' });
  assert.match(german.text, /Impressum der Plattform/);
  assert.match(german.text, /Datenschutzerklärung der Plattform/);
  assert.equal((await db.select().from(projects).where(eq(projects.id, 9)))[0].isDraft, true);

  const admin = await signedIn(app, 'admin');
  await admin.post('/backoffice/pages/imprint/', { body_en: '<p>City hall</p>', body_de: '' });
  await admin.post('/backoffice/pages/privacy/', { body_en: '', body_de: '<p>Datenschutz</p>' });
  const stillRefused = await initiator.post(PUBLISH, { action: 'publish' });
  assert.match(stillRefused.text, /Terms of use of the platform/);
  assert.doesNotMatch(stillRefused.text, /Imprint of the platform|Data protection notice of the platform/, 'one language is enough');
  await admin.post('/backoffice/pages/terms/', { body_en: '<p>Terms</p>', body_de: '' });
  assert.equal((await initiator.post(PUBLISH, { action: 'publish' })).location, '/org/dashboard/projects/ready/basic/?done=published');
});

test('the back-office form of a platform text reached from a refused publication leads back to that project once saved; a foreign address leads to the list', async () => {
  const { app } = await readyDraft();
  const admin = await signedIn(app, 'admin');
  const form = await admin.get('/backoffice/pages/imprint/?next=/org/dashboard/projects/ready/basic/');
  assert.match(form.text, /One language is enough/);
  assert.match(form.text, /Saving leads you back to the project you were publishing\./);
  assert.match(form.text, /<input type="hidden" name="next" value="\/org\/dashboard\/projects\/ready\/basic\/"/);
  const saved = await admin.post('/backoffice/pages/imprint/', { body_en: '<p>City hall</p>', body_de: '', next: '/org/dashboard/projects/ready/basic/' });
  assert.equal(saved.location, '/org/dashboard/projects/ready/basic/');
  assert.match((await admin.get(saved.location ?? '')).text, /Your changes have been saved\./);
  assert.equal((await admin.post('/backoffice/pages/imprint/', { body_en: '<p>City hall</p>', body_de: '', next: '//evil.example/' })).location, '/backoffice/pages/?done=saved');
  assert.doesNotMatch((await admin.get('/backoffice/pages/imprint/?next=//evil.example/')).text, /name="next" value="\/\/evil|Saving leads you back/);
  const german = new Browser(app, { 'accept-language': 'de' });
  await german.login('admin', 'admin-password');
  await german.post('/i18n/setlang/', { language: 'de' });
  assert.match((await german.get('/backoffice/pages/imprint/')).text, /Eine Sprache genügt/);
});

test('the sign-up form asks to accept only the terms of use and data protection notice that are written', async () => {
  const { app } = await readyDraft();
  const anonymous = new Browser(app);
  const none = await anonymous.get('/accounts/signup/');
  assert.doesNotMatch(none.text, /id_terms_of_use/, 'nothing to accept');
  const signup = { username: 'newbie', email: 'newbie@example.org', password1: 'long-enough-pw', password2: 'long-enough-pw' };
  assert.equal((await anonymous.post('/accounts/signup/', signup)).status, 200, 'signing up needs no consent to empty texts');

  const admin = await signedIn(app, 'admin');
  await admin.post('/backoffice/pages/terms/', { body_en: '<p>Terms</p>', body_de: '' });
  const onlyTerms = await new Browser(app).get('/accounts/signup/');
  assert.match(onlyTerms.text, /<label for="id_terms_of_use">I accept the <a href="\/pages\/terms\/">terms of use<\/a>.<\/label>/);
  await admin.post('/backoffice/pages/privacy/', { body_en: '<p>Privacy</p>', body_de: '' });
  const both = new Browser(app, { 'accept-language': 'de' });
  const page = await both.get('/accounts/signup/');
  assert.match(page.text, /Ich akzeptiere die <a href="\/pages\/terms\/">[^<]+<\/a> und die <a href="\/pages\/privacy\/">/);
  const refused = await both.post('/accounts/signup/', { ...signup, username: 'other2', email: 'other2@example.org' });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /id="id_terms_of_use_errors"/);
});
