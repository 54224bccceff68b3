import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { outbox, users } from '../../src/db/schema/index.js';
import { Browser, lastMail } from '../me/accounts/client.js';
import { basicWorld, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

async function signedInUser() {
  const t = await createTestApp();
  await load(t.db, basicWorld());
  const browser = new Browser(t.app);
  await browser.login('user', 'user-password');
  const change = (email: string) => browser.postMultipart('/account/', { username: 'user', email, current_password: 'user-password', language: 'en', bio: '' });
  return { ...t, browser, change };
}

/** The settings page after a change, with the address typed replaced, so that two answers compare. */
// The bell's live position is the whole channel's, moved by every write between the two pages.
const normalised = (text: string, email: string) =>
  text.replaceAll(email, 'ADDRESS').replace(/value="[A-Za-z0-9_-]{20,}"/g, 'value="TOKEN"').replace(/data-live-last="[^"]*"/g, 'data-live-last="POSITION"');

test('issue 21 finding 8: the settings form answers the same for a free and a taken address; the owner of the taken one is told', async () => {
  const { db, browser, change } = await signedInUser();
  const free = await change('free-address@example.org');
  const freePage = await browser.get(String(free.location));
  const taken = await change('ADMIN@example.org');
  assert.equal(taken.status, free.status);
  assert.equal(taken.location, free.location);
  const takenPage = await browser.get(String(taken.location));
  assert.equal(normalised(takenPage.text, 'ADMIN@example.org'), normalised(freePage.text, 'free-address@example.org'));

  assert.equal((await lastMail(db, 'ADMIN@example.org'))?.kind, undefined, 'no mail to the address as typed…');
  assert.equal((await lastMail(db, 'admin@example.org'))?.kind, 'account_email_in_use', '…but its owner is told');
  assert.equal((await db.select().from(outbox).where(eq(outbox.kind, 'account_confirm_email'))).length, 1, 'only the free address got a confirmation link');
  const [row] = await db.select().from(users).where(eq(users.id, 5));
  assert.equal(row.email, 'user@example.org');
});

test('issue 21 finding 8: asking for new addresses is throttled', async () => {
  const { change } = await signedInUser();
  for (let i = 0; i < 5; i++) assert.equal((await change(`probe-${i}@example.org`)).status, 302, `attempt ${i + 1}`);
  const throttled = await change('probe-6@example.org');
  assert.equal(throttled.status, 429);
  assert.ok(Number(throttled.headers['retry-after']) > 0);
});
