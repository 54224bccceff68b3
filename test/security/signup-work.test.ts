import assert from 'node:assert/strict';
import { test } from 'node:test';
import { outbox, users } from '../../src/db/schema/index.js';
import { passwordWork } from '../../src/core/users/passwords.js';
import { Browser } from '../me/accounts/client.js';
import { basicWorld, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

const fields = (username: string, email: string) => ({ username, email, password1: 'a-long-secret', password2: 'a-long-secret', terms_of_use: 'on' });

test('F13: signing up with a registered e-mail costs the same work as with a new one (hashes, statements, one mail), and answers the same', async () => {
  const t = await createTestApp();
  await load(t.db, basicWorld());
  /** The work one signup does, counted (never timed): argon2id hashes, SQL statements, mails queued. */
  const signup = async (username: string, email: string) => {
    const browser = new Browser(t.app);
    await browser.get('/accounts/signup/');
    const [hashes, statements, mails] = [passwordWork.hashes, t.database.stats.queries, (await t.db.select().from(outbox)).length];
    const answer = await browser.post('/accounts/signup/', fields(username, email));
    const work = { hashes: passwordWork.hashes - hashes, statements: t.database.stats.queries - statements - 1 };
    return { ...work, mails: (await t.db.select().from(outbox)).length - mails, status: answer.status, text: answer.text.replace(/value="[^"]*"/g, '') };
  };
  const registered = await signup('newcomer', 'USER@example.org');
  const fresh = await signup('newcomer', 'newcomer@example.org');
  assert.deepEqual({ ...registered, text: undefined }, { ...fresh, text: undefined });
  assert.deepEqual([fresh.hashes, fresh.mails, fresh.status], [1, 1, 200], 'one argon2id hash and one mail each');
  assert.equal(registered.text, fresh.text, 'the same page');
  assert.equal((await t.db.select().from(users)).length, 7, 'only the new address got an account');
});
