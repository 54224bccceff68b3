import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from 'sharp';
import { platformSettings } from '../../src/db/schema/index.js';
import { operatorWorld } from './operator.js';
import { Browser } from '../me/accounts/client.js';

const world = operatorWorld;

const settings = {
  name: 'Mitmachen Musterstadt',
  address: '<p>Rathaus, Marktplatz 1<br>12345 Musterstadt</p><script>x</script>',
  contacts: '<p>beteiligung@musterstadt.example</p>',
  facebook: 'https://facebook.example/musterstadt',
  twitter: '',
  github: 'https://github.example/musterstadt',
  share_description_en: 'Have your say in Musterstadt.',
  share_description_de: 'Reden Sie mit in Musterstadt.',
};

test('the operator writes the platform’s name, address, contacts and social links in the back-office: every page’s footer shows them', async () => {
  const { app, db, admin } = await world();
  const form = await admin.get('/backoffice/platform/');
  assert.equal(form.status, 200);
  assert.match(form.text, /name="address"/);
  assert.doesNotMatch((await new Browser(app).get('/')).text, /footer-operator/, 'nothing written: nothing shown');

  assert.equal((await admin.post('/backoffice/platform/', settings)).status, 302);
  const [stored] = await db.select().from(platformSettings);
  assert.match(stored.address, /Marktplatz 1/);
  assert.doesNotMatch(stored.address, /script/, 'rich text is cleaned');

  const home = (await new Browser(app).get('/contact/')).text;
  assert.match(home, /<footer[\s\S]*<li>Mitmachen Musterstadt<\/li>/);
  assert.match(home, /<footer[\s\S]*<address class="footer-address">[\s\S]*Marktplatz 1[\s\S]*<\/address>/);
  assert.match(home, /<footer[\s\S]*beteiligung@musterstadt\.example/);
  assert.match(home, /<footer[\s\S]*<a href="https:\/\/facebook\.example\/musterstadt"[^>]*>Facebook<\/a>/);
  assert.doesNotMatch(home, /X \(Twitter\)<\/a>/, 'an empty link is not shown');
  assert.match(home, /<meta property="og:description" content="Have your say in Musterstadt\."/);
  const german = (await new Browser(app, { 'accept-language': 'de' }).get('/contact/')).text;
  assert.match(german, /og:description" content="Reden Sie mit in Musterstadt\."/);
  assert.match(german, /aria-label="Soziale Medien"/);
});

test('the sharing picture is stored and can be removed; og:image is an absolute URL, on a project page too', async () => {
  const { app, db, admin, config } = await world();
  const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3a7' } }).png().toBuffer();
  assert.equal((await admin.postMultipart('/backoffice/platform/', settings, { name: 'image', filename: 'share.png', type: 'image/png', data: png })).status, 302);
  // Open Graph readers take an absolute URL only: BASE_URL (config.baseUrl) and the media path.
  const sharedImage = async (url: string) => /<meta property="og:image" content="([^"]+)"/.exec((await new Browser(app).get(url)).text)?.[1] ?? '';
  assert.match(await sharedImage('/'), /\/media\/site\/images\/[0-9a-f]{64}\.png$/);
  for (const url of ['/', '/org/projects/project/']) assert.ok((await sharedImage(url)).startsWith(`${config.baseUrl}/media/site/images/`), `${url}: ${await sharedImage(url)}`);
  assert.equal((await admin.post('/backoffice/platform/', { ...settings, image_deleted: 'on' })).status, 302);
  assert.equal((await db.select().from(platformSettings))[0].shareImage, null);
  assert.doesNotMatch((await new Browser(app).get('/contact/')).text, /og:image/, 'the start page is kept for a second (web/page-keeping.ts): another page shows it at once');
});

test('wrong platform settings come back with their errors beside the fields, nothing saved; only superusers reach the form', async () => {
  const { app, db, admin } = await world();
  const refused = await admin.post('/backoffice/platform/', { ...settings, name: 'n'.repeat(51), facebook: 'javascript:alert(1)', twitter: 'not a link', share_description_de: 'x'.repeat(301) });
  assert.equal(refused.status, 400);
  for (const name of ['name', 'facebook', 'twitter', 'share_description_de']) assert.match(refused.text, new RegExp(`id="id_${name}_errors"`), name);
  assert.match(refused.text, /Enter a valid URL/);
  const notAnImage = await admin.postMultipart('/backoffice/platform/', settings, { name: 'image', filename: 'x.png', type: 'image/png', data: Buffer.from('not a picture') });
  assert.equal(notAnImage.status, 400);
  assert.match(notAnImage.text, /id="id_image_errors"/);
  assert.equal((await db.select().from(platformSettings)).length, 0);

  const initiator = new Browser(app);
  await initiator.login('initiator', 'initiator-password');
  assert.equal((await initiator.get('/backoffice/platform/')).status, 403);
  assert.equal((await initiator.post('/backoffice/platform/', settings)).status, 403);
  assert.equal((await new Browser(app).get('/backoffice/platform/')).status, 302);
});
