import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { comments, users } from '../../src/db/schema/index.js';
import { ideas } from '../../src/features/ideas/schema.js';
import { accountCare } from '../../src/operate/backoffice/rules.js';
import { lastMail, linkIn } from '../me/accounts/client.js';
import { dashboardApp, dashboardWorld, signedIn } from '../manage/world.js';

const userRow = async (db: Awaited<ReturnType<typeof dashboardApp>>['db'], id: number) => (await db.select().from(users).where(eq(users.id, id)))[0];

test('what an operator may do to an account: nothing to the placeholder, nothing that locks herself out, never revoke the last superuser', () => {
  const person = { id: 5, username: 'user', isActive: true, isSuperuser: false, emailVerified: false };
  const all = (care: ReturnType<typeof accountCare>) => Object.entries(care).filter(([, may]) => may).map(([what]) => what).sort();
  assert.deepEqual(all(accountCare(1, person, 1)), ['correctEmail', 'deactivate', 'delete', 'grantSuperuserAfterConfirmation', 'resendConfirmation', 'staff'], 'unconfirmed: no superuser');
  assert.deepEqual(all(accountCare(1, { ...person, emailVerified: true }, 1)), ['correctEmail', 'deactivate', 'delete', 'grantSuperuser', 'staff']);
  assert.deepEqual(all(accountCare(1, { ...person, emailVerified: true, isSuperuser: true }, 2)), ['correctEmail', 'deactivate', 'delete', 'revokeSuperuser', 'staff']);
  assert.deepEqual(all(accountCare(1, { ...person, isSuperuser: true }, 1)).includes('revokeSuperuser'), false, 'not the last superuser');
  assert.deepEqual(all(accountCare(1, { ...person, isActive: false }, 1)), ['activate', 'correctEmail', 'delete', 'staff']);
  assert.deepEqual(all(accountCare(1, { ...person, id: 1, isSuperuser: true, emailVerified: true }, 3)), ['correctEmail', 'staff'], 'her own account');
  assert.deepEqual(all(accountCare(1, { ...person, id: 9, username: '[deleted]', isActive: false }, 2)), [], 'the placeholder');
});

test('an operator deletes an account on request, as its owner could: others\' replies stay, the placeholder offers nothing', async () => {
  const world = dashboardWorld();
  const { app, db } = await dashboardApp({
    ...world,
    ideas: [{ id: 1, module: 1, creator: 6, name: 'Benches by the pond', description: 'Shade too' }],
    comments: [
      { id: 1, creator: 6, target: { type: 'idea', id: 1 }, comment: 'My own remark' },
      { id: 2, creator: 5, target: { type: 'comment', id: 1 }, comment: 'A reply that stays' },
    ],
  });
  const admin = await signedIn(app, 'admin');
  const page = await admin.get('/backoffice/users/6/');
  assert.equal(page.status, 200);
  assert.match(page.text, /<a class="btn btn-danger" href="\/backoffice\/users\/6\/delete\/">Delete the account<\/a>/);
  const confirm = await admin.get('/backoffice/users/6/delete/');
  assert.match(confirm.text, /comments stay as deleted so that replies stay/);
  const deleted = await admin.post('/backoffice/users/6/delete/', { confirm: 'yes' });
  assert.equal(deleted.location, '/backoffice/users/?done=deleted');
  assert.match((await admin.get(deleted.location ?? '')).text, /The account has been deleted\./);
  assert.equal(await userRow(db, 6), undefined);
  const [own] = await db.select().from(comments).where(eq(comments.id, 1));
  assert.equal(own.isRemoved, true);
  assert.equal((await db.select().from(comments).where(eq(comments.id, 2)))[0].comment, 'A reply that stays');
  const [idea] = await db.select().from(ideas).where(eq(ideas.id, 1));
  const [placeholder] = await db.select().from(users).where(eq(users.username, '[deleted]'));
  assert.equal(idea.creatorId, placeholder.id, 'the idea others took part in stays, without the name');

  const placeholderPage = await admin.get(`/backoffice/users/${placeholder.id}/`);
  assert.match(placeholderPage.text, /This account holds the content of deleted accounts\. It cannot be changed\./);
  assert.doesNotMatch(placeholderPage.text, /<form method="post"(?! action="\/i18n\/setlang\/")(?! action="\/accounts\/logout\/")/, 'no form for the placeholder');
  const list = await admin.get('/backoffice/users/?search=deleted');
  assert.doesNotMatch(list.text, /name="user_id" value="\d+"/, 'no buttons for the placeholder in the list');
  for (const [path, fields] of [
    [`/backoffice/users/${placeholder.id}/delete/`, {}],
    [`/backoffice/users/${placeholder.id}/`, { action: 'correct_email', email: 'taken@example.org' }],
    [`/backoffice/users/${placeholder.id}/`, { action: 'grant_superuser' }],
    ['/backoffice/users/', { action: 'activate', user_id: String(placeholder.id) }],
  ] as const) {
    const refused = await admin.post(path, fields);
    assert.equal(refused.status, 400, path);
    assert.match(refused.text, /This is not possible for this account\./);
  }
  assert.equal((await admin.get('/backoffice/users/999/')).status, 404);
  assert.equal((await (await signedIn(app, 'initiator')).post('/backoffice/users/5/delete/', {})).status, 403);
});

