import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { users } from '../../../src/db/schema/index.js';
import { basicWorld, basicWorldWith, load } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { Browser, lastMail, linkIn } from './client.js';

async function world() {
  const t = await createTestApp();
  await load(t.db, basicWorld());
  return t;
}

const signupFields = (overrides: Record<string, string> = {}) => ({
  username: 'newbie',
  email: 'newbie@example.org',
  password1: 'a-long-secret',
  password2: 'a-long-secret',
  terms_of_use: 'on',
  ...overrides,
});

test('sign up, confirm through the e-mailed link, and be logged in', async () => {
  const { app, db } = await world();
  const browser = new Browser(app);
  const form = await browser.get('/accounts/signup/');
  assert.equal(form.status, 200);
  assert.match(form.text, /name="csrfmiddlewaretoken"/);
  const done = await browser.post('/accounts/signup/', signupFields({ get_newsletters: 'on' }));
  assert.equal(done.status, 200);
  assert.match(done.text, /We have sent an e-mail to you for verification/);
  const [created] = await db.select().from(users).where(eq(users.username, 'newbie'));
  assert.equal(created.emailVerified, false);
  assert.equal(created.getNewsletters, true);
  assert.notEqual(created.password, 'a-long-secret');

  const mail = await lastMail(db, 'newbie@example.org');
  assert.ok(mail);
  const link = linkIn(mail.body, '/accounts/confirm-email/');
  const confirmPage = await browser.get(link);
  assert.equal(confirmPage.status, 200);
  const confirmed = await browser.post(link, {});
  assert.equal(confirmed.status, 302);
  assert.equal(confirmed.location, '/userdashboard/overview/');
  const overview = await browser.get('/userdashboard/overview/');
  assert.equal(overview.status, 200);
  assert.match(overview.text, /newbie/);
  assert.match(overview.text, /role="status">Your e-mail address has been confirmed\./);
  assert.doesNotMatch((await browser.get('/userdashboard/overview/')).text, /has been confirmed/, 'the message shows once');
  const [after] = await db.select().from(users).where(eq(users.username, 'newbie'));
  assert.equal(after.emailVerified, true);
  // The link is spent.
  assert.equal((await new Browser(app).get(link)).status, 404);
});

test('an unconfirmed account cannot log in with its password', async () => {
  const { app, db } = await world();
  await new Browser(app).post('/accounts/signup/', signupFields());
  const browser = new Browser(app);
  const response = await browser.login('newbie', 'a-long-secret');
  assert.equal(response.status, 200);
  assert.match(response.text, /verification/);
  assert.equal(browser.cookies.has('sessionid'), false);
  const mails = await lastMail(db, 'newbie@example.org');
  assert.equal(mails?.kind, 'account_confirm_email');
});

test('login accepts the e-mail address in any case and goes to next', async () => {
  const { app } = await world();
  const browser = new Browser(app);
  await browser.get('/accounts/login/?next=/profile/user/');
  const response = await browser.post('/accounts/login/', { login: 'USER@example.org', password: 'user-password', next: '/profile/user/' });
  assert.equal(response.status, 302);
  assert.equal(response.location, '/profile/user/');
  const cookie = String((response.headers['set-cookie'] as string[]).find((c) => c.startsWith('sessionid=')));
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Lax/);
  assert.equal((await browser.get('/userdashboard/overview/')).status, 200);
});

