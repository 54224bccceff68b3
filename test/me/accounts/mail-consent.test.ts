import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, eq, inArray } from 'drizzle-orm';
import { newsletterOptouts, notificationOptouts, outbox, users } from '../../../src/db/schema/index.js';
import { createMailDelivery } from '../../../src/mail/delivery.js';
import { queueMail } from '../../../src/mail/outbox.js';
import { NOTIFICATION_KINDS } from '../../../src/mail/notices.js';
import { notificationFooters } from '../../../src/me/accounts/notification-links.js';
import { Browser } from './client.js';
import { startSmtpServer } from '../../mail/smtp.js';
import { tokenHeader } from '../../fixtures.js';
import { dashboardApp, dashboardWorld, signedIn } from '../../manage/world.js';

const SEND = '/org/dashboard/communication/newsletters/create/';

async function consentApp() {
  const world = dashboardWorld();
  const t = await dashboardApp({
    ...world,
    ideas: [{ id: 1, module: 1, creator: 5, name: 'My idea', description: 'x', category: 1 }],
    follows: [{ creator: 5, project: 1 }, { creator: 3, project: 1 }, { creator: 5, project: 4 }],
  });
  await t.db.update(users).set({ getNewsletters: true }).where(inArray(users.id, [3, 5]));
  return t;
}

const newsletterMails = (t: Awaited<ReturnType<typeof consentApp>>) => t.db.select().from(outbox).where(eq(outbox.kind, 'newsletter')).orderBy(outbox.id);

test('every newsletter carries its receiver’s unsubscribe link and the RFC 8058 headers; one click without login withdraws consent for that organisation', async () => {
  const t = await consentApp();
  const initiator = await signedIn(t.app, 'initiator');
  assert.equal((await initiator.post(SEND, { sender_name: 'City', project: '1', subject: 'First', body: '<p>Hi</p>' })).status, 302);
  const [mail] = (await newsletterMails(t)).filter((m) => m.recipient === 'user@example.org');
  assert.ok(mail.unsubscribeUrl, 'the outbox keeps the address');
  const path = new URL(mail.unsubscribeUrl).pathname;
  assert.match(path, /^\/accounts\/unsubscribe\/[\w-]+\.[\w-]+\/$/);
  assert.ok(mail.body.includes(`Unsubscribe from the newsletters of Organisation: ${mail.unsubscribeUrl}`));
  assert.match(String(mail.html), new RegExp(`<a href="${mail.unsubscribeUrl.replace(/[.?]/g, '\\$&')}">Unsubscribe from the newsletters of Organisation</a>`));

  const smtp = await startSmtpServer();
  const delivery = createMailDelivery({ db: t.db, smtpUrl: smtp.url, from: 'a@example.org' });
  delivery.kick();
  await delivery.idle();
  await delivery.close();
  const sent = smtp.received.find((m) => m.to.includes('<user@example.org>'));
  assert.ok(sent);
  assert.ok(sent.data.replace(/\n\s+/g, ' ').includes(`List-Unsubscribe: <${mail.unsubscribeUrl}>`), sent.data);
  assert.match(sent.data, /List-Unsubscribe-Post: List-Unsubscribe=One-Click/);

  const anonymous = new Browser(t.app);
  const asked = await anonymous.get(path);
  assert.equal(asked.status, 200);
  assert.match(asked.text, /stop receiving newsletters from Organisation/);
  assert.equal((await t.db.select().from(newsletterOptouts)).length, 0, 'a GET (a mail scanner) changes nothing');
  // What a mail program sends (RFC 8058): a POST without cookies or form token.
  const oneClick = await t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
  assert.equal(oneClick.statusCode, 200);
  assert.match(oneClick.body, /You will no longer receive newsletters from Organisation/);
  assert.equal((await anonymous.post(path, {}, false)).status, 200, 'twice is fine');
  const optouts = await t.db.select().from(newsletterOptouts);
  assert.deepEqual(optouts.map((o) => [o.userId, o.organisationId]), [[5, 1]]);
  assert.ok(optouts[0].created instanceof Date, 'the withdrawal is recorded with its moment');

  assert.equal((await anonymous.get(path.replace(/\.[\w-]+\/$/, '.forged/'))).status, 404, 'a forged link');
  assert.equal((await initiator.post(SEND, { sender_name: 'City', project: '1', subject: 'Second', body: '<p>Again</p>' })).status, 302);
  const second = (await newsletterMails(t)).filter((m) => m.subject === 'Second');
  assert.deepEqual(second.map((m) => m.recipient), ['moderator@example.org'], 'the user who withdrew gets no more');
});

