import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { comments, modules, projects, users } from '../../../src/db/schema/index.js';
import { ideas } from '../../../src/features/ideas/schema.js';
import { basicWorldWith, daysFromNow, load, tokenHeader } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { Browser, lastMail, linkIn } from './client.js';
import { signedIn } from '../../manage/world.js';

/*
 * Guest participation (issue 34.4): a project that allows guests offers "take part as a guest";
 * the guest passes the terms, the per-address limit and the spam check, takes part there (and only
 * there), is marked as a guest to everyone, and can register keeping what they wrote.
 */

const GUEST_MODULE = '/org/projects/module/guest-ideas/';
const GUEST_CREATE = '/org/ideas/create/module/guest-ideas/';
const CLOSED_CREATE = '/org/ideas/create/module/ideas/';

async function world(overrides: Parameters<typeof createTestApp>[0] = {}) {
  const t = await createTestApp(overrides);
  await load(
    t.db,
    basicWorldWith({
      projects: [{ id: 2, slug: 'open-to-guests', name: 'Open to guests', organisation: 1, allow_guests: true, moderators: [3] }],
      modules: [{ id: 2, slug: 'guest-ideas', project: 2, name: 'Guest ideas', phases: [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(10) }] }],
    }),
  );
  await t.db.update(modules).set({ slug: 'ideas' }).where(eq(modules.id, 1));
  return t;
}

/** A browser that became a guest from the guest module's create page. */
async function guestBrowser(app: Awaited<ReturnType<typeof world>>['app']) {
  const browser = new Browser(app);
  await browser.get(`/accounts/guest/?next=${GUEST_CREATE}`);
  const made = await browser.post('/accounts/guest/', { next: GUEST_CREATE, terms_of_use: 'on' });
  assert.equal(made.status, 302, made.text);
  assert.equal(made.location, GUEST_CREATE);
  return browser;
}

const guestRows = (db: Awaited<ReturnType<typeof world>>['db']) => db.select().from(users).where(eq(users.isGuest, true));

test('only a project that allows guests offers "Take part as a guest", on the idea list and beside the comment form', async () => {
  const { app, db } = await world();
  const anonymous = new Browser(app);
  const open = await anonymous.get(GUEST_MODULE);
  assert.match(open.text, new RegExp(`href="/accounts/guest/\\?next=${GUEST_CREATE}">Take part as a guest</a>`));
  const closed = await anonymous.get('/org/projects/module/ideas/');
  assert.equal(closed.status, 200);
  assert.doesNotMatch(closed.text, /Take part as a guest/);
  const [idea] = await db.insert(ideas).values({ moduleId: 2, creatorId: 5, name: 'Shade', description: 'Trees' }).returning();
  const ideaPage = await anonymous.get(`/org/ideas/${idea.created.getFullYear()}-${String(idea.id).padStart(5, '0')}/`);
  assert.match(ideaPage.text, /Please log in to comment.<\/a> <a href="\/accounts\/guest\/\?next=[^"]+">Take part as a guest<\/a>/);
  const german = new Browser(app, { 'accept-language': 'de' });
  assert.match((await german.get(GUEST_MODULE)).text, />Als Gast mitmachen</);
});

test('becoming a guest asks for the terms and the spam check, each refusal beside its field; then this browser is signed in as a guest', async () => {
  const { app, db } = await world();
  const browser = new Browser(app);
  const page = await browser.get(`/accounts/guest/?next=${GUEST_CREATE}`);
  assert.equal(page.status, 200);
  assert.match(page.text, /<altcha-widget challenge="\/challenge\/"/);
  const noTerms = await browser.post('/accounts/guest/', { next: GUEST_CREATE });
  assert.equal(noTerms.status, 400);
  assert.match(noTerms.text, /id="id_terms_of_use_errors"[^>]*>[\s\S]*?Please accept the terms of use/);
  const noCheck = await browser.post('/accounts/guest/', { next: GUEST_CREATE, terms_of_use: 'on', altcha: 'forged' });
  assert.equal(noCheck.status, 400);
  assert.match(noCheck.text, /id="id_challenge_errors"[^>]*>[\s\S]*?The spam check was not passed/);
  const robot = await browser.post('/accounts/guest/', { next: GUEST_CREATE, terms_of_use: 'on', website: 'http://spam.example' });
  assert.equal(robot.status, 302, 'a robot is sent on as a person would be');
  assert.deepEqual(await guestRows(db), [], 'nothing was made so far');

  const made = await browser.post('/accounts/guest/', { next: GUEST_CREATE, terms_of_use: 'on' });
  assert.equal(made.status, 302);
  const [guest] = await guestRows(db);
  assert.match(guest.username, /^guest-[0-9a-f]{12}$/);
  assert.deepEqual([guest.password, guest.emailVerified], ['', false], 'no password, no mail');
  const form = await browser.get(GUEST_CREATE);
  assert.equal(form.status, 200);
  assert.match(form.text, /You take part as a guest now./);
  assert.match(form.text, /href="\/accounts\/guest\/convert\/">Guest: create an account</);
  assert.equal((await browser.get('/accounts/guest/')).status, 302, 'a guest is one already');
});

