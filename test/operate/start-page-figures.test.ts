import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from 'sharp';
import { startPageFigures } from '../../src/db/schema/index.js';
import { operatorWorld } from './operator.js';
import { Browser } from '../me/accounts/client.js';

const world = operatorWorld;

const empty = { figure_en: '', figure_de: '', caption_en: '', caption_de: '', quote_en: '', quote_de: '', person_name: '', person_description_en: '', person_description_de: '', image_alt_en: '', image_alt_de: '', weight: '0' };
const png = () => sharp({ create: { width: 300, height: 200, channels: 3, background: '#3a7' } }).png().toBuffer();

test('the operator adds figures in the back-office: a number, a testimonial and a picture, shown on the start page in order and in the reader’s language', async () => {
  const { app, admin } = await world();
  assert.doesNotMatch((await new Browser(app).get('/')).text, /start-figures/, 'no figures: nothing shown');
  assert.equal((await admin.get('/backoffice/start-page/figures/create/')).status, 200);
  const created = [
    await admin.postMultipart('/backoffice/start-page/figures/create/', { ...empty, kind: 'number', figure_en: '12,000', figure_de: '12.000', caption_en: 'participants', caption_de: 'Beteiligte', weight: '1' }),
    await admin.postMultipart('/backoffice/start-page/figures/create/', { ...empty, kind: 'testimonial', quote_en: 'It works.', quote_de: 'Es klappt.', person_name: 'Ana', person_description_de: 'Bürgermeisterin', weight: '2' }),
    await admin.postMultipart('/backoffice/start-page/figures/create/', { ...empty, kind: 'picture', image_alt_en: 'A meeting', image_alt_de: 'Eine Versammlung', weight: '0' }, { name: 'image', filename: 'p.png', type: 'image/png', data: await png() }),
  ];
  assert.deepEqual(created.map((r) => r.status), [302, 302, 302]);
  const list = await admin.get('/backoffice/start-page/figures/');
  assert.match(list.text, /A meeting[\s\S]*12,000[\s\S]*Ana: It works\./, 'listed in order of position');

  const german = (await new Browser(app, { 'accept-language': 'de' }).get('/')).text;
  assert.match(german, /<section class="start-figures" aria-label="In Zahlen">/);
  assert.match(german, /<img src="\/media\/site\/figures\/[^"]+" alt="Eine Versammlung"\/>[\s\S]*12\.000[\s\S]*Beteiligte[\s\S]*Es klappt\.[\s\S]*Ana, Bürgermeisterin/);
});

test('a figure is changed and deleted; its picture goes with it', async () => {
  const { app, db, admin } = await world();
  await admin.postMultipart('/backoffice/start-page/figures/create/', { ...empty, kind: 'picture', image_alt_en: 'A', image_alt_de: 'B' }, { name: 'image', filename: 'p.png', type: 'image/png', data: await png() });
  const [figure] = await db.select().from(startPageFigures);
  assert.match(figure.image ?? '', /^site\/figures\//);
  assert.equal((await admin.get(`/backoffice/start-page/figures/${figure.id}/`)).status, 200);
  assert.equal((await admin.postMultipart(`/backoffice/start-page/figures/${figure.id}/`, { ...empty, kind: 'picture', image_alt_en: 'C', image_alt_de: 'D' })).status, 302, 'the stored picture stays');
  assert.equal((await db.select().from(startPageFigures))[0].imageAltEn, 'C');
  assert.equal((await app.inject({ method: 'GET', url: `/media/${figure.image}` })).statusCode, 200);
  assert.equal((await admin.post(`/backoffice/start-page/figures/${figure.id}/delete/`, {})).status, 302);
  assert.equal(await db.$count(startPageFigures), 0);
  assert.equal((await app.inject({ method: 'GET', url: `/media/${figure.image}` })).statusCode, 404);
  assert.equal((await admin.get(`/backoffice/start-page/figures/${figure.id}/`)).status, 404);
  assert.equal((await admin.post(`/backoffice/start-page/figures/${figure.id}/delete/`, {})).status, 404);
});

test('a wrong figure comes back with its errors beside the fields, nothing saved; only superusers reach the figures', async () => {
  const { app, db, admin } = await world();
  const cases: [Record<string, string>, string[]][] = [
    [{ ...empty, kind: 'number' }, ['figure_en']],
    [{ ...empty, kind: 'testimonial' }, ['quote_en', 'person_name']],
    [{ ...empty, kind: 'picture' }, ['image', 'image_alt_en', 'image_alt_de']],
    [{ ...empty, kind: 'chart', weight: 'x' }, ['kind', 'weight']],
    [{ ...empty, kind: 'number', figure_en: 'x'.repeat(201) }, ['figure_en']],
  ];
  for (const [form, fields] of cases) {
    const refused = await admin.postMultipart('/backoffice/start-page/figures/create/', form);
    assert.equal(refused.status, 400, JSON.stringify(form));
    for (const name of fields) assert.match(refused.text, new RegExp(`id="id_${name}_errors"`), name);
  }
  const notAnImage = await admin.postMultipart('/backoffice/start-page/figures/create/', { ...empty, kind: 'picture', image_alt_en: 'A', image_alt_de: 'B' }, { name: 'image', filename: 'x.png', type: 'image/png', data: Buffer.from('no picture') });
  assert.equal(notAnImage.status, 400);
  assert.match(notAnImage.text, /id="id_image_errors"/);
  assert.equal(await db.$count(startPageFigures), 0);

  const initiator = new Browser(app);
  await initiator.login('initiator', 'initiator-password');
  assert.equal((await initiator.get('/backoffice/start-page/figures/')).status, 403);
  assert.equal((await initiator.postMultipart('/backoffice/start-page/figures/create/', { ...empty, kind: 'number', figure_en: '1' })).status, 403);
  assert.equal((await new Browser(app).get('/backoffice/start-page/figures/')).status, 302);
});