test('the account settings switch newsletters per organisation and each kind of notification e-mail, in English and German', async () => {
  const t = await consentApp();
  assert.equal((await new Browser(t.app).get('/account/notifications/')).location, '/accounts/login/?next=/account/notifications/');
  const user = await signedIn(t.app, 'user');
  assert.match((await user.get('/account/')).text, /href="\/account\/notifications\/"/);
  const page = await user.get('/account/notifications/');
  assert.match(page.text, /id="id_get_newsletters" name="get_newsletters" checked/);
  assert.match(page.text, /Newsletters from Organisation/);
  assert.match(page.text, /Newsletters from Other organisation/);
  assert.match(page.text, /name="notification" value="comment_on_content" checked/);
  assert.equal((await user.post('/account/notifications/', { get_newsletters: 'on' }, false)).status, 403, 'CSRF');

  // Keep newsletters, but not from organisation 2; no e-mail about comments on my contributions.
  const kinds = Object.keys(NOTIFICATION_KINDS).filter((kind) => kind !== 'comment_on_content');
  const saved = await user.post('/account/notifications/', { get_newsletters: 'on', shown_organisation: ['1', '2'], organisation: '1', notification: kinds });
  assert.equal(saved.status, 302);
  assert.deepEqual((await t.db.select().from(newsletterOptouts)).map((o) => o.organisationId), [2]);
  assert.deepEqual((await t.db.select().from(notificationOptouts)).map((o) => o.kind), ['comment_on_content']);
  const after = await user.get('/account/notifications/');
  assert.match(after.text, /name="organisation" value="2"\/>/);
  assert.match(after.text, /name="notification" value="comment_on_content"\/>/);

  await t.app.inject({ method: 'POST', url: '/api/contenttypes/4/objects/1/comments/', headers: await tokenHeader(t.db, 4), payload: { comment: 'hi' } });
  const notices = await t.db.select().from(outbox).where(and(eq(outbox.recipient, 'user@example.org'), eq(outbox.kind, 'comment_on_content')));
  assert.equal(notices.length, 0, 'the turned-off kind is not sent');

  // Ticking it again gives consent back (the row goes).
  await user.post('/account/notifications/', { shown_organisation: ['1', '2'], organisation: ['1', '2'], notification: [...kinds, 'comment_on_content'] });
  assert.equal((await t.db.select().from(notificationOptouts)).length, 0);
  assert.equal((await t.db.select().from(newsletterOptouts)).length, 0);
  assert.equal((await t.db.select({ n: users.getNewsletters }).from(users).where(eq(users.id, 5)))[0].n, false, 'newsletters as a whole are off now');
  await t.app.inject({ method: 'POST', url: '/api/contenttypes/4/objects/1/comments/', headers: await tokenHeader(t.db, 4), payload: { comment: 'again' } });
  assert.equal((await t.db.select().from(outbox).where(and(eq(outbox.recipient, 'user@example.org'), eq(outbox.kind, 'comment_on_content')))).length, 1);

  const german = await signedIn(t.app, 'coinit');
  const de = await german.get('/account/notifications/');
  assert.match(de.text, /E-Mail-Benachrichtigungen und Newsletter/);
  assert.match(de.text, /Jemand kommentiert meinen Beitrag/);
});