test('guests are counted per address: over the limit the form says so (429)', async () => {
  const { app, db } = await world({ signupLimitPerIp: 1 });
  await guestBrowser(app);
  const second = new Browser(app);
  await second.get('/accounts/guest/');
  const refused = await second.post('/accounts/guest/', { next: '/', terms_of_use: 'on' });
  assert.equal(refused.status, 429);
  assert.ok(refused.headers['retry-after']);
  assert.match(refused.text, /Too many guests from here/);
  assert.equal((await guestRows(db)).length, 1);
});

test('a guest adds ideas and comments where the project allows guests, not elsewhere; everyone sees the guest badge, moderators in the queue too', async () => {
  const { app, db } = await world();
  const guest = await guestBrowser(app);
  const added = await guest.post(GUEST_CREATE, { name: 'A bench by the river', description: 'To rest' });
  assert.equal(added.status, 302, added.text);
  const [idea] = await db.select().from(ideas).where(eq(ideas.name, 'A bench by the river'));
  const [guestRow] = await guestRows(db);
  assert.equal(idea.creatorId, guestRow.id);
  const ideaPath = String(added.location);
  const commented = await guest.post(`/comments/on/idea/${idea.id}/`, { comment: 'And a bin, please' });
  assert.equal(commented.status, 302, commented.text);

  const closed = await guest.get(CLOSED_CREATE);
  assert.equal(closed.status, 403, 'the project without guests refuses them');
  assert.equal((await guest.post(CLOSED_CREATE, { name: 'Sneaked in', description: 'No' })).status, 403);
  assert.equal((await db.select().from(ideas).where(eq(ideas.name, 'Sneaked in'))).length, 0);
  const [other] = await db.insert(ideas).values({ moduleId: 1, creatorId: 5, name: 'Elsewhere', description: 'x' }).returning();
  const otherPage = await guest.get(`/org/ideas/${other.created.getFullYear()}-${String(other.id).padStart(5, '0')}/`);
  assert.match(otherPage.text, /Guests cannot take part in this project. Please create an account./);
  assert.equal((await guest.post(`/comments/on/idea/${other.id}/`, { comment: 'Sneaked' })).status, 403);

  const visitor = new Browser(app);
  const shown = await visitor.get(ideaPath);
  assert.match(shown.text, new RegExp(`${guestRow.username}</a> <span class="badge badge-guest">Guest</span>`), 'the idea');
  assert.match(shown.text, /<span class="badge badge-guest">Guest<\/span> <span>[^<]*<\/span>[\s\S]*And a bin, please/, 'the comment');
  assert.match((await visitor.get(GUEST_MODULE)).text, /by guest-[0-9a-f]+ on [^<]* <span class="badge badge-guest">Guest<\/span>/, 'the list');
  const moderator = await signedIn(app, 'moderator');
  const queue = await moderator.get('/userdashboard/moderation/detail/open-to-guests/');
  assert.equal(queue.status, 200);
  assert.match(queue.text, /<strong>guest-[0-9a-f]+<\/strong> <span class="badge badge-guest">Guest<\/span>/);
  const [comment] = await db.select().from(comments).where(eq(comments.objectPk, idea.id));
  assert.equal(comment.creatorId, guestRow.id);
});

test('a guest registers and keeps what they wrote: errors beside the fields, then the same user, confirmed by mail, logs in with the password', async () => {
  const { app, db } = await world();
  const guest = await guestBrowser(app);
  assert.equal((await guest.post(GUEST_CREATE, { name: 'Mine to keep', description: 'Yes' })).status, 302);
  const [guestRow] = await guestRows(db);
  const form = await guest.get('/accounts/guest/convert/');
  assert.equal(form.status, 200);
  assert.match(form.text, /You take part as a guest. Create an account/);
  assert.doesNotMatch(form.text, /altcha-widget/, 'the guest passed the spam check already');
  const fields = { username: 'riverbench', email: 'river@example.org', password1: 'a-long-secret', password2: 'a-long-secret', terms_of_use: 'on' };
  const bad = await guest.post('/accounts/guest/convert/', { ...fields, email: 'not-an-address', password2: 'other' });
  assert.equal(bad.status, 400);
  assert.match(bad.text, /id="id_email_errors"[^>]*>[\s\S]*?Enter a valid email address/);
  assert.match(bad.text, /id="id_password2_errors"[^>]*>[\s\S]*?You must type the same password each time/);
  const taken = await guest.post('/accounts/guest/convert/', { ...fields, username: 'initiator' });
  assert.equal(taken.status, 400);
  assert.match(taken.text, /id="id_username_errors"[^>]*>[\s\S]*?A user with that username already exists/);

  const done = await guest.post('/accounts/guest/convert/', fields);
  assert.equal(done.status, 200);
  assert.match(done.text, /Verify your e-mail address/);
  const [account] = await db.select().from(users).where(eq(users.id, guestRow.id));
  assert.deepEqual([account.username, account.email, account.isGuest, account.emailVerified], ['riverbench', 'river@example.org', false, false]);
  const [idea] = await db.select().from(ideas).where(eq(ideas.name, 'Mine to keep'));
  assert.equal(idea.creatorId, guestRow.id, 'the idea stays theirs');
  assert.equal((await guest.get('/accounts/guest/convert/')).status, 302, 'no guest any more');
  assert.doesNotMatch((await guest.get('/')).text, /Guest: create an account/);

  const mail = await lastMail(db, 'river@example.org');
  assert.ok(mail);
  const confirm = linkIn(mail.body, '/accounts/confirm-email/');
  const fresh = new Browser(app);
  await fresh.get(confirm);
  assert.equal((await fresh.post(confirm.split('?')[0], {})).status, 302);
  const later = new Browser(app);
  assert.equal((await later.login('riverbench', 'a-long-secret')).status, 302);
});

