import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { contentPages, outbox, startPage } from '../../src/db/schema/index.js';
import { operatorWorld } from './operator.js';
import { Browser, solvedChallenge } from '../me/accounts/client.js';

const world = operatorWorld;

const pageForm = { slug: 'help', title_en: 'Help', title_de: 'Hilfe', body_en: '<p>How it works</p><script>x</script>', body_de: '<p>So geht es</p>', placement: 'footer', weight: '1' };

test('the operator adds a content page in the back-office: linked in the footer (or the menu) of every page, in the reader’s language, at /pages/<slug>/', async () => {
  const { app, db, admin } = await world();
  assert.equal((await admin.get('/backoffice/content/create/')).status, 200);
  assert.equal((await admin.post('/backoffice/content/create/', pageForm)).status, 302);
  const [stored] = await db.select().from(contentPages);
  assert.equal(stored.bodyEn, '<p>How it works</p>', 'rich text is cleaned');

  const visitor = new Browser(app);
  const shown = await visitor.get('/pages/help/');
  assert.equal(shown.status, 200);
  assert.match(shown.text, /<h1>Help<\/h1>/);
  assert.match((await visitor.get('/')).text, /<footer[\s\S]*<a href="\/pages\/help\/">Help<\/a>/);
  const german = new Browser(app, { 'accept-language': 'de' });
  assert.match((await german.get('/pages/help/')).text, /<h1>Hilfe<\/h1>[\s\S]*So geht es/);
  assert.equal((await visitor.get('/pages/nothing-here/')).status, 404);

  // Into the menu; then deleted.
  assert.equal((await admin.post(`/backoffice/content/${stored.id}/`, { ...pageForm, placement: 'menu' })).status, 302);
  assert.match((await new Browser(app).get('/org/')).text, /<header[\s\S]*<a href="\/pages\/help\/">Help<\/a>[\s\S]*<\/header>/);
  assert.equal((await admin.post(`/backoffice/content/${stored.id}/delete/`, {})).status, 302);
  assert.equal((await visitor.get('/pages/help/')).status, 404);
  assert.doesNotMatch((await new Browser(app).get('/org/')).text, /\/pages\/help\//);
});

test('a wrong content page comes back with its errors beside the fields, nothing saved; only superusers reach the back-office pages', async () => {
  const { app, db, admin } = await world();
  const refused = await admin.post('/backoffice/content/create/', { ...pageForm, slug: 'imprint', title_en: '', title_de: '', placement: 'sidebar', weight: 'x' });
  assert.equal(refused.status, 400);
  for (const name of ['slug', 'title_en', 'placement', 'weight']) assert.match(refused.text, new RegExp(`id="id_${name}_errors"`), name);
  assert.equal((await admin.post('/backoffice/content/create/', { ...pageForm, slug: 'Bad Slug!' })).status, 400);
  assert.equal((await db.select().from(contentPages)).length, 0);
  assert.equal((await admin.post('/backoffice/content/create/', pageForm)).status, 302);
  assert.match((await admin.post('/backoffice/content/create/', pageForm)).text, /This address is already taken/);
  assert.equal((await admin.get('/backoffice/content/99/')).status, 404);
  const initiator = new Browser(app);
  await initiator.login('initiator', 'initiator-password');
  assert.equal((await initiator.get('/backoffice/content/')).status, 403);
  assert.equal((await initiator.post('/backoffice/content/create/', { ...pageForm, slug: 'other' })).status, 403);
  assert.equal((await new Browser(app).get('/backoffice/start-page/')).status, 302);
});

test('the operator writes the start page’s heading, introduction and image; an image needs its description', async () => {
  const { app, db, admin } = await world();
  const texts = { heading_en: 'Welcome to Sampletown', heading_de: 'Willkommen in Musterstadt', intro_en: '<p>Have your say.</p>', intro_de: '<p>Reden Sie mit.</p>', image_alt_en: '', image_alt_de: '' };
  const png = await sharp({ create: { width: 800, height: 300, channels: 3, background: '#3a7' } }).png().toBuffer();
  const refused = await admin.postMultipart('/backoffice/start-page/', texts, { name: 'image', filename: 'town.png', type: 'image/png', data: png });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /id="id_image_alt_en_errors"[^>]*>[\s\S]*?Describe the image/);
  assert.equal((await db.select().from(startPage)).length, 0);
  const saved = await admin.postMultipart('/backoffice/start-page/', { ...texts, image_alt_en: 'The town hall', image_alt_de: 'Das Rathaus' }, { name: 'image', filename: 'town.png', type: 'image/png', data: png });
  assert.equal(saved.status, 302);
  const home = await new Browser(app).get('/');
  assert.match(home.text, /<h1 id="start-heading">Welcome to Sampletown<\/h1>/);
  assert.match(home.text, /<img class="start-image" src="\/media\/site\/images\/[^"]+" alt="The town hall"/);
  assert.match(home.text, /<h2>Projects<\/h2>/);
  assert.match((await new Browser(app, { 'accept-language': 'de' }).get('/')).text, /Willkommen in Musterstadt[\s\S]*Reden Sie mit/);
  assert.equal((await admin.post('/backoffice/start-page/', { ...texts, image_deleted: 'on' })).status, 302);
  assert.doesNotMatch((await new Browser(app).get('/')).text, /start-image/);
});

test('the contact form: errors beside the fields, the spam check, a rate limit; a message reaches every operator by e-mail', async () => {
  const { app, db } = await world();
  const visitor = new Browser(app);
  const form = await visitor.get('/contact/');
  assert.equal(form.status, 200);
  assert.match(form.text, /altcha-widget/);
  const message = { name: 'Ana', email: 'ana@example.org', subject: 'A question', message: 'How do I start a project?' };
  const wrong = await visitor.post('/contact/', { ...message, email: 'not an address', subject: '', altcha: await solvedChallenge(app) });
  assert.equal(wrong.status, 400);
  assert.match(wrong.text, /id="id_email_errors"/);
  assert.match(wrong.text, /id="id_subject_errors"/);
  const robot = await visitor.post('/contact/', { ...message, altcha: 'forged' });
  assert.equal(robot.status, 400);
  assert.match(robot.text, /spam check was not passed/);
  assert.equal((await visitor.post('/contact/', { ...message, website: 'spam.example' })).status, 302, 'the honeypot: the usual answer');
  assert.equal((await db.select().from(outbox)).length, 0);

  const sent = await visitor.post('/contact/', { ...message, altcha: await solvedChallenge(app) });
  assert.equal(sent.status, 302);
  const mails = await db.select().from(outbox).where(eq(outbox.kind, 'contact_message'));
  assert.deepEqual(mails.map((m) => m.recipient), ['admin@example.org']);
  assert.match(mails[0].subject, /A question/);
  assert.match(mails[0].body, /ana@example\.org[\s\S]*How do I start a project\?/);
  for (let i = 0; i < 4; i++) assert.equal((await visitor.post('/contact/', { ...message, altcha: await solvedChallenge(app) })).status, 302);
  const limited = await visitor.post('/contact/', { ...message, altcha: await solvedChallenge(app) });
  assert.equal(limited.status, 429);
  assert.match(limited.text, /Too many messages/);
});
