import '../../../src/module-types.js';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { modules } from '../../../src/db/schema/index.js';
import { pollQuestions, polls, pollVotes } from '../../../src/features/polls/schema.js';
import { Browser } from '../../me/accounts/client.js';
import { tokenHeader } from '../../fixtures.js';
import { signedIn } from '../../manage/world.js';
import { ballot, pollApp } from './world.js';

test('the module page shows the poll as one form without JavaScript: radio buttons, checkboxes, text fields, and the step script', async () => {
  const { app } = await pollApp();
  const member = await signedIn(app, 'member');
  const page = await member.get('/org/projects/module/poll/');
  assert.equal(page.status, 200);
  assert.match(page.text, /<form method="post" action="\/org\/projects\/module\/poll\/poll\/" class="poll-form"/);
  assert.match(page.text, /type="radio" id="id_q1_1" name="q1" value="1"/);
  assert.match(page.text, /type="checkbox" id="id_q2_4" name="q2" value="4"/);
  assert.match(page.text, /<textarea id="id_q3_open" name="q3_open"/);
  assert.match(page.text, /name="q1_other"/);
  assert.match(page.text, /<script src="\/static\/poll-steps.js" defer/);
  assert.equal((await member.get('/static/poll-steps.js')).status, 200);
  const anonymous = await new Browser(app).get('/org/projects/module/poll/');
  assert.match(anonymous.text, /Please log in to take part in the poll\./);
  assert.doesNotMatch(anonymous.text, /class="poll-form"/);
});

test('a citizen votes through the form; the results show bars, percentages, open and other answers and the participants', async () => {
  const { app, db, request } = await pollApp();
  await request({ method: 'POST', url: '/api/polls/1/vote/', headers: await tokenHeader(db, 5), payload: ballot([3], [4], 'Benches', 'Green') });
  const member = await signedIn(app, 'member');
  const posted = await member.post('/org/projects/module/poll/poll/', { q1: '1', q2: ['4', '5'], q3_open: 'More trees', q1_other: '' });
  assert.equal(posted.status, 302);
  const page = await member.get('/org/projects/module/poll/');
  assert.match(page.text, /Thank you for taking part in the poll\./);
  assert.match(page.text, /<span id="poll-result-1">Red<\/span> <progress max="100" value="50" aria-labelledby="poll-result-1"><\/progress> <span>50 % \(1 vote\)/);
  assert.match(page.text, /value="100" aria-labelledby="poll-result-4"/);
  assert.match(page.text, /<li>More trees<\/li>/);
  assert.match(page.text, /<li>Green<\/li>/);
  assert.match(page.text, /3 questions · 2 participants/);
  // German: the poll in German words, the plural by the language's rules ("1 Stimme").
  const german = (await new Browser(app, { 'accept-language': 'de' }).get('/org/projects/module/poll/')).text;
  for (const words of ['<h2 id="poll-heading">Umfrage</h2>', '>Ergebnisse</h3>', '<summary>Antworten</summary>', '50 % (1 Stimme)', '3 Fragen · 2 Teilnehmende']) assert.ok(german.includes(words), words);
  assert.doesNotMatch(/<section aria-labelledby="poll-heading"[^]*<\/section>/.exec(german)?.[0] ?? '', />(Poll|Results|Answers)</);
  assert.match(page.text, /type="radio" id="id_q1_1" name="q1" value="1" checked/, 'the own answers are filled in');
  const refused = await member.post('/org/projects/module/poll/poll/', { q1: '3', q1_other: '' });
  assert.equal(refused.status, 302);
  assert.match((await member.get('/org/projects/module/poll/')).text, /Please specify your answer\./);
  assert.equal((await db.select().from(pollVotes).where(eq(pollVotes.creatorId, 4))).length, 3, 'the refused ballot changed nothing');
});

test('an unregistered voter votes without JavaScript by the sum; the same browser replaces its ballot', async () => {
  const { app, db } = await pollApp();
  await db.update(polls).set({ allowUnregisteredUsers: true }).where(eq(polls.id, 1));
  const browser = new Browser(app);
  const vote = async (choice: string) => {
    const page = await browser.get('/org/projects/module/poll/');
    const token = /name="challenge_token" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    const [, a, b] = /what is (\d+) plus (\d+)\?/.exec(page.text) ?? [];
    return browser.post('/org/projects/module/poll/poll/', { q1: choice, challenge_token: token, challenge_answer: String(Number(a) + Number(b)), website: '' });
  };
  const withoutSum = await browser.post('/org/projects/module/poll/poll/', { q1: '1' });
  assert.equal(withoutSum.status, 302);
  assert.equal((await db.select().from(pollVotes)).length, 0);
  assert.equal((await vote('1')).status, 302);
  assert.equal((await vote('2')).status, 302);
  const rows = await db.select({ choiceId: pollVotes.choiceId }).from(pollVotes);
  assert.deepEqual(rows, [{ choiceId: 2 }]);
});