test('the header\'s Login and Register links come back to the page they were followed from, not from the accounts pages', async () => {
  const { app, db } = await createTestApp();
  await load(db, basicWorldWith({ ideas: [{ id: 3, module: 1, creator: 4, name: 'Idea', description: 'text', created: '2024-05-01T10:00:00Z' }] }));
  const browser = new Browser(app);
  const idea = await browser.get('/org/ideas/2024-00003/');
  assert.equal(idea.status, 200);
  const header = /<header[^]*?<\/header>/.exec(idea.text)?.[0] ?? '';
  assert.match(header, /href="\/accounts\/signup\/\?next=\/org\/ideas\/2024-00003\/"/);
  const loginLink = /href="(\/accounts\/login\/\?next=[^"]*)"/.exec(header)?.[1];
  assert.equal(loginLink, '/accounts/login/?next=/org/ideas/2024-00003/');
  const form = await browser.get(loginLink);
  assert.doesNotMatch(form.text, /href="\/accounts\/login\/\?next=\/accounts\//, 'the login page\'s own header does not lead back to it');
  const next = /action="\/accounts\/login\/">[^]*?name="next" value="([^"]*)"/.exec(form.text)?.[1];
  assert.equal(next, '/org/ideas/2024-00003/', 'the login form keeps the way back');
  const loggedIn = await browser.post('/accounts/login/', { login: 'user', password: 'user-password', next });
  assert.equal(loggedIn.status, 302);
  assert.equal(loggedIn.location, '/org/ideas/2024-00003/');
  const queried = await new Browser(app).get('/org/ideas/2024-00003/?a=1&b=2');
  assert.match(queried.text, /href="\/accounts\/login\/\?next=\/org\/ideas\/2024-00003\/%3Fa%3D1%26b%3D2"/, 'the query comes back too');
});

test('wrong credentials re-show the form with one message that does not tell whether the account exists', async () => {
  const { app } = await world();
  const browser = new Browser(app);
  const wrongPassword = await browser.login('user', 'nope-nope-nope');
  const noAccount = await browser.login('nobody-here', 'nope-nope-nope');
  assert.equal(wrongPassword.status, 400);
  assert.equal(noAccount.status, 400);
  const message = /The username and\/or password you specified are not correct\./;
  assert.match(wrongPassword.text, message);
  assert.match(noAccount.text, message);
  assert.match(noAccount.text, /value="nobody-here"/);
  assert.equal(browser.cookies.has('sessionid'), false);
});

test('a login form without the CSRF token is refused', async () => {
  const { app } = await world();
  const browser = new Browser(app);
  await browser.get('/accounts/login/');
  const response = await browser.post('/accounts/login/', { login: 'user', password: 'user-password' }, false);
  assert.equal(response.status, 403);
});

test('an outside next is ignored after login', async () => {
  const { app } = await world();
  const browser = new Browser(app);
  await browser.get('/accounts/login/');
  const response = await browser.post('/accounts/login/', { login: 'user', password: 'user-password', next: '//evil.example/' });
  assert.equal(response.location, '/userdashboard/overview/');
});

test('logout ends the session', async () => {
  const { app } = await world();
  const browser = new Browser(app);
  await browser.login('user', 'user-password');
  const response = await browser.post('/accounts/logout/', {});
  assert.equal(response.status, 302);
  const overview = await browser.get('/userdashboard/overview/');
  assert.equal(overview.status, 302);
  assert.equal(overview.location, '/accounts/login/?next=/userdashboard/overview/');
});

test('signup checks its fields', async () => {
  const { app, db } = await world();
  const browser = new Browser(app);
  const response = await browser.post('/accounts/signup/', signupFields({ username: 'ADMIN', password1: '12345678', password2: '1234567', terms_of_use: '' }));
  assert.equal(response.status, 400);
  assert.match(response.text, /A user with that username already exists\./);
  assert.match(response.text, /This password is entirely numeric\./);
  assert.match(response.text, /You must type the same password each time\./);
  assert.match(response.text, /Please accept the terms of use/);
  const bad = await browser.post('/accounts/signup/', signupFields({ username: '<b>', email: 'not-an-address', password1: 'short', password2: 'short' }));
  assert.match(bad.text, /Enter a valid username/);
  assert.match(bad.text, /Enter a valid email address\./);
  assert.match(bad.text, /too short/);
  assert.equal((await db.select().from(users)).length, 6);
});

test('signing up with a taken e-mail reveals nothing and mails the owner', async () => {
  const { app, db } = await world();
  const response = await new Browser(app).post('/accounts/signup/', signupFields({ email: 'User@Example.org' }));
  assert.equal(response.status, 200);
  assert.match(response.text, /We have sent an e-mail to you for verification/);
  assert.equal((await db.select().from(users)).length, 6);
  assert.equal((await lastMail(db, 'user@example.org'))?.kind, 'account_already_exists');
});

