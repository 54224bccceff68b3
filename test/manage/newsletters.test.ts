import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq, inArray } from 'drizzle-orm';
import { follows, newsletters, outbox, users } from '../../src/db/schema/index.js';
import { reportNewsletterDeliveries } from '../../src/manage/newsletters/services.js';
import { createMailDelivery } from '../../src/mail/delivery.js';
import { Browser } from '../me/accounts/client.js';
import { startSmtpServer } from '../mail/smtp.js';
import { dashboardApp, dashboardWorld, signedIn } from './world.js';

const PATH = '/org/dashboard/communication/newsletters/create/';
const LIST = '/org/dashboard/communication/newsletters/';

test("an initiator sends a newsletter to the project's opted-in followers; the list shows it delivering, then how many were delivered", async () => {
  const world = dashboardWorld();
  const { app, db, config } = await dashboardApp({
    ...world,
    follows: [{ creator: 5, project: 1 }, { creator: 6, project: 1 }, { creator: 4, project: 1, enabled: false }, { creator: 7, project: 4 }],
  });
  await db.update(users).set({ getNewsletters: true }).where(inArray(users.id, [3, 4, 5, 7]));

  assert.equal((await new Browser(app).get(PATH)).location, `/accounts/login/?next=${PATH}`);
  for (const [name, path] of [['moderator', PATH], ['other', PATH], ['user', LIST], ['other', LIST], ['moderator', LIST]]) {
    assert.equal((await (await signedIn(app, name)).get(path)).status, 403, name);
  }
  const initiator = await signedIn(app, 'initiator');
  const form = await initiator.get(`${PATH}?project=1`);
  assert.equal(form.status, 200);
  assert.match(form.text, /<option value="1" selected>Project<\/option>/);
  assert.doesNotMatch(form.text, /Foreign project/, 'only the organisation’s projects');
  assert.equal((await initiator.post(PATH, { sender_name: 'City', project: '1', subject: 'News', body: '<p>x</p>' }, false)).status, 403, 'CSRF');

  const bad = await initiator.post(PATH, { sender_name: '', sender_email: 'nope', project: '4', subject: 'Kept subject', body: '<p><img src="/media/a.png"></p>' });
  assert.equal(bad.status, 400);
  for (const name of ['sender_name', 'sender_email', 'project', 'body']) assert.match(bad.text, new RegExp(`id="id_${name}_errors"`), name);
  assert.match(bad.text, /value="Kept subject"/);
  assert.equal((await db.select().from(newsletters)).length, 0, 'nothing stored');

  const sent = await initiator.post(PATH, { sender_name: 'Stadt Grünau', sender_email: 'team@example.org', project: '1', subject: 'News from the project', body: '<p>Hello <a href="/org/projects/project/">neighbours</a></p><p>Second</p>' });
  assert.equal(sent.location, '/org/dashboard/communication/newsletters/?done=newsletter_sent');
  const mails = await db.select().from(outbox).where(eq(outbox.kind, 'newsletter'));
  assert.deepEqual(mails.map((m) => m.recipient).sort(), ['moderator@example.org', 'user@example.org'], 'opted-in followers of that project only');
  assert.match(String(mails[0].html), /href="http:\/\/localhost:80\/org\/projects\/project\/"/);
  assert.match(mails[0].body, /Hello neighbours\n+Second/);
  assert.deepEqual([mails[0].senderName, mails[0].replyTo], ['Stadt Grünau', 'team@example.org']);

  assert.match((await initiator.get('/org/dashboard/communication/newsletters/?done=newsletter_sent')).text, /News from the project[\s\S]*0 of 2 e-mails sent \(delivering…\)/);
  const german = await signedIn(app, 'coinit');
  assert.match((await german.get(LIST)).text, /0 von 2 E-Mails versandt \(wird zugestellt…\)/);
  const printed: string[] = [];
  const delivery = createMailDelivery({ db, mailDir: `${config.dataDir}/mail`, from: 'Allmende <noreply@example.org>', print: (text) => printed.push(text) });
  delivery.kick();
  await delivery.idle();
  await delivery.close();
  const delivered = (await initiator.get(LIST)).text;
  assert.match(delivered, /2 of 2 e-mails sent/);
  assert.doesNotMatch(delivered, /delivering/);
  assert.match((await german.get(LIST)).text, /2 von 2 E-Mails versandt/);
  for (const name of ['user', 'other']) assert.equal((await (await signedIn(app, name)).get(LIST)).status, 403, `${name} after sending`);
});

