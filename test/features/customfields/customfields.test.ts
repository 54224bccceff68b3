import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { modules } from '../../../src/db/schema/index.js';
import { customFieldAnswers, customFieldChoices, customFields } from '../../../src/features/customfields/schema.js';
import { ideas } from '../../../src/features/ideas/schema.js';
import { tokenHeader } from '../../fixtures.js';
import { dashboardApp, signedIn } from '../../manage/world.js';

type Json = Record<string, unknown>;

/** Module 1 of organisation 1 (Brainstorming, collecting now) and its dashboard address, with the initiator signed in. */
async function world() {
  const t = await dashboardApp();
  const [module] = await t.db.select().from(modules).where(eq(modules.id, 1));
  const initiator = await signedIn(t.app, 'initiator');
  return { ...t, initiator, module, base: `/org/dashboard/modules/${module.slug}/custom_fields/` };
}

/** The initiator adds two questions: "Your district" (choice, required) and "Why?" (text, optional); answers their ids. */
async function withQuestions(w: Awaited<ReturnType<typeof world>>) {
  assert.equal((await w.initiator.post(w.base, { 'new-label': 'Your district', 'new-kind': 'choice', 'new-choices': 'North\nSouth\n\nNorth', 'new-required': 'on', 'new-weight': '1' })).status, 302);
  assert.equal((await w.initiator.post(w.base, { ...(await storedForm(w)), 'new-label': 'Why?', 'new-kind': 'text', 'new-weight': '2' })).status, 302);
  const fields = await w.db.select().from(customFields).where(eq(customFields.moduleId, 1)).orderBy(customFields.weight);
  const choices = await w.db.select().from(customFieldChoices).orderBy(customFieldChoices.weight);
  return { district: fields[0].id, why: fields[1].id, north: choices[0].id, south: choices[1].id };
}

