import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { organisations, users } from '../../../src/db/schema/index.js';
import { ideas } from '../../../src/features/ideas/schema.js';
import { Browser } from '../../me/accounts/client.js';
import { dashboardApp, dashboardWorld, signedIn } from '../../manage/world.js';

/** What Chromium's editor sends for "First paragraph ⏎ Second paragraph ⏎⏎ Third" without defaultParagraphSeparator. */
const CHROMIUM = 'First paragraph<div>Second paragraph</div><div><br></div><div>Third</div>';

async function world() {
  const base = dashboardWorld();
  return dashboardApp({ ...base, ideas: [{ id: 1, module: 1, creator: 5, name: 'Legacy', description: 'x', category: 1, created: '2026-03-01T10:00:00Z' }] });
}

test("the editor's blocks become paragraphs: an idea keeps them on its page and in the export", async () => {
  const { app, db } = await world();
  const user = await signedIn(app, 'user');
  const created = await user.postMultipart('/org/ideas/create/module/module-1/', { name: 'Three paragraphs', description: CHROMIUM, category: '1' });
  assert.equal(created.status, 302);
  const [idea] = await db.select().from(ideas).where(eq(ideas.name, 'Three paragraphs'));
  assert.equal(idea.description, '<p>First paragraph</p><p>Second paragraph</p><p><br /></p><p>Third</p>');
  assert.match((await user.get(created.location ?? '')).text, /<div class="rich-text"><p>First paragraph<\/p><p>Second paragraph<\/p>/);

  const initiator = await signedIn(app, 'initiator');
  const sheet = (await initiator.download('/org/dashboard/modules/module-1/export/ideas.xlsx')).body;
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.read(Readable.from([sheet]));
  const cells: string[] = [];
  workbook.worksheets[0].eachRow((row) => cells.push(String((row.values as unknown[])[4] ?? '')));
  assert.ok(cells.includes('First paragraph\n\nSecond paragraph\n\nThird'), JSON.stringify(cells));
});

test("plain text typed into a rich-text field keeps its lines (an imprint address); the fields have the editor; a bio keeps its line breaks", async () => {
  const { app, db } = await world();
  const initiator = await signedIn(app, 'initiator');
  const form = await initiator.get('/org/dashboard/settings/legal-information/');
  assert.match(form.text, /<textarea id="id_imprint" name="imprint"[^>]*data-rich-text=/);
  assert.match(form.text, /<script src="\/static\/(?:v\/[0-9a-f]+\/)?richtext.js"/);
  for (const path of ['/org/dashboard/projects/project/information/', '/org/dashboard/projects/project/result/', '/org/dashboard/communication/newsletters/create/', '/org/dashboard/settings/']) {
    assert.match((await initiator.get(path)).text, /data-rich-text=/, path);
  }
  const saved = await initiator.post('/org/dashboard/settings/legal-information/', { imprint: 'Stadt Grünau\nRathausplatz 1\n12345 Grünau\n\nVertreten durch die Bürgermeisterin', terms_of_use: '', data_protection: '', netiquette: '' });
  assert.equal(saved.status, 302);
  const [org] = await db.select({ imprint: organisations.imprint }).from(organisations).where(eq(organisations.id, 1));
  assert.equal(org.imprint, '<p>Stadt Grünau<br />Rathausplatz 1<br />12345 Grünau</p><p>Vertreten durch die Bürgermeisterin</p>');
  assert.match((await new Browser(app).get('/org/imprint/')).text, /Stadt Grünau<br \/>Rathausplatz 1<br \/>12345 Grünau/);

  await db.update(users).set({ bio: 'Gardener\nCyclist' }).where(eq(users.id, 5));
  assert.match((await new Browser(app).get('/profile/user/')).text, /<p class="pre-line">Gardener\nCyclist<\/p>/);
});

test('the data migration gives stored plain text its paragraphs and leaves paragraphs alone', async () => {
  const { db } = await world();
  await db.update(ideas).set({ description: 'Line one\nline two\n\nSecond paragraph', moderatorFeedbackText: '<p>Already</p>\n<p>fine</p>' }).where(eq(ideas.id, 1));
  await db.update(organisations).set({ imprint: 'City hall<br /><br />Main street' }).where(eq(organisations.id, 1));
  const migration = readFileSync('src/db/migrations/0020_paragraphs_data.sql', 'utf8');
  for (const statement of migration.split('--> statement-breakpoint')) await db.execute(sql.raw(statement));
  const [idea] = await db.select().from(ideas).where(eq(ideas.id, 1));
  assert.equal(idea.description, '<p>Line one<br>line two</p><p>Second paragraph</p>');
  assert.equal(idea.moderatorFeedbackText, '<p>Already</p>\n<p>fine</p>');
  const [org] = await db.select({ imprint: organisations.imprint }).from(organisations).where(eq(organisations.id, 1));
  assert.equal(org.imprint, '<p>City hall</p><p>Main street</p>');
});
