import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, count, eq, inArray } from 'drizzle-orm';
import { users } from '../../src/db/schema/index.js';
import { dashboardApp, signedIn } from '../manage/world.js';

/** The answer of a change that was made (a refused one is a 400, or a 403 or login redirect once the operator is no superuser). */
const done = (answer: { location: string | undefined }) => /\?done=/.test(answer.location ?? '');

/**
 * Two superusers ("admin" 1 and "user" 5) take each other's status at the same moment, through
 * the back-office's forms. On PostgreSQL the requests run at once; on PGlite their statements
 * interleave. Either way one must be refused: the last active superuser is never taken away.
 */
async function twoSuperusers() {
  const t = await dashboardApp();
  await t.db.update(users).set({ isSuperuser: true, isStaff: true }).where(eq(users.id, 5));
  const [admin, user] = [await signedIn(t.app, 'admin'), await signedIn(t.app, 'user')];
  const left = async () => (await t.db.select({ n: count() }).from(users).where(and(eq(users.isSuperuser, true), eq(users.isActive, true))))[0].n;
  return { ...t, admin, user, left };
}

test('issue 36 finding 4: two superusers revoking each other at once leave one', async () => {
  const { db, admin, user, left } = await twoSuperusers();
  for (let round = 0; round < 5; round++) {
    await db.update(users).set({ isSuperuser: true }).where(inArray(users.id, [1, 5]));
    const answers = await Promise.all([admin.post('/backoffice/users/5/', { action: 'revoke_superuser' }), user.post('/backoffice/users/1/', { action: 'revoke_superuser' })]);
    assert.equal(answers.filter(done).length, 1, `round ${round}: one is done, the other refused`);
    assert.equal(await left(), 1, `round ${round}`);
  }
});

test('issue 36 finding 4: two superusers deactivating each other at once leave one', async () => {
  const { admin, user, left } = await twoSuperusers();
  const answers = await Promise.all([admin.post('/backoffice/users/', { user_id: '5', action: 'deactivate' }), user.post('/backoffice/users/', { user_id: '1', action: 'deactivate' })]);
  assert.equal(answers.filter(done).length, 1);
  assert.equal(await left(), 1);
});

test('issue 36 finding 4: two superusers deleting each other at once leave one', async () => {
  const { admin, user, left } = await twoSuperusers();
  const answers = await Promise.all([admin.post('/backoffice/users/5/delete/', {}), user.post('/backoffice/users/1/delete/', {})]);
  assert.equal(answers.filter(done).length, 1);
  assert.equal(await left(), 1);
});