/** The dashboard form's stored values as a browser would post them again. */
async function storedForm(w: Awaited<ReturnType<typeof world>>) {
  const html = (await w.initiator.get(w.base)).text;
  const values: Record<string, string> = {};
  for (const [, name, value] of html.matchAll(/<input[^>]*name="(field-\d+-(?:label|help_text|weight))"[^>]*value="([^"]*)"/g)) values[name] = value;
  for (const [, name] of html.matchAll(/<input type="checkbox" id="[^"]*" name="(field-\d+-required)" checked/g)) values[name] = 'on';
  for (const [, name, value] of html.matchAll(/<select id="[^"]*" name="(field-\d+-kind)"[\s\S]*?<option value="(\w+)" selected/g)) values[name] = value;
  for (const [, name, value] of html.matchAll(/<textarea id="[^"]*" name="(field-\d+-choices)"[^>]*>([^<]*)<\/textarea>/g)) values[name] = value;
  return values;
}

test('an initiator adds questions to the idea form on the dashboard; a wrong one comes back with its error beside the field and nothing is saved', async () => {
  const w = await world();
  const form = await w.initiator.get(w.base);
  assert.equal(form.status, 200);
  assert.match(form.text, /<legend>New question<\/legend>/);

  const refused = await w.initiator.post(w.base, { 'new-label': 'Pick one', 'new-kind': 'choice', 'new-choices': 'Only', 'new-weight': 'first' });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /id="id_new-choices_errors"[^>]*>[\s\S]*?at least two choices/);
  assert.match(refused.text, /id="id_new-weight_errors"[^>]*>[\s\S]*?whole number/);
  assert.match(refused.text, /value="Pick one"/, 'the value is kept in the form');
  assert.equal((await w.db.select().from(customFields)).length, 0);

  const ids = await withQuestions(w);
  const stored = await w.db.select().from(customFieldChoices).where(eq(customFieldChoices.fieldId, ids.district));
  assert.deepEqual(stored.map((c) => c.label), ['North', 'South'], 'blank and repeated lines dropped');
  assert.match((await w.initiator.get(w.base)).text, /<legend>Question 2<\/legend>/);

  // Another organisation's initiator, a moderator and a plain user cannot see or change the questions.
  for (const name of ['other', 'moderator', 'user']) {
    const browser = await signedIn(w.app, name);
    assert.ok([403, 404].includes((await browser.get(w.base)).status), name);
    assert.ok([403, 404].includes((await browser.post(w.base, { 'new-label': 'Sneaky', 'new-kind': 'text' })).status), name);
  }
  assert.equal((await w.db.select().from(customFields)).length, 2);
});

test('a participant answers the questions with the idea: a missing required answer or a foreign choice comes back beside its field, nothing half-saved; the answers show on the idea page, filter the list and are exported', async () => {
  const w = await world();
  const ids = await withQuestions(w);
  const user = await signedIn(w.app, 'user');
  const create = `/org/ideas/create/module/${w.module.slug}/`;
  const page = await user.get(create);
  assert.match(page.text, /<label for="id_custom_\d+">Your district \*<\/label>/);
  assert.match(page.text, /<textarea id="id_custom_\d+" name="custom_\d+"/);

  const idea = { name: 'Benches', description: 'More benches', category: '1' };
  const missing = await user.post(create, { ...idea, [`custom_${ids.why}`]: 'Tired legs' });
  assert.equal(missing.status, 400);
  assert.match(missing.text, new RegExp(`id="id_custom_${ids.district}_errors"[^>]*>[\\s\\S]*?This field is required`));
  assert.match(missing.text, />Tired legs<\/textarea>/, 'the other answer is kept');
  const foreign = await user.post(create, { ...idea, [`custom_${ids.district}`]: '999' });
  assert.equal(foreign.status, 400);
  assert.match(foreign.text, /Select a valid choice/);
  assert.equal((await w.db.select().from(ideas)).length, 0, 'no idea without its answers');

  const saved = await user.post(create, { ...idea, [`custom_${ids.district}`]: String(ids.south), [`custom_${ids.why}`]: 'Tired legs' });
  assert.equal(saved.status, 302);
  const shown = await user.get(String(saved.location));
  assert.match(shown.text, /<dt>Your district<\/dt><dd>South<\/dd><dt>Why\?<\/dt><dd>Tired legs<\/dd>/);
  await user.post(create, { name: 'Trees', description: 'Shade', category: '1', [`custom_${ids.district}`]: String(ids.north) });

  const list = `/org/projects/module/${w.module.slug}/`;
  assert.match((await user.get(list)).text, /<optgroup label="Your district"><option value="\d+">North<\/option><option value="\d+">South<\/option><\/optgroup>/);
  const south = (await user.get(`${list}?answer=${ids.south}`)).text;
  assert.match(south, /Benches/);
  assert.doesNotMatch(south, />Trees</);
  assert.match(south, new RegExp(`<option value="${ids.south}" selected>South`));

  // The edit form shows the stored answers; an edit changes them (an empty optional answer removes it).
  const edit = `${String(saved.location)}update/`;
  assert.match((await user.get(edit)).text, new RegExp(`<option value="${ids.south}" selected>South`));
  assert.equal((await user.post(edit, { ...idea, [`custom_${ids.district}`]: String(ids.north), [`custom_${ids.why}`]: '' })).status, 302);
  const answers = await w.db.select().from(customFieldAnswers).orderBy(customFieldAnswers.objectPk);
  assert.deepEqual(answers.map((a) => [a.fieldId, a.choiceId, a.value]), [[ids.district, ids.north, ''], [ids.district, ids.north, '']]);

  const csv = (await w.initiator.download(`/org/dashboard/modules/${w.module.slug}/export/ideas.csv`)).body.toString('utf8');
  assert.match(csv.split('\n')[0], /Remark,Your district,Why\?/);
  assert.match(csv, /Benches[^\n]*,North,/);
});

test('the app API shows every idea’s answers and takes them as custom_<id>: errors per question, 400 never 500, PATCH changes only what it sends', async () => {
  const w = await world();
  const ids = await withQuestions(w);
  const auth = await tokenHeader(w.db, 5);
  const post = (payload: Json) => w.request({ method: 'POST', url: '/api/modules/1/ideas/', headers: auth, payload });
  const base = { name: 'Lights', description: 'Street lights', category: 1 };

  const missing = await post(base);
  assert.equal(missing.status, 400);
  assert.deepEqual(missing.body, { [`custom_${ids.district}`]: ['This field is required.'] });
  assert.equal((await post({ ...base, [`custom_${ids.district}`]: ids.south + 1000 })).status, 400);
  assert.equal((await post({ ...base, [`custom_${ids.district}`]: { nested: true } })).status, 400);
  assert.equal((await post({ ...base, [`custom_${ids.why}`]: 'x'.repeat(1001), [`custom_${ids.district}`]: ids.north })).status, 400);

  const created = await post({ ...base, [`custom_${ids.district}`]: ids.north, [`custom_${ids.why}`]: 'Dark at night' });
  assert.equal(created.status, 201);
  const body = created.body as { pk: number; custom_fields: Json[] };
  assert.deepEqual(body.custom_fields, [
    { id: ids.district, question: 'Your district', kind: 'choice', answer: 'North', choice: ids.north },
    { id: ids.why, question: 'Why?', kind: 'text', answer: 'Dark at night', choice: null },
  ]);
  const patched = await w.request({ method: 'PATCH', url: `/api/modules/1/ideas/${body.pk}/`, headers: auth, payload: { [`custom_${ids.district}`]: String(ids.south) } });
  assert.equal(patched.status, 200);
  assert.deepEqual((patched.body as { custom_fields: Json[] }).custom_fields.map((a) => a.answer), ['South', 'Dark at night']);
  const list = await w.request({ url: '/api/modules/1/ideas/' });
  assert.deepEqual((list.body as { custom_fields: Json[] }[])[0].custom_fields.map((a) => a.answer), ['South', 'Dark at night']);

  // Removing a question removes its answers; the idea keeps the others.
  const form = await storedForm(w);
  assert.equal((await w.initiator.post(w.base, { ...form, [`field-${ids.why}-delete`]: 'on' })).status, 302);
  const after = await w.request({ url: `/api/modules/1/ideas/${body.pk}/` });
  assert.deepEqual((after.body as { custom_fields: Json[] }).custom_fields.map((a) => a.question), ['Your district']);
  assert.equal((await w.db.select().from(customFieldAnswers)).length, 1);

  // Deleting the idea deletes its answers.
  assert.equal((await w.request({ method: 'DELETE', url: `/api/modules/1/ideas/${body.pk}/`, headers: auth })).status, 204);
  assert.equal((await w.db.select().from(customFieldAnswers)).length, 0);
});
