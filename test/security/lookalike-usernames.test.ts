import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { users } from '../../src/db/schema/index.js';
import { Browser } from '../me/accounts/client.js';
import { basicWorld, load, tokenHeader } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

const FULL_WIDTH_USER = 'ｕｓｅｒ'; // U+FF55 U+FF53 U+FF45 U+FF52: NFKC folds it to "user"
const FULL_WIDTH_ADMIN = 'ａｄｍｉｎ'; // folds to "admin" (5 characters, as a new name needs: issue 36.8)

async function world() {
  const t = await createTestApp();
  await load(t.db, basicWorld());
  return t;
}

test('issue 21 finding 12: signup, settings and the app refuse a full-width look-alike of a taken username', async () => {
  const { app, db, request } = await world();
  const visitor = new Browser(app);
  await visitor.get('/accounts/signup/');
  const signup = await visitor.post('/accounts/signup/', { username: FULL_WIDTH_ADMIN, email: 'lookalike@example.org', password1: 'a-long-secret-1', password2: 'a-long-secret-1', terms_of_use: 'on' });
  assert.equal(signup.status, 400);
  assert.match(signup.text, /A user with that username already exists\./);

  const other = new Browser(app);
  await other.login('other', 'other-password');
  const rename = await other.postMultipart('/account/', { username: 'ＡＤＭＩＮ', email: 'other@example.org', language: 'en', bio: '' });
  assert.equal(rename.status, 400);
  assert.match(rename.text, /A user with that username already exists\./);

  const api = await request({ method: 'PATCH', url: '/api/account/', headers: await tokenHeader(db, 6), payload: { username: FULL_WIDTH_ADMIN } });
  assert.notEqual(api.status, 200);
  assert.ok(api.status < 500, `a clear 4xx, not ${api.status}`);
  assert.equal((await db.select().from(users).where(eq(users.id, 6)))[0].username, 'other');
  // The database refuses it too, whatever the way in.
  await assert.rejects(db.insert(users).values({ username: 'Ｕser', email: 'direct@example.org' }));
});

test('issue 21 finding 12: the migration renames later look-alikes of an existing name, as the earlier name migration did', async () => {
  const { db } = await world();
  await db.execute(sql.raw('DROP INDEX users_username_folded_key'));
  await db.insert(users).values({ id: 50, username: FULL_WIDTH_USER, email: 'fw@example.org' });
  await db.execute(sql.raw(readFileSync(new URL('../../src/db/migrations/0017_username_fold_data.sql', import.meta.url), 'utf8')));
  await db.execute(sql.raw(readFileSync(new URL('../../src/db/migrations/0018_username_fold.sql', import.meta.url), 'utf8')));
  const names = Object.fromEntries((await db.select({ id: users.id, username: users.username }).from(users)).map((u) => [u.id, u.username]));
  assert.equal(names[5], 'user', 'the older user keeps the name');
  assert.equal(names[50], `${FULL_WIDTH_USER}-50`);
});