test('an operator cannot lock herself out; superuser status is granted and revoked, never from the last one', async () => {
  const { app, db } = await dashboardApp();
  const admin = await signedIn(app, 'admin');
  const own = await admin.get('/backoffice/users/1/');
  assert.match(own.text, /This is your own account/);
  assert.doesNotMatch(own.text, /Delete the account|Remove superuser status/);
  assert.equal((await admin.get('/backoffice/users/1/delete/')).status, 400);
  assert.equal((await admin.post('/backoffice/users/1/delete/', {})).status, 400);
  assert.equal((await admin.post('/backoffice/users/1/', { action: 'revoke_superuser' })).status, 400);
  assert.ok(await userRow(db, 1));

  assert.equal((await admin.post('/backoffice/users/5/', { action: 'grant_superuser' })).location, '/backoffice/users/5/?done=saved');
  assert.equal((await userRow(db, 5)).isSuperuser, true);
  const user = await signedIn(app, 'user');
  assert.match((await user.get('/backoffice/users/1/')).text, /Remove superuser status/);
  assert.equal((await user.post('/backoffice/users/1/', { action: 'revoke_superuser' })).status, 302);
  assert.equal((await userRow(db, 1)).isSuperuser, false);
  // Now "user" is the last superuser: nobody can take it away, herself included.
  assert.doesNotMatch((await user.get('/backoffice/users/5/')).text, /Remove superuser status/);
  assert.equal((await user.post('/backoffice/users/5/', { action: 'revoke_superuser' })).status, 400);
  assert.equal((await userRow(db, 5)).isSuperuser, true);
});

test('an operator corrects an e-mail address (confirmed again by the new address) and resends the confirmation, in English and German', async () => {
  const { app, db } = await dashboardApp();
  const admin = await signedIn(app, 'admin');
  const invalid = await admin.post('/backoffice/users/5/', { action: 'correct_email', email: 'not-an-address' });
  assert.equal(invalid.status, 400);
  assert.match(invalid.text, /id="id_email_errors"><li>Enter a valid email address\./);
  const taken = await admin.post('/backoffice/users/5/', { action: 'correct_email', email: 'OTHER@example.org' });
  assert.match(taken.text, /A user is already registered with this e-mail address\./);
  const corrected = await admin.post('/backoffice/users/5/', { action: 'correct_email', email: 'user.typo-fixed@example.org' });
  assert.equal(corrected.location, '/backoffice/users/5/?done=corrected');
  const row = await userRow(db, 5);
  assert.deepEqual([row.email, row.emailVerified], ['user.typo-fixed@example.org', false]);
  const mail = await lastMail(db, 'user.typo-fixed@example.org');
  assert.equal(mail?.kind, 'account_confirm_email');
  const page = await admin.get('/backoffice/users/5/');
  assert.match(page.text, /e-mail address not confirmed/);
  assert.equal((await admin.post('/backoffice/users/5/', { action: 'resend_confirmation' })).location, '/backoffice/users/5/?done=sent');
  assert.notEqual((await lastMail(db, 'user.typo-fixed@example.org'))?.id, mail?.id, 'a second confirmation mail');
  // The link confirms the corrected address.
  const link = linkIn((await lastMail(db, 'user.typo-fixed@example.org'))?.body ?? '', '/accounts/confirm-email/');
  assert.equal((await admin.get(link)).status, 200);
  await db.update(users).set({ language: 'de' }).where(eq(users.id, 1));
  const german = await signedIn(app, 'admin');
  assert.match((await german.get('/backoffice/users/5/')).text, /E-Mail-Adresse korrigieren.*Bestätigungs-E-Mail erneut senden.*Zum Superuser machen.*Konto löschen/s);
});

test('an unconfirmed account cannot be made superuser or initiator in the back-office, and the page says why (en, de)', async () => {
  const { app, db } = await dashboardApp();
  await db.update(users).set({ emailVerified: false }).where(eq(users.id, 5));
  const admin = await signedIn(app, 'admin');
  const page = (await admin.get('/backoffice/users/5/')).text;
  assert.match(page, /<button type="submit" aria-label="Make superuser: Only an account with a confirmed e-mail address can be made superuser\." disabled>Make superuser<\/button>/);
  assert.match(page, /<p class="help">Only an account with a confirmed e-mail address can be made superuser\.<\/p>/);
  const refused = await admin.post('/backoffice/users/5/', { action: 'grant_superuser' });
  assert.equal(refused.status, 400);
  assert.equal((await userRow(db, 5)).isSuperuser, false);
  const initiator = await admin.post('/backoffice/organisations/org/', { action: 'add_initiator', initiator_name: 'user' });
  assert.equal(initiator.status, 400);
  assert.match(initiator.text, /This account has not confirmed its e-mail address yet; it can be appointed once it has/);
  await db.update(users).set({ language: 'de' }).where(eq(users.id, 1));
  const german = await signedIn(app, 'admin');
  assert.match((await german.get('/backoffice/users/5/')).text, /Nur ein Konto mit bestätigter E-Mail-Adresse kann Superuser werden\./);

  await db.update(users).set({ emailVerified: true }).where(eq(users.id, 5));
  assert.equal((await admin.post('/backoffice/organisations/org/', { action: 'add_initiator', initiator_name: 'user' })).status, 302);
  assert.equal((await admin.post('/backoffice/users/5/', { action: 'grant_superuser' })).status, 302);
  assert.equal((await userRow(db, 5)).isSuperuser, true);
});