test('password reset by e-mailed link; the link works once', async () => {
  const { app, db } = await world();
  const browser = new Browser(app);
  await browser.get('/accounts/password/reset/');
  const requested = await browser.post('/accounts/password/reset/', { email: 'user@example.org' });
  assert.equal(requested.location, '/accounts/password/reset/done/');
  const unknown = await browser.post('/accounts/password/reset/', { email: 'nobody@example.org' });
  assert.equal(unknown.location, '/accounts/password/reset/done/');
  const mail = await lastMail(db, 'user@example.org');
  assert.ok(mail);
  const link = linkIn(mail.body, '/accounts/password/reset/key/');
  assert.equal((await browser.get(link)).status, 200);
  const mismatch = await browser.post(link, { password1: 'brand-new-secret', password2: 'other' });
  assert.equal(mismatch.status, 400);
  const changed = await browser.post(link, { password1: 'brand-new-secret', password2: 'brand-new-secret' });
  assert.equal(changed.status, 200);
  assert.match(changed.text, /Your password is now changed\./);
  assert.equal((await browser.get(link)).status, 404);
  assert.equal((await new Browser(app).login('user', 'user-password')).status, 400);
  assert.equal((await new Browser(app).login('user', 'brand-new-secret')).status, 302);
});

test('a tampered reset link is refused', async () => {
  const { app } = await world();
  const response = await new Browser(app).get('/accounts/password/reset/key/eyJwIjoicmVzZXQtcGFzc3dvcmQifQ.AAAA/');
  assert.equal(response.status, 404);
});

test('changing the password ends other sessions but keeps this one', async () => {
  const { app } = await world();
  const here = new Browser(app);
  const elsewhere = new Browser(app);
  await here.login('user', 'user-password');
  await elsewhere.login('user', 'user-password');
  const wrongOld = await here.post('/accounts/password/change/', { oldpassword: 'wrong', password1: 'brand-new-secret', password2: 'brand-new-secret' });
  assert.equal(wrongOld.status, 400);
  const changed = await here.post('/accounts/password/change/', { oldpassword: 'user-password', password1: 'brand-new-secret', password2: 'brand-new-secret' });
  assert.equal(changed.status, 200);
  assert.equal((await here.get('/userdashboard/overview/')).status, 200);
  assert.equal((await elsewhere.get('/userdashboard/overview/')).status, 302);
});

test('deleting the account needs the password and removes the user', async () => {
  const { app, db } = await world();
  const browser = new Browser(app);
  await browser.login('other', 'other-password');
  assert.equal((await browser.post('/account/account_deletion/', { password: 'wrong' })).status, 400);
  const deleted = await browser.post('/account/account_deletion/', { password: 'other-password' });
  assert.equal(deleted.status, 200);
  assert.equal((await db.select().from(users).where(eq(users.username, 'other'))).length, 0);
  assert.equal((await browser.get('/userdashboard/overview/')).status, 302);
});

const png = (size: number) => sharp({ create: { width: size, height: size, channels: 3, background: '#3366cc' } }).png().toBuffer();

test('account settings save profile fields and an avatar with its 200×200 thumbnail', async () => {
  const { app, db, config } = await world();
  const browser = new Browser(app);
  await browser.login('user', 'user-password');
  const page = await browser.get('/account/');
  assert.equal(page.status, 200);
  assert.match(page.text, /\/static\/images\/avatar-00\.svg/); // user 5: 5 % 5 = 0
  const saved = await browser.postMultipart('/account/', { username: 'user', email: 'user@example.org', language: 'de', bio: 'Hello <there>' }, {
    name: 'avatar',
    filename: 'me.png',
    data: await png(400),
    type: 'image/png',
  });
  assert.equal(saved.status, 302);
  const [row] = await db.select().from(users).where(eq(users.id, 5));
  assert.equal(row.language, 'de');
  assert.equal(row.bio, 'Hello <there>');
  assert.ok(row.avatar);
  const thumb = join(config.dataDir, 'media', row.avatar.replace(/\.[a-z]+$/, '.avatar.png'));
  assert.ok(existsSync(thumb));
  const meta = await sharp(thumb).metadata();
  assert.deepEqual([meta.width, meta.height], [200, 200]);
  const settings = await browser.get('/account/');
  assert.match(settings.text, /Kontoeinstellungen/);
  const served = await browser.get(`/media/${row.avatar.replace(/\.[a-z]+$/, '.avatar.png')}`);
  assert.equal(served.status, 200);
});

