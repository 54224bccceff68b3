import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { comments, organisations, organisationTermsAgreements } from '../../src/db/schema/index.js';
import { ideas } from '../../src/features/ideas/schema.js';
import { organisationTermsAsked, organisationTermsError } from '../../src/core/organisations/rules.js';
import { Browser } from '../me/accounts/client.js';
import { basicWorld, daysFromNow, load, tokenHeader } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

// Organisation 1 has written terms of use; organisation 2 has none (nobody is asked there).
const t = await createTestApp();
const world = basicWorld();
await load(t.db, {
  ...world,
  organisations: [...(world.organisations ?? []), { id: 2, slug: 'plain', name: 'Plain organisation' }],
  projects: [...(world.projects ?? []), { id: 2, slug: 'plain-project', name: 'Plain project', organisation: 2 }],
  modules: [...(world.modules ?? []).map((m) => ({ ...m, slug: 'ideas-module' })), { id: 2, slug: 'plain-module', project: 2, name: 'Plain ideas', phases: [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(10) }] }],
  ideas: [
    { id: 1, module: 1, creator: 6, name: 'Trees', description: 'More trees' },
    { id: 2, module: 2, creator: 6, name: 'Benches', description: 'More benches' },
  ],
  polls: [{ id: 1, module: 1, creator: 2 }],
  comments: [{ id: 100, creator: 6, target: { type: 'poll', id: 1 }, comment: 'On the poll' }],
});
await t.db.update(organisations).set({ termsOfUse: '<p>Be kind.</p>' }).where(eq(organisations.id, 1));
const [tree] = await t.db.select().from(ideas).where(eq(ideas.id, 1));
const TREE = `/org/ideas/${tree.created.getUTCFullYear()}-00001/`;
const BENCH = `/plain/ideas/${tree.created.getUTCFullYear()}-00002/`;
const CREATE = '/org/ideas/create/module/ideas-module/';

async function as(username: string, headers: Record<string, string> = {}) {
  const browser = new Browser(t.app, headers);
  assert.equal((await browser.login(username, `${username}-password`)).status, 302);
  return browser;
}

const agreed = async (userId: number, organisationId = 1) =>
  (await t.db.select().from(organisationTermsAgreements).where(and(eq(organisationTermsAgreements.userId, userId), eq(organisationTermsAgreements.organisationId, organisationId)))).length === 1;

test("the idea form asks for the organisation's terms of use once: refused without the box, values kept, then never again", async () => {
  const user = await as('user');
  const form = await user.get(CREATE);
  assert.match(form.text, /name="organisation_terms_of_use"[^>]*required/);
  assert.match(form.text, /<a href="\/org\/terms-of-use\/"[^>]*>terms of use<\/a>/);

  const refused = await user.postMultipart(CREATE, { name: 'Fountains', description: 'Cool water', category: '1' });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /id="id_organisation_terms_of_use_errors"[^>]*><li>Please agree to the organisation's terms of use\./);
  assert.match(refused.text, /value="Fountains"/);
  assert.equal(await agreed(5), false);
  assert.equal((await t.db.select().from(ideas).where(eq(ideas.name, 'Fountains'))).length, 0);

  const created = await user.postMultipart(CREATE, { name: 'Fountains', description: 'Cool water', category: '1', organisation_terms_of_use: 'on' });
  assert.equal(created.status, 302);
  assert.equal(await agreed(5), true);
  assert.doesNotMatch((await user.get(CREATE)).text, /organisation_terms_of_use/, 'asked only once');
  assert.doesNotMatch((await user.get(TREE)).text, /organisation_terms_of_use/, 'the comment form does not ask either');
});

test("the comment and reply forms ask for the terms too; the text comes back with the error, in German as well", async () => {
  const member = await as('member');
  await member.post('/i18n/setlang/', { language: 'de', next: TREE });
  const page = await member.get(TREE);
  assert.match(page.text, /id="id_comment_idea_1_terms"[^>]*required/);
  assert.match(page.text, /Ja, ich habe die <a href="\/org\/terms-of-use\/"[^>]*>Nutzungsbedingungen<\/a> dieser Organisation gelesen/);

  const refused = await member.post('/comments/on/idea/1/', { comment: 'Oaks, please' });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /Bitte stimmen Sie den Nutzungsbedingungen der Organisation zu\./);
  assert.match(refused.text, /Oaks, please<\/textarea>/);
  assert.equal((await t.db.select().from(comments).where(eq(comments.comment, 'Oaks, please'))).length, 0);

  const posted = await member.post('/comments/on/idea/1/', { comment: 'Oaks, please', organisation_terms_of_use: 'on' });
  assert.equal(posted.status, 302);
  assert.equal(await agreed(4), true);
  const [comment] = await t.db.select().from(comments).where(eq(comments.comment, 'Oaks, please'));
  assert.equal((await member.post(`/comments/${comment.id}/reply/`, { comment: 'And beeches' })).status, 302, 'agreed once, the reply is not asked');
});

test('a reply without the box is refused while the user has not agreed; an organisation without terms asks nobody', async () => {
  const other = await as('other');
  const [comment] = await t.db.insert(comments).values({ creatorId: 3, contentType: 'idea', objectPk: 1, comment: 'Which trees?' }).returning();
  const refused = await other.post(`/comments/${comment.id}/reply/`, { comment: 'Lindens' });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /id="id_organisation_terms_of_use"/);
  assert.match(refused.text, /Lindens<\/textarea>/);

  const plain = await other.get(BENCH);
  assert.doesNotMatch(plain.text, /organisation_terms_of_use/);
  assert.equal((await other.post('/comments/on/idea/2/', { comment: 'Wooden ones' })).status, 302);
  assert.equal(await agreed(6, 2), false);
});