test('every notification e-mail goes out with the RFC 8058 headers and a footer to the settings; one click without login turns that kind off, in the receiver’s language', async () => {
  const t = await consentApp();
  await t.app.inject({ method: 'POST', url: '/api/contenttypes/4/objects/1/comments/', headers: await tokenHeader(t.db, 4), payload: { comment: 'hi' } });
  const smtp = await startSmtpServer();
  const delivery = createMailDelivery({ db: t.db, smtpUrl: smtp.url, from: 'a@example.org', notificationFooter: notificationFooters(t.config, t.db) });
  delivery.kick();
  await delivery.idle();
  await delivery.close();
  const [mail] = await t.db.select().from(outbox).where(and(eq(outbox.recipient, 'user@example.org'), eq(outbox.kind, 'comment_on_content')));
  assert.ok(mail.unsubscribeUrl, 'the outbox keeps what was sent');
  const path = new URL(mail.unsubscribeUrl).pathname;
  assert.match(path, /^\/accounts\/notifications-off\/[\w-]+\.[\w-]+\/$/);
  assert.ok(mail.body.endsWith(`\n\n--\nYou get this e-mail because of your notification settings ("Someone comments on my contribution").\nChoose which e-mails you get: ${t.config.baseUrl}/account/notifications/\nStop e-mails of this kind: ${mail.unsubscribeUrl}`), mail.body);
  assert.match(String(mail.html), /<a href="[^"]+\/account\/notifications\/">Choose which e-mails you get<\/a> · <a href="[^"]+\/accounts\/notifications-off\/[^"]+">Stop e-mails of this kind<\/a><\/p><\/div><\/div><\/body><\/html>$/);
  const sent = smtp.received.find((m) => m.to.includes('<user@example.org>'));
  assert.ok(sent);
  assert.ok(sent.data.replace(/\n\s+/g, ' ').includes(`List-Unsubscribe: <${mail.unsubscribeUrl}>`), sent.data);
  assert.match(sent.data, /List-Unsubscribe-Post: List-Unsubscribe=One-Click/);
  const others = await t.db.select().from(outbox).where(eq(outbox.kind, 'account_confirm_email'));
  assert.ok(others.every((m) => m.unsubscribeUrl === null), 'account mails get no notification footer');

  const anonymous = new Browser(t.app);
  assert.match((await anonymous.get(path)).text, /Do you want to stop the e-mails &quot;Someone comments on my contribution&quot;\?/);
  assert.equal((await t.db.select().from(notificationOptouts)).length, 0, 'a GET (a mail scanner) changes nothing');
  const oneClick = await t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
  assert.equal(oneClick.statusCode, 200);
  assert.match(oneClick.body, /You will no longer receive the e-mails/);
  assert.deepEqual((await t.db.select().from(notificationOptouts)).map((o) => [o.userId, o.kind]), [[5, 'comment_on_content']]);
  assert.equal((await anonymous.get(path.replace(/\.[\w-]+\/$/, '.forged/'))).status, 404, 'a forged link');
  assert.equal((await anonymous.get('/accounts/unsubscribe/' + path.split('/')[3] + '/')).status, 404, 'a notification link is no newsletter link');

  // A German receiver (coinit) of a new project's notice reads her footer in German.
  const footer = await notificationFooters(t.config, t.db)('coinit@example.org', 'new_project');
  assert.match(footer?.text ?? '', /^Sie erhalten diese E-Mail wegen Ihrer Benachrichtigungseinstellungen \(„In meiner Organisation wird ein neues Projekt/);
  assert.equal(await notificationFooters(t.config, t.db)('coinit@example.org', 'newsletter'), null);
});

test('every kind of notification e-mail (comments, feedback, blocked comment, phases, events, reports, projects, results) goes out with List-Unsubscribe, List-Unsubscribe-Post and the footer; account mails without', async () => {
  const t = await consentApp();
  const kinds = Object.keys(NOTIFICATION_KINDS);
  for (const kind of [...kinds, 'account_confirm_email']) await queueMail(t.db, { to: 'coinit@example.org', subject: kind, body: 'Hello', kind });
  const smtp = await startSmtpServer();
  const delivery = createMailDelivery({ db: t.db, smtpUrl: smtp.url, from: 'a@example.org', notificationFooter: notificationFooters(t.config, t.db) });
  delivery.kick();
  await delivery.idle();
  await delivery.close();
  const sent = (subject: string) => smtp.received.find((m) => m.to.includes('<coinit@example.org>') && m.data.includes(`Subject: ${subject}\n`))?.data.replace(/\n\s+/g, ' ') ?? '';
  for (const kind of kinds) {
    const data = sent(kind);
    assert.match(data, /List-Unsubscribe: <http[^>]+\/accounts\/notifications-off\/[^>]+>/, kind);
    assert.match(data, /List-Unsubscribe-Post: List-Unsubscribe=One-Click/, kind);
  }
  const stored = await t.db.select().from(outbox).where(eq(outbox.recipient, 'coinit@example.org'));
  for (const mail of stored)
    if (mail.kind === 'account_confirm_email') assert.equal(mail.body, 'Hello');
    else assert.match(mail.body, /\n--\nSie erhalten diese E-Mail wegen Ihrer Benachrichtigungseinstellungen[^]*E-Mails dieser Art abbestellen: http/, `${mail.kind}: the footer in the receiver's language`);
  assert.ok(sent('account_confirm_email'), 'the account mail went out');
  assert.doesNotMatch(sent('account_confirm_email'), /List-Unsubscribe/);
});