test('after a newsletter went out, its sender gets one delivery report with the count, in their language; failures count as not sent (§B18.3)', async () => {
  const world = dashboardWorld();
  const { app, db } = await dashboardApp({ ...world, follows: [{ creator: 5, project: 1 }, { creator: 3, project: 1 }] });
  await db.update(users).set({ getNewsletters: true }).where(inArray(users.id, [3, 5]));
  const smtp = await startSmtpServer({ reject: /^<?user@/ });
  const delivery = createMailDelivery({ db, smtpUrl: smtp.url, from: 'a@example.org', afterNewsletterBatch: (ids) => reportNewsletterDeliveries(db, ids, 'https://allmende.example') });
  const deliver = async () => {
    delivery.kick();
    await delivery.idle();
  };
  const reports = () => db.select().from(outbox).where(eq(outbox.kind, 'newsletter_report')).orderBy(outbox.id);
  const initiator = await signedIn(app, 'initiator');
  assert.equal((await initiator.post(PATH, { sender_name: 'City', project: '1', subject: 'Spring news', body: '<p>Hi</p>' })).status, 302);
  assert.equal((await reports()).length, 0, 'no report while mails wait');
  await deliver();
  const [report, ...more] = await reports();
  assert.equal(more.length, 0);
  assert.equal(report.recipient, 'initiator@example.org');
  assert.equal(report.subject, 'Delivery report: Spring news');
  assert.match(report.body, /your newsletter "Spring news" to the followers of the project "Project" has gone out: 1 of 2 e-mails were sent\./);
  assert.match(report.body, /Your newsletters: https:\/\/allmende\.example\/org\/dashboard\/communication\/newsletters\//);
  assert.ok(report.sentAt, 'the report itself is delivered in the same round');
  await db.update(outbox).set({ sentAt: null, attempts: 0, nextAttemptAt: null }).where(eq(outbox.kind, 'newsletter'));
  await deliver();
  await delivery.close();
  assert.equal((await reports()).length, 1, 'sent once, also when mails of the newsletter go out again');
  const list = (await initiator.get(LIST)).text;
  assert.match(list, /Spring news[\s\S]*1 of 2 e-mails sent/, 'the list counts as the report does: the refused mail is given up');
  assert.doesNotMatch(list, /delivering/);

  const german = await signedIn(app, 'coinit');
  await db.delete(follows);
  assert.equal((await german.post(PATH, { sender_name: 'Stadt', project: '1', subject: 'Leer', body: '<p>Hallo</p>' })).status, 302);
  const last = (await reports()).at(-1);
  assert.equal(last?.recipient, 'coinit@example.org');
  assert.equal(last?.subject, 'Versandbericht: Leer');
  assert.match(String(last?.body), /0 von 0 E-Mails wurden versandt/, 'nobody to send to: reported at once');
});

test('the newsletter list shows delivery in a constant number of statements, however many newsletters', async () => {
  const { app, db, database } = await dashboardApp({ ...dashboardWorld(), follows: [{ creator: 5, project: 1 }] });
  await db.update(users).set({ getNewsletters: true }).where(inArray(users.id, [5]));
  const initiator = await signedIn(app, 'initiator');
  const send = async (subject: string) => assert.equal((await initiator.post(PATH, { sender_name: 'City', project: '1', subject, body: '<p>x</p>' })).status, 302);
  const statements = async () => {
    const before = database.stats.queries;
    const page = await initiator.get(LIST);
    assert.equal(page.status, 200);
    return { statements: database.stats.queries - before, delivering: page.text.split('delivering…').length - 1 };
  };
  await send('First');
  const one = await statements();
  for (const subject of ['Second', 'Third', 'Fourth']) await send(subject);
  const four = await statements();
  assert.deepEqual([one.delivering, four.delivering], [1, 4]);
  assert.equal(four.statements, one.statements, '1 and 4 newsletters take the same statements');
});