test("the comment API follows the same rule: agreed_terms_of_use is required until the user has agreed (§A11.7)", async () => {
  const admin = await tokenHeader(t.db, 1);
  const url = '/api/contenttypes/4/objects/1/comments/';
  const list = await t.app.inject({ method: 'GET', url, headers: admin });
  assert.deepEqual(
    (({ use_org_terms_of_use, user_has_agreed, org_terms_url }) => ({ use_org_terms_of_use, user_has_agreed, org_terms_url }))(list.json()),
    { use_org_terms_of_use: true, user_has_agreed: false, org_terms_url: '/org/terms-of-use/' },
  );
  assert.equal((await t.app.inject({ method: 'GET', url })).json().user_has_agreed, null);

  const refused = await t.app.inject({ method: 'POST', url, headers: admin, payload: { comment: 'Via the API' } });
  assert.equal(refused.statusCode, 400);
  assert.deepEqual(refused.json(), { comment: ["Please agree to the organisation's terms of use."] });
  const posted = await t.app.inject({ method: 'POST', url, headers: admin, payload: { comment: 'Via the API', agreed_terms_of_use: true } });
  assert.equal(posted.statusCode, 201);
  assert.equal(await agreed(1), true);
  assert.equal((await t.app.inject({ method: 'GET', url, headers: admin })).json().user_has_agreed, true);
  const again = await t.app.inject({ method: 'PATCH', url: `${url}${posted.json().id}/`, headers: admin, payload: { comment: 'Changed' } });
  assert.equal(again.statusCode, 200, 'asked once');

  const plain = await t.app.inject({ method: 'POST', url: '/api/contenttypes/4/objects/2/comments/', headers: await tokenHeader(t.db, 3), payload: { comment: 'No terms here' } });
  assert.equal(plain.statusCode, 201);
});

test('the terms rule: only a signed-in user who has not agreed to written terms is asked, and refused without the box', () => {
  const terms = (written: boolean, agreed: boolean, signedIn = true) => ({ slug: 'org', written, agreed, signedIn });
  const cells: [ReturnType<typeof terms> | null, boolean][] = [
    [terms(true, false), true],
    [terms(true, true), false],
    [terms(false, false), false],
    [terms(true, false, false), false],
    [null, false],
  ];
  for (const [state, asked] of cells) {
    assert.equal(organisationTermsAsked(state), asked, JSON.stringify(state));
    assert.equal(organisationTermsError(state, false), asked ? "Please agree to the organisation's terms of use." : null);
    assert.equal(organisationTermsError(state, true), null);
  }
});

test('the account lists the agreements; unticking one withdraws it and the forms ask again (en and de)', async () => {
  const initiator = await as('initiator');
  assert.match((await initiator.get('/account/')).text, /<a href="\/account\/agreements\/">User agreements<\/a>/);
  assert.match((await initiator.get('/account/agreements/')).text, /You have not agreed to any organisation's terms of use yet\./);
  assert.match((await initiator.get(TREE)).text, /You can withdraw it later under <a href="\/account\/agreements\/">User agreements<\/a>/);
  assert.equal((await initiator.post('/comments/on/idea/1/', { comment: 'Maples', organisation_terms_of_use: 'on' })).status, 302);

  const list = await initiator.get('/account/agreements/');
  assert.match(list.text, /<input type="checkbox" id="id_agreed_1" name="agreed" value="1" checked\/> <label for="id_agreed_1"><a href="\/org\/terms-of-use\/">Organisation<\/a>/);
  const saved = await initiator.post('/account/agreements/', {});
  assert.equal(saved.location, '/account/agreements/');
  assert.equal(await agreed(2), false);
  assert.match((await initiator.get(TREE)).text, /name="organisation_terms_of_use"/, 'asked again');

  await initiator.post('/i18n/setlang/', { language: 'de', next: '/account/agreements/' });
  const german = await initiator.get('/account/agreements/');
  assert.match(german.text, /<h1>Zustimmungen<\/h1>/);
  assert.match(german.text, /Sie haben noch keinen Nutzungsbedingungen einer Organisation zugestimmt\./);
  assert.equal((await new Browser(t.app).get('/account/agreements/')).location, '/accounts/login/?next=/account/agreements/');
});

test('withdrawing keeps the agreements that stay ticked', async () => {
  await t.db.insert(organisationTermsAgreements).values([{ userId: 3, organisationId: 1 }, { userId: 3, organisationId: 2 }]);
  const moderator = await as('moderator');
  assert.equal((await moderator.post('/account/agreements/', { agreed: '2' })).status, 302);
  assert.deepEqual([await agreed(3, 1), await agreed(3, 2)], [false, true]);
});

test("the module page's comment forms ask too, with the terms loaded once for all its threads", async () => {
  await t.db.delete(organisationTermsAgreements).where(eq(organisationTermsAgreements.userId, 3));
  const moderator = await as('moderator');
  const page = await moderator.get('/org/projects/module/ideas-module/');
  assert.match(page.text, /id="id_reply_100_terms" name="organisation_terms_of_use"/);
  assert.equal((await moderator.post('/comments/100/reply/', { comment: 'Answer', organisation_terms_of_use: 'on' })).status, 302);
  assert.doesNotMatch((await moderator.get('/org/projects/module/ideas-module/')).text, /organisation_terms_of_use/);
});
