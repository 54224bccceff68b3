import assert from 'node:assert/strict';
import { asc } from 'drizzle-orm';
import { test } from 'node:test';
import { outbox } from '../../src/db/schema/index.js';
import { createMailDelivery, MAX_ATTEMPTS } from '../../src/mail/delivery.js';
import { queueMail } from '../../src/mail/outbox.js';
import { basicWorld, load, tokenHeader } from '../fixtures.js';
import { createTestApp } from '../helpers.js';
import { startSmtpServer } from './smtp.js';

test('without SMTP_URL mail stays in the outbox', async () => {
  const { db, request } = await createTestApp();
  await load(db, { ...basicWorld(), ideas: [{ id: 1, module: 1, creator: 4, name: 'Idea', description: 'x', category: 1 }] });
  const response = await request({ method: 'POST', url: '/api/contenttypes/4/objects/1/comments/', headers: await tokenHeader(db, 5), payload: { comment: 'hi' } });
  assert.equal(response.status, 201);
  const rows = await db.select().from(outbox);
  assert.equal(rows.length, 1);
  assert.equal(rows[0].sentAt, null);
});

test('the delivery sends queued mail by SMTP and marks it sent; a refused recipient records the error', async () => {
  const smtp = await startSmtpServer({ reject: /refused@/ });
  const { db } = await createTestApp();
  await queueMail(db, { to: 'a@example.org', subject: 'Hello', body: 'Body text', kind: 'test' });
  await queueMail(db, { to: 'refused@example.org', subject: 'Nope', body: 'x', kind: 'test' });
  await queueMail(db, { to: 'b@example.org', subject: 'Grüße', body: 'Zweiter', kind: 'test' });
  const delivery = createMailDelivery({ db, smtpUrl: smtp.url, from: 'Allmende <noreply@example.org>' });
  delivery.kick();
  await delivery.idle();
  await delivery.close();
  assert.deepEqual(smtp.received.map((m) => m.to), [['<a@example.org>'], ['<b@example.org>']]);
  assert.match(smtp.received[0].data, /Subject: Hello/);
  assert.match(smtp.received[0].data, /Body text/);
  const rows = await db.select().from(outbox).orderBy(asc(outbox.id));
  assert.ok(rows[0].sentAt instanceof Date);
  assert.equal(rows[1].sentAt, null);
  assert.match(String(rows[1].error), /550/);
  assert.equal(rows[1].attempts, MAX_ATTEMPTS, 'a permanent refusal is given up at once');
  assert.ok(rows[2].sentAt instanceof Date);
});

test('a temporary failure is tried again later, not at once', async () => {
  const options: { defer: RegExp | null } = { defer: /later@/ };
  const smtp = await startSmtpServer(options);
  const { db } = await createTestApp();
  await queueMail(db, { to: 'later@example.org', subject: 'Wait', body: 'x', kind: 'test' });
  const delivery = createMailDelivery({ db, smtpUrl: smtp.url, from: 'a@example.org' });
  const deliver = async () => {
    delivery.kick();
    await delivery.idle();
  };
  await deliver();
  let [row] = await db.select().from(outbox);
  assert.equal(row.sentAt, null);
  assert.equal(row.attempts, 1);
  assert.match(String(row.error), /451/);
  assert.ok(row.nextAttemptAt && row.nextAttemptAt.getTime() > Date.now(), 'the next try is in the future');

  options.defer = null;
  await deliver();
  assert.equal(smtp.received.length, 0, 'not tried before its time');

  await db.update(outbox).set({ nextAttemptAt: new Date(Date.now() - 1000) });
  await deliver();
  await delivery.close();
  [row] = await db.select().from(outbox);
  assert.ok(row.sentAt instanceof Date);
  assert.equal(smtp.received.length, 1);
});

test('a mail is sent once even when two deliveries run at the same time', async () => {
  const smtp = await startSmtpServer();
  const { db } = await createTestApp();
  for (let i = 0; i < 6; i++) await queueMail(db, { to: `u${i}@example.org`, subject: `m${i}`, body: 'x', kind: 'test' });
  const one = createMailDelivery({ db, smtpUrl: smtp.url, from: 'a@example.org', batchSize: 2 });
  const two = createMailDelivery({ db, smtpUrl: smtp.url, from: 'a@example.org', batchSize: 2 });
  one.kick();
  two.kick();
  await Promise.all([one.idle(), two.idle()]);
  await Promise.all([one.close(), two.close()]);
  assert.equal(smtp.received.length, 6);
  assert.equal(new Set(smtp.received.map((m) => m.to[0])).size, 6);
});

test('an unreachable SMTP server never fails the request', async () => {
  const smtp = await startSmtpServer();
  const url = smtp.url;
  await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
  const { db, request } = await createTestApp({ smtpUrl: url });
  await load(db, { ...basicWorld(), ideas: [{ id: 1, module: 1, creator: 4, name: 'Idea', description: 'x', category: 1 }] });
  const response = await request({ method: 'POST', url: '/api/contenttypes/4/objects/1/comments/', headers: await tokenHeader(db, 5), payload: { comment: 'hi' } });
  assert.equal(response.status, 201);
});

test('with SMTP_URL a write request kicks the delivery', async () => {
  const smtp = await startSmtpServer();
  const { db, request } = await createTestApp({ smtpUrl: smtp.url });
  await load(db, { ...basicWorld(), ideas: [{ id: 1, module: 1, creator: 4, name: 'Idea', description: 'x', category: 1 }] });
  const response = await request({ method: 'POST', url: '/api/contenttypes/4/objects/1/comments/', headers: await tokenHeader(db, 5), payload: { comment: 'hello' } });
  assert.equal(response.status, 201);
  // Delivery runs after the response; wait for the message itself, not for a time.
  await smtp.firstMail;
  assert.equal(smtp.received.length, 1);
  assert.deepEqual(smtp.received[0].to, ['<member@example.org>']);
});