test("a guest's registration with an address that has an account tells nothing: its owner gets mail, the guest stays a guest", async () => {
  const { app, db } = await world();
  const guest = await guestBrowser(app);
  const answer = await guest.post('/accounts/guest/convert/', { username: 'someone', email: 'user@example.org', password1: 'a-long-secret', password2: 'a-long-secret', terms_of_use: 'on' });
  assert.equal(answer.status, 200);
  assert.match(answer.text, /Verify your e-mail address/);
  assert.equal((await guestRows(db)).length, 1);
  assert.equal((await lastMail(db, 'user@example.org'))?.kind, 'account_already_exists');
});

test('a guest downloads their data and deletes their guest identity without a password; an address comes only with the registration', async () => {
  const { app, db } = await world();
  const guest = await guestBrowser(app);
  const [guestRow] = await guestRows(db);
  assert.equal((await guest.post(GUEST_CREATE, { name: 'Short-lived', description: 'x' })).status, 302);
  const settings = await guest.postMultipart('/account/', { username: guestRow.username, email: 'me@example.org', language: 'en', bio: '' });
  assert.equal(settings.status, 400, 'an address only with the registration (no guest with a login)');
  assert.match(settings.text, /id="id_email_errors"[^>]*>[\s\S]*?A guest gives an e-mail address by creating an account/);
  const exported = await guest.post('/account/export/', {});
  assert.equal(exported.status, 200);
  assert.equal(exported.headers['content-type'], 'application/zip');
  const page = await guest.get('/account/account_deletion/');
  assert.doesNotMatch(page.text, /name="password"/);
  const deleted = await guest.post('/account/account_deletion/', {});
  assert.equal(deleted.status, 200);
  assert.deepEqual(await guestRows(db), []);
  assert.equal((await db.select().from(ideas).where(eq(ideas.name, 'Short-lived'))).length, 0, 'an idea nobody took part in goes with its guest');
});

test('the initiator lets guests in from the basic settings, and takes them out again', async () => {
  const { app, db } = await world();
  const initiator = await signedIn(app, 'initiator');
  const form = await initiator.get('/org/dashboard/projects/project/basic/');
  assert.match(form.text, /<input type="checkbox" id="id_allow_guests" name="allow_guests"/);
  const save = (extra: Record<string, string>) => initiator.postMultipart('/org/dashboard/projects/project/basic/', { name: 'Project', description: 'About it', access: 'PUBLIC', ...extra });
  assert.equal((await save({ allow_guests: 'on' })).status, 302);
  const allowed = async () => (await db.select({ allowGuests: projects.allowGuests }).from(projects).where(eq(projects.id, 1)))[0].allowGuests;
  assert.equal(await allowed(), true);
  assert.match((await new Browser(app).get('/org/projects/module/ideas/')).text, /Take part as a guest/);
  assert.equal((await save({})).status, 302);
  assert.equal(await allowed(), false);
});

test("the moderation API says whether a comment's author is a guest (user_is_guest, in the OpenAPI schema); hidden authors are not marked", async () => {
  const { app, db, request } = await world();
  const guest = await guestBrowser(app);
  const [idea] = await db.insert(ideas).values({ moduleId: 2, creatorId: 5, name: 'Shade', description: 'Trees' }).returning();
  assert.equal((await guest.post(`/comments/on/idea/${idea.id}/`, { comment: 'By a guest' })).status, 302);
  assert.equal((await guest.post(`/comments/on/idea/${idea.id}/`, { comment: 'Removed later' })).status, 302);
  await db.insert(comments).values({ contentType: 'idea', objectPk: idea.id, projectId: 2, creatorId: 5, comment: 'By an account' });
  await db.update(comments).set({ isRemoved: true }).where(eq(comments.comment, 'Removed later'));
  const answer = await request({ method: 'GET', url: '/api/userdashboard/moderation/2/comments/?is_reviewed=all', headers: await tokenHeader(db, 3) });
  assert.equal(answer.status, 200);
  const flags = Object.fromEntries((answer.body as { comment: string; user_is_guest: boolean }[]).map((c) => [c.comment, c.user_is_guest]));
  assert.deepEqual(flags, { 'By a guest': true, 'Removed later': false, 'By an account': false });
  const schema = (await request({ method: 'GET', url: '/api/schema/' })).text;
  assert.match(schema, /"user_is_guest":\{[^}]*"description":"The author takes part as a guest/);
});