test('avatars that are too small or not images are refused with a message', async () => {
  const { app } = await world();
  const browser = new Browser(app);
  await browser.login('user', 'user-password');
  const fields = { username: 'user', email: 'user@example.org', language: 'en', bio: '' };
  const small = await browser.postMultipart('/account/', fields, { name: 'avatar', filename: 'a.png', data: await png(100), type: 'image/png' });
  assert.equal(small.status, 400);
  assert.match(small.text, /at least 200 pixels/);
  const text = await browser.postMultipart('/account/', fields, { name: 'avatar', filename: 'a.png', data: Buffer.from('hello'), type: 'image/png' });
  assert.equal(text.status, 400);
  assert.match(text.text, /Upload a valid image/);
  const taken = await browser.postMultipart('/account/', { ...fields, username: 'Admin' });
  assert.equal(taken.status, 400);
});

test("a user keeps a homepage and Twitter and Facebook names (adhocracy+'s profile links), shown on the public profile; other addresses and names are refused", async () => {
  const { app } = await world();
  const browser = new Browser(app);
  await browser.login('user', 'user-password');
  const fields = { username: 'user', email: 'user@example.org', language: 'en', bio: '' };
  const bad = await browser.postMultipart('/account/', { ...fields, homepage: 'javascript:alert(1)', twitter_handle: 'a b' });
  assert.equal(bad.status, 400);
  assert.match(bad.text, /Enter a valid URL\./);
  assert.match(bad.text, /Enter the name only/);
  const saved = await browser.postMultipart('/account/', { ...fields, homepage: 'https://user.example.org', twitter_handle: 'user_tw', facebook_handle: 'user.fb' });
  assert.equal(saved.status, 302);
  const profile = await new Browser(app).get('/profile/user/');
  for (const link of ['href="https://user.example.org"', 'href="https://twitter.com/user_tw"', 'href="https://www.facebook.com/user.fb"']) assert.ok(profile.text.includes(link), link);
});

test('the public profile shows username, bio and the fallback avatar', async () => {
  const { app, db } = await world();
  await db.update(users).set({ bio: 'I like <b>parks</b>' }).where(eq(users.id, 4));
  const browser = new Browser(app);
  const profile = await browser.get('/profile/member/');
  assert.equal(profile.status, 200);
  assert.match(profile.text, /I like &lt;b>parks&lt;\/b>/);
  assert.match(profile.text, /\/static\/images\/avatar-04\.svg/);
  assert.equal((await browser.get('/profile/nobody/')).status, 404);
  assert.equal((await browser.get('/static/images/avatar-04.svg')).status, 200);
});

