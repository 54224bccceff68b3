import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { organisations } from '../../src/db/schema/index.js';
import { Browser } from '../me/accounts/client.js';
import { dashboardApp, signedIn } from './world.js';

const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#3a7' } }).png().toBuffer();

test('an initiator edits the organisation settings and legal texts; the landing page, the About page and the footer show them', async () => {
  const { app, db } = await dashboardApp();
  assert.equal((await new Browser(app).get('/org/dashboard/settings/')).location, '/accounts/login/?next=/org/dashboard/settings/');
  for (const name of ['moderator', 'other', 'user']) assert.equal((await (await signedIn(app, name)).get('/org/dashboard/settings/')).status, 403, name);
  const initiator = await signedIn(app, 'initiator');
  assert.equal((await initiator.get('/other-org/dashboard/settings/legal-information/')).status, 403, 'another organisation');

  const fields = { title: 'City of Example', language: 'en', description_en: 'We ask our citizens.', description_de: 'Wir fragen unsere Bürger.', slogan_en: 'Together', slogan_de: 'Gemeinsam', information_en: '<p>About us</p>', information_de: '<p>Über uns</p>', url: 'ftp://nope' };
  const bad = await initiator.postMultipart('/org/dashboard/settings/', fields, { name: 'logo', filename: 'logo.png', data: await png(100, 100), type: 'image/png' });
  assert.equal(bad.status, 400);
  assert.match(bad.text, /Shown on the landing page; at most 800 characters\./);
  assert.match(bad.text, /id="id_url_errors"/);
  assert.match(bad.text, /id="id_logo_errors"[\s\S]*200 pixels/);
  assert.match(bad.text, /value="City of Example"/, 'values are kept');
  assert.equal((await db.select().from(organisations).where(eq(organisations.slug, 'org')))[0].title, '', 'nothing stored');

  const saved = await initiator.postMultipart('/org/dashboard/settings/', { ...fields, url: 'https://example.org' }, { name: 'logo', filename: 'logo.png', data: await png(300, 300), type: 'image/png' });
  assert.equal(saved.location, '/org/dashboard/settings/?done=saved');
  const [org] = await db.select().from(organisations).where(eq(organisations.slug, 'org'));
  assert.match(String(org.logo), /^organisations\/.*\.png$/);
  assert.equal((await initiator.get(`/media/${org.logo}`)).status, 200);

  assert.equal((await initiator.post('/org/dashboard/settings/legal-information/', { imprint: '<p>Imprint of the city</p>', netiquette: '<p>Be kind</p>' }, false)).status, 403, 'CSRF');
  assert.equal((await initiator.post('/org/dashboard/settings/legal-information/', { imprint: '<p>Imprint of the city</p>', netiquette: '<p>Be kind</p>' })).location, '/org/dashboard/settings/legal-information/?done=saved');

  const visitor = new Browser(app);
  const landing = await visitor.get('/org/');
  assert.match(landing.text, /City of Example[\s\S]*Together[\s\S]*We ask our citizens/);
  assert.match(landing.text, new RegExp(`src="/media/${org.logo}"`));
  assert.match(landing.text, /<a href="\/org\/imprint\/">Imprint<\/a>[\s\S]*<a href="\/org\/netiquette\/">Netiquette<\/a>/);
  assert.doesNotMatch(landing.text, /\/org\/terms-of-use\//, 'only written texts are linked');
  assert.match((await visitor.get('/org/imprint/')).text, /Imprint of the city/);
  assert.equal((await visitor.get('/org/terms-of-use/')).status, 404);
  const german = new Browser(app, { 'accept-language': 'de' });
  assert.match((await german.get('/org/')).text, /Gemeinsam[\s\S]*Wir fragen unsere Bürger/);
  assert.match((await german.get('/org/information/')).text, /Über uns/);
  assert.match((await visitor.get('/org/information/')).text, /About us/);
});

test('the organisation logo is square and 200 to 800 pixels (§B3.1): other sizes get a message beside the field and nothing is stored', async () => {
  const { app, db } = await dashboardApp();
  const initiator = await signedIn(app, 'initiator');
  const fields = { title: 'City of Example', language: 'en' };
  const upload = async (width: number, height: number, browser = initiator) =>
    browser.postMultipart('/org/dashboard/settings/', fields, { name: 'logo', filename: 'logo.png', data: await png(width, height), type: 'image/png' });
  const logo = async () => (await db.select().from(organisations).where(eq(organisations.slug, 'org')))[0].logo;
  const tooLarge = await upload(900, 900);
  assert.equal(tooLarge.status, 400);
  assert.match(tooLarge.text, /id="id_logo_errors"[^>]*><li>Image must be at most 800 pixels wide and 800 pixels tall.<\/li>/);
  assert.match(tooLarge.text, /value="City of Example"/);
  const oblong = await upload(400, 300);
  assert.equal(oblong.status, 400);
  assert.match(oblong.text, /id="id_logo_errors"[^>]*><li>The image must be square: as wide as it is tall.<\/li>/);
  assert.equal(await logo(), null, 'nothing stored');
  const german = new Browser(app, { 'accept-language': 'de' });
  assert.equal((await german.login('coinit', 'coinit-password')).status, 302);
  assert.match((await upload(800, 600, german)).text, /Das Bild muss quadratisch sein/);
  assert.equal((await upload(800, 800)).status, 302, '800 × 800 is fine');
  assert.equal((await upload(400, 398)).status, 302, 'one per cent off square is fine');
  assert.match(String(await logo()), /^organisations\/.*\.png$/);
});
