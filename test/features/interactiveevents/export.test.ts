import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import { users } from '../../../src/db/schema/index.js';
import { liveQuestionLikes } from '../../../src/features/interactiveevents/schema.js';
import { createTestApp } from '../../helpers.js';
import { load } from '../../fixtures.js';
import { Browser } from '../../me/accounts/client.js';
import { eventWorld } from './world.js';

const EXPORT = '/org/dashboard/modules/town-hall/export/';

async function signedIn(app: Awaited<ReturnType<typeof createTestApp>>['app'], username: string) {
  const browser = new Browser(app);
  assert.equal((await browser.login(username, `${username}-password`)).status, 302);
  return browser;
}

test("an event's questions go into the minutes: xlsx and CSV with affiliation, likes, the moderation's flags and the time, for moderators and initiators only", async () => {
  const { app, db } = await createTestApp();
  const world = eventWorld();
  await load(db, { ...world, live_questions: (world.live_questions ?? []).map((q) => Object.assign({}, q, { created: '2026-03-02T10:00:00Z' })) });
  await db.insert(liveQuestionLikes).values([
    { session: 'a', liveQuestionId: 1 },
    { session: 'b', liveQuestionId: 1 },
  ]);

  // The dashboard menu and the module page lead to the export.
  const initiator = await signedIn(app, 'initiator');
  assert.ok((await initiator.get('/org/dashboard/modules/town-hall/module_basic/')).text.includes(`href="${EXPORT}"`));
  const page = await initiator.get(EXPORT);
  assert.equal(page.status, 200);
  assert.ok(page.text.includes(`href="${EXPORT}questions.xlsx"`) && page.text.includes(`href="${EXPORT}questions.csv"`));
  assert.ok((await initiator.get('/org/projects/module/town-hall/')).text.includes(`href="${EXPORT}"`), 'the module page links it for staff');

  const csv = (await (await signedIn(app, 'moderator')).download(`${EXPORT}questions.csv`)).body.toString('utf8').slice(1).trimEnd().split('\r\n');
  assert.deepEqual(csv, [
    'ID,Question,Affiliation,Likes,Answered,Shortlist,Hidden,Created',
    '1,Will the park stay open?,Residents,2,No,No,No,2026-03-02T11:00:00+01:00',
    '2,Hidden question,Press,0,No,No,Yes,2026-03-02T11:00:00+01:00',
  ]);

  for (const [username, status] of [['admin', 200], ['member', 403], ['user', 403], ['other', 403]] as const) {
    assert.equal((await (await signedIn(app, username)).download(`${EXPORT}questions.csv`)).status, status, username);
  }
  assert.equal((await new Browser(app).download(`${EXPORT}questions.csv`)).status, 302, 'visitors are sent to log in');

  // In German: the sheet, its headings and the flags.
  await db.update(users).set({ language: 'de' }).where(eq(users.username, 'initiator'));
  const german = await signedIn(app, 'initiator');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.read(Readable.from([(await german.download(`${EXPORT}questions.xlsx`)).body]));
  const sheet = workbook.worksheets[0];
  assert.equal(sheet.name, 'Fragen');
  assert.deepEqual((sheet.getRow(1).values as unknown[]).slice(1), ['ID', 'Frage', 'Zugehörigkeit', 'Unterstützungen', 'Beantwortet', 'Auswahlliste', 'Ausgeblendet', 'Erstellt']);
  assert.deepEqual((sheet.getRow(2).values as unknown[]).slice(1), [1, 'Will the park stay open?', 'Residents', 2, 'Nein', 'Nein', 'Nein', '2026-03-02T11:00:00+01:00']);
});