test('pages speak German by Accept-Language, by the user language and by the switcher', async () => {
  const { app, db } = await world();
  const german = new Browser(app, { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' });
  const login = await german.get('/accounts/login/');
  assert.match(login.text, /<html lang="de"/);
  assert.match(login.text, /Anmelden/);
  const english = new Browser(app);
  assert.match((await english.get('/accounts/login/')).text, /<html lang="en"/);
  await english.get('/accounts/login/');
  const switched = await english.post('/i18n/setlang/', { language: 'de', next: '/accounts/signup/' });
  assert.equal(switched.location, '/accounts/signup/');
  assert.match((await english.get('/accounts/signup/')).text, /Registrieren/);
  assert.equal((await english.post('/i18n/setlang/', { language: 'xx' })).status, 400);
  await db.update(users).set({ language: 'de' }).where(eq(users.id, 5));
  const user = new Browser(app);
  await user.login('user', 'user-password');
  assert.match((await user.get('/userdashboard/overview/')).text, /Mein Feed/);
});

test('an avatar over 5 MB is refused with a message, not a server error', async () => {
  const { app } = await world();
  const browser = new Browser(app);
  await browser.login('user', 'user-password');
  const fields = { username: 'user', email: 'user@example.org', language: 'en', bio: '' };
  const big = await browser.postMultipart('/account/', fields, { name: 'avatar', filename: 'big.png', data: Buffer.alloc(5 * 1024 * 1024 + 10, 1), type: 'image/png' });
  assert.equal(big.status, 400);
  assert.match(big.text, /The image must not be larger than 5 MB\./);
});

test('profiles of users with non-ASCII names are found; a broken Authorization header does not break pages', async () => {
  const { app, db } = await world();
  await db.update(users).set({ username: 'Jürgen Groß' }).where(eq(users.id, 6));
  const browser = new Browser(app, { authorization: 'Token nonsense' });
  const profile = await browser.get(`/profile/${encodeURIComponent('jürgen groß')}/`);
  assert.equal(profile.status, 200);
  assert.match(profile.text, /Jürgen Groß/);
});

test('the login form is throttled after repeated failures and says so', async () => {
  const t = await createTestApp({ loginFailureLimit: 2 });
  await load(t.db, basicWorld());
  const browser = new Browser(t.app);
  assert.equal((await browser.login('user', 'wrong-1')).status, 400);
  assert.equal((await browser.login('user', 'wrong-2')).status, 400);
  const blocked = await browser.login('user', 'user-password');
  assert.equal(blocked.status, 429);
  assert.match(blocked.text, /Too many failed login attempts/);
  assert.match(String(blocked.headers['retry-after']), /^\d+$/);
  assert.equal(browser.cookies.has('sessionid'), false);
});

test('a new e-mail address in the settings needs the current password (error beside the field, throttled) and must be confirmed again', async () => {
  const { app, db } = await world();
  const browser = new Browser(app);
  await browser.login('user', 'user-password');
  for (const current_password of [undefined, 'wrong-password']) {
    const refused = await browser.postMultipart('/account/', { username: 'user', email: 'new-address@example.org', language: 'en', bio: '', ...(current_password ? { current_password } : {}) });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /id="id_current_password"[^>]*>(?:(?!<\/div>)[^])*Please type your current password\./, 'the message beside the field');
    assert.equal((await db.select().from(users).where(eq(users.id, 5)))[0].email, 'user@example.org', 'nothing changed');
  }
  const saved = await browser.postMultipart('/account/', { username: 'user', email: 'new-address@example.org', current_password: 'user-password', language: 'en', bio: '' });
  assert.equal(saved.status, 302);
  const [row] = await db.select().from(users).where(eq(users.id, 5));
  assert.equal(row.email, 'user@example.org', 'the new address waits for its confirmation');
  assert.equal(row.pendingEmail, 'new-address@example.org');
  const mail = await lastMail(db, 'new-address@example.org');
  assert.ok(mail);
  const link = linkIn(mail.body, '/accounts/confirm-email/');
  assert.equal((await browser.post(link, {})).status, 302);
  const [after] = await db.select().from(users).where(eq(users.id, 5));
  assert.deepEqual([after.email, after.emailVerified], ['new-address@example.org', true]);
  // A taken address is not told apart from a free one (test/security/email-enumeration.test.ts).
});

test('a settings form with errors stores no avatar; a broken multipart body is a 400', async () => {
  const { app, config } = await world();
  const browser = new Browser(app);
  await browser.login('user', 'user-password');
  const refused = await browser.postMultipart('/account/', { username: '', email: 'user@example.org', language: 'en', bio: '' }, {
    name: 'avatar',
    filename: 'me.png',
    data: await png(300),
    type: 'image/png',
  });
  assert.equal(refused.status, 400);
  assert.equal(existsSync(join(config.dataDir, 'media', 'users', 'images')), false);
  const broken = await app.inject({
    method: 'POST',
    url: '/account/',
    payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nno end',
    headers: { cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'content-type': 'multipart/form-data; boundary=x' },
  });
  assert.ok(broken.statusCode >= 400 && broken.statusCode < 500, String(broken.statusCode));
});