test('the dashboard editor: an initiator adds questions, which the publish check needs; a delete that loses votes says how many first', async () => {
  const { app, db, request } = await pollApp();
  const initiator = await signedIn(app, 'initiator');
  assert.equal((await initiator.post('/org/dashboard/projects/draft-plan/blueprints/poll/', {})).status, 302);
  const [module] = await db.select().from(modules).where(eq(modules.projectId, 2));
  const base = `/org/dashboard/modules/${module.slug}`;
  assert.match((await initiator.get(`${base}/module_basic/`)).text, new RegExp(`href="${base}/polls/">[^<]*At least one question`));
  const editor = await initiator.get(`${base}/polls/`);
  assert.equal(editor.status, 200);
  assert.match(editor.text, /id="id_q0_label"/);
  const saved = await initiator.post(`${base}/polls/`, { questions: '1', q0_label: 'Which colour?', q0_kind: 'single', q0_position: '1', q0_choices: '3', q0_c0_label: 'Red', q0_c1_label: 'Blue', q0_c2_label: 'Other', q0_other: '2' });
  assert.equal(saved.status, 302, saved.text);
  assert.doesNotMatch((await initiator.get(`${base}/module_basic/`)).text, /At least one question/);
  const [poll] = await db.select().from(polls).where(eq(polls.moduleId, module.id));
  assert.equal(poll.creatorId, 2);

  // The running poll 1: a vote on Red, then Red's deletion.
  await request({ method: 'POST', url: '/api/polls/1/vote/', headers: await tokenHeader(db, 4), payload: ballot([1], [4]) });
  const form = await initiator.get('/org/dashboard/modules/poll/polls/');
  assert.match(form.text, /<span class="help"> 1 vote<\/span>/);
  assert.match(form.text, /This question has 1 vote or answer; deleting the question deletes it\./);
  const fields = { questions: '3', q0_id: '1', q0_label: 'Which colour?', q0_kind: 'single', q0_position: '1', q0_choices: '3', q0_c0_id: '1', q0_c0_label: '', q0_c1_id: '2', q0_c1_label: 'Blue', q0_c2_id: '3', q0_c2_label: 'Other', q0_other: '2', q1_id: '2', q1_label: 'Which days?', q1_kind: 'multiple', q1_position: '2', q1_choices: '2', q1_c0_id: '4', q1_c0_label: 'Monday', q1_c1_id: '5', q1_c1_label: 'Friday', q2_id: '3', q2_label: 'Anything else now?', q2_kind: 'open', q2_position: '0' };
  const asked = await initiator.post('/org/dashboard/modules/poll/polls/', fields);
  assert.equal(asked.status, 400);
  assert.match(asked.text, /The choice &quot;Red&quot; has votes \(1\): deleting it would lose them\./);
  assert.match(asked.text, /id="id_confirm_delete"/);
  const switched = await initiator.post('/org/dashboard/modules/poll/polls/', { ...fields, q0_c0_label: 'Red', q1_kind: 'single' });
  assert.equal(switched.status, 400);
  assert.match(switched.text, /has votes \(1\): switching between single and multiple choice/);
  const confirmed = await initiator.post('/org/dashboard/modules/poll/polls/', { ...fields, confirm_delete: 'on' });
  assert.equal(confirmed.status, 302);
  const questions = await db.select({ id: pollQuestions.id, label: pollQuestions.label }).from(pollQuestions).where(eq(pollQuestions.pollId, 1)).orderBy(pollQuestions.weight);
  assert.deepEqual(questions.map((q) => q.label), ['Anything else now?', 'Which colour?', 'Which days?'], 'reordered by position');
  assert.equal((await db.select().from(pollVotes)).length, 1, 'the vote on Red went with it; the one on Monday stays');
  const moderator = await signedIn(app, 'moderator');
  assert.notEqual((await moderator.post('/org/dashboard/modules/poll/polls/', fields)).status, 302, 'moderators cannot edit polls');
});

