import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { budgetVoteCodes } from '../../src/features/budgeting/schema.js';
import { signedIn } from '../manage/world.js';
import { Browser } from '../me/accounts/client.js';
import { assertStatus, budgetApp, BUDGET_MODULES } from '../features/budgeting/world.js';
import { hashLegacyVoteCodes } from '../../src/features/budgeting/ballot-services.js';

/** Issue 36.9: vote codes are stored as keyed hashes; the initiator gets them once, in the answer that makes them. */
const V = BUDGET_MODULES.voting;
const FORM = '/org/dashboard/modules/voting/vote_codes/';
const codesOf = (csv: string) => csv.trim().split(/\r\n/).slice(1);

test('new codes come in the answer that makes them, and the database keeps no readable copy', async () => {
  const { app, db } = await budgetApp();
  const initiator = await signedIn(app, 'initiator');
  assert.match((await initiator.get(FORM)).text, /shown only once/);
  const made = await initiator.post(FORM, { count: '3', format: 'csv' });
  assertStatus(made, 200, 'the codes as a file');
  assert.match(String(made.headers['content-disposition']), /^attachment; filename="vote-codes-voting\.csv"$/);
  assert.equal(made.headers['cache-control'], 'no-store');
  const codes = codesOf(made.text);
  assert.equal(codes.length, 3);
  for (const code of codes) assert.match(code, /^\w{4}-\w{4}-\w{4}-\w{4}$/);

  const stored = JSON.stringify(await db.select().from(budgetVoteCodes));
  for (const code of codes) assert.ok(!stored.includes(code.replace(/-/g, '')), 'no code in the clear');
  assert.equal((await db.select().from(budgetVoteCodes).where(eq(budgetVoteCodes.moduleId, V))).length, 3);
  assertStatus(await initiator.get(`${FORM}codes.csv`), 404, 'no download of old codes');

  const voter = new Browser(app);
  const ballot = await voter.post('/org/budgeting/module/voting/code/', { code: codes[0] });
  assertStatus(ballot, 200, 'a handed-over code opens the ballot');
  assert.match(ballot.text, /name="cast" value="1"/);

  const sheet = await initiator.post(FORM, { count: '2', format: 'html' });
  assertStatus(sheet, 200, 'the printable sheet');
  assert.match(String(sheet.headers['content-disposition']), /^inline;/);
  assert.equal([...sheet.text.matchAll(/class="code">\w{4}-\w{4}-\w{4}-\w{4}</g)].length, 2);
  assert.match(sheet.text, /\/org\/budgeting\/module\/voting\/code\//);
  assert.match((await initiator.get(FORM)).text, /5 codes, 0 of them used\./);
});

test('a bad count or hand-over is a 400 and makes no code', async () => {
  const { app, db } = await budgetApp();
  const initiator = await signedIn(app, 'initiator');
  assertStatus(await initiator.post(FORM, { count: '2', format: 'pdf' }), 400, 'an unknown format');
  assertStatus(await initiator.post(FORM, { count: 'many', format: 'csv' }), 400, 'no number');
  assertStatus(await initiator.post(FORM, { count: '10001' }), 400, 'too many');
  assert.equal((await db.select().from(budgetVoteCodes)).length, 0);
});

test('codes kept in the clear from before are hashed at start, and still vote', async () => {
  const { app, db, config } = await budgetApp();
  await db.insert(budgetVoteCodes).values({ moduleId: V, legacyCode: 'ABCDEFGHJKLMNPQR' });
  assert.equal(await hashLegacyVoteCodes(db, config.secretKey), 1);
  assert.equal(await hashLegacyVoteCodes(db, config.secretKey), 0, 'once');
  const [row] = await db.select().from(budgetVoteCodes);
  assert.equal(row.legacyCode, null);
  assert.match(row.codeHash ?? '', /^[0-9a-f]{64}$/);
  assertStatus(await new Browser(app).post('/org/budgeting/module/voting/code/', { code: 'abcd-efgh-jklm-npqr' }), 200, 'the old code opens the ballot');
});