test('the export has one row per voter with the columns of adhocracy4', async () => {
  const { app, db, request } = await pollApp();
  await db.update(polls).set({ allowUnregisteredUsers: true }).where(eq(polls.id, 1));
  await request({ method: 'POST', url: '/api/polls/1/vote/', headers: await tokenHeader(db, 4), payload: ballot([3], [4, 5], 'More trees', 'Green') });
  await request({ method: 'POST', url: '/api/polls/1/vote/', headers: await tokenHeader(db, 5), payload: ballot([1], [], '') });
  const initiator = await signedIn(app, 'initiator');
  const csv = await initiator.download('/org/dashboard/modules/poll/export/poll.csv');
  assert.equal(csv.status, 200);
  const lines = csv.body.toString('utf8').trim().split(/\r?\n/);
  assert.equal(lines[0], 'Voter ID,(q3) Anything else?,(q1)Which colour? - (c1) Red,(q1)Which colour? - (c2) Blue,(q1)Which colour? - (c3) Other,(q1)Which colour? - Other (specify),(q2)Which days? - (c4) Monday,(q2)Which days? - (c5) Friday,Address group');
  assert.deepEqual(lines.slice(1).sort(), ['1,More trees,0,0,1,Green,1,1,', '2,,1,0,0,,0,0,']);
});

test("the dashboard's question editor sets, keeps and removes a question's image with its alternative text (issue 36.10)", async () => {
  const { app, db, config } = await pollApp();
  const initiator = await signedIn(app, 'initiator');
  const form = await initiator.get('/org/dashboard/modules/poll/polls/');
  assert.match(form.text, /enctype="multipart\/form-data"/);
  assert.match(form.text, /<input type="file" id="id_q0_image" name="q0_image"/);
  const fields = { questions: '1', q0_id: '1', q0_label: 'Which colour?', q0_kind: 'single', q0_position: '1', q0_choices: '3', q0_c0_id: '1', q0_c0_label: 'Red', q0_c1_id: '2', q0_c1_label: 'Blue', q0_c2_id: '3', q0_c2_label: 'Other', q0_other: '2', q1_id: '2', q1_label: 'Which days?', q1_kind: 'multiple', q1_position: '2', q1_choices: '2', q1_c0_id: '4', q1_c0_label: 'Monday', q1_c1_id: '5', q1_c1_label: 'Friday', q2_id: '3', q2_label: 'Anything else?', q2_kind: 'open', q2_position: '3' };
  const all = { ...fields, questions: '3' };
  const image = async (width: number, height: number) => ({ name: 'q0_image', filename: 'q.png', type: 'image/png', data: await sharp({ create: { width, height, channels: 3, background: '#3a7' } }).png().toBuffer() });
  const stored = async () => (await db.select({ image: pollQuestions.image, alt: pollQuestions.imageAltText }).from(pollQuestions).where(eq(pollQuestions.id, 1)))[0];

  const small = await initiator.postMultipart('/org/dashboard/modules/poll/polls/', { ...all, q0_image_alt_text: 'Colours' }, await image(800, 300));
  assert.equal(small.status, 400);
  assert.match(small.text, /id="id_q0_image_errors"[^>]*><li>Image must be at least 1500 pixels wide and 500 pixels tall\./);
  const noAlt = await initiator.postMultipart('/org/dashboard/modules/poll/polls/', all, await image(1500, 500));
  assert.equal(noAlt.status, 400);
  assert.match(noAlt.text, /id="id_q0_image_alt_text_errors"[^>]*><li>Please add an alternative text for the image\./);
  assert.equal((await stored()).image, null, 'a refused form stores nothing');

  assert.equal((await initiator.postMultipart('/org/dashboard/modules/poll/polls/', { ...all, q0_image_alt_text: 'Colours' }, await image(1500, 500))).status, 302);
  const saved = await stored();
  assert.match(saved.image ?? '', /^polls\/images\//);
  assert.equal(saved.alt, 'Colours');
  const file = join(config.dataDir, 'media', saved.image ?? '');
  assert.ok(existsSync(file));
  assert.match((await initiator.get('/org/dashboard/modules/poll/polls/')).text, /id="id_q0_image_alt_text" name="q0_image_alt_text" value="Colours"/);
  assert.equal((await initiator.postMultipart('/org/dashboard/modules/poll/polls/', { ...all, q0_image_alt_text: 'Colours' })).status, 302, 'saved again without a file');
  assert.equal((await stored()).image, saved.image, 'the image stays');
  assert.equal((await initiator.postMultipart('/org/dashboard/modules/poll/polls/', { ...all, q0_image_clear: 'on' })).status, 302);
  assert.equal((await stored()).image, null);
  assert.equal(existsSync(file), false, 'the file no row names is removed');
});
