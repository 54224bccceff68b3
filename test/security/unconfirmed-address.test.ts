import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { organisationInitiators, outbox, projectModerators, projectParticipants, projects, users } from '../../src/db/schema/index.js';
import { lastMail, linkIn } from '../me/accounts/client.js';
import { dashboardApp, signedIn } from '../manage/world.js';

const MAYOR = 'mayor@city.example';

/** The squatter (user 5, "user") types the mayor's address into his settings and never confirms it. */
async function squatted() {
  const t = await dashboardApp();
  await t.db.update(projects).set({ access: 'PRIVATE' }).where(eq(projects.id, 2));
  const squatter = await signedIn(t.app, 'user');
  const saved = await squatter.postMultipart('/account/', { username: 'user', email: MAYOR, current_password: 'user-password', language: 'en', bio: '' });
  assert.equal(saved.status, 302);
  return { ...t, squatter };
}

test('issue 21 finding 2: a new address in the settings waits for its confirmation; the old one stays and is told', async () => {
  const { db, squatter } = await squatted();
  const [row] = await db.select().from(users).where(eq(users.id, 5));
  assert.equal(row.email, 'user@example.org', 'the account keeps its confirmed address');
  assert.equal(row.emailVerified, true);
  assert.equal(row.pendingEmail, MAYOR);
  const notice = await lastMail(db, 'user@example.org');
  assert.equal(notice?.kind, 'account_email_change');
  assert.match(notice?.body ?? '', /mayor@city\.example/);
  assert.match((await squatter.get('/account/')).text, /We have sent a confirmation link to mayor@city\.example/);

  // Only the link sent to the new address changes it.
  const link = linkIn((await lastMail(db, MAYOR))?.body ?? '', '/accounts/confirm-email/');
  assert.equal((await squatter.post(link, {})).status, 302);
  const [after] = await db.select().from(users).where(eq(users.id, 5));
  assert.deepEqual([after.email, after.pendingEmail, after.emailVerified], [MAYOR, null, true]);
  assert.equal((await squatter.post(link, {})).status, 404, 'the link is used once');
});

test('issue 21 finding 2: an unconfirmed address does not pick its typist in the back-office, Add participants or invitations', async () => {
  const { app, db, squatter } = await squatted();
  const admin = await signedIn(app, 'admin');
  const appoint = await admin.post('/backoffice/organisations/other-org/', { action: 'add_initiator', initiator_name: MAYOR });
  assert.equal(appoint.status, 400);
  assert.match(appoint.text, /No user with this username or e-mail address./);
  assert.equal((await db.select().from(organisationInitiators).where(eq(organisationInitiators.userId, 5))).length, 0);

  const initiator = await signedIn(app, 'initiator');
  const add = await initiator.post('/org/dashboard/projects/draft-plan/participants/', { action: 'add', add_existing: MAYOR });
  assert.equal(add.status, 400);
  assert.equal((await db.select().from(projectParticipants).where(eq(projectParticipants.userId, 5))).length, 0);

  await initiator.post('/org/dashboard/projects/draft-plan/moderators/', { action: 'invite', add_users: MAYOR });
  const [invite] = await db.select().from(outbox).where(and(eq(outbox.recipient, MAYOR), eq(outbox.kind, 'invite_moderator')));
  const inviteLink = linkIn(invite.body, '/org/projects/moderator-invites/');
  const refused = await squatter.post(inviteLink, { action: 'accept' });
  assert.equal(refused.status, 403);
  assert.equal((await db.select().from(projectModerators).where(eq(projectModerators.userId, 5))).length, 0);
});

test('issue 21 finding 2: an account that never confirmed its signup address cannot accept an invitation to it', async () => {
  const { app, db } = await dashboardApp();
  await db.update(projects).set({ access: 'PRIVATE' }).where(eq(projects.id, 2));
  await db.update(users).set({ email: MAYOR, emailVerified: false }).where(eq(users.id, 5));
  const initiator = await signedIn(app, 'initiator');
  await initiator.post('/org/dashboard/projects/draft-plan/participants/', { action: 'invite', add_users: MAYOR });
  const [invite] = await db.select().from(outbox).where(and(eq(outbox.recipient, MAYOR), eq(outbox.kind, 'invite_participant')));
  // An unconfirmed account cannot log in with its password, but a session (e.g. from social login) may exist.
  await db.update(users).set({ emailVerified: true }).where(eq(users.id, 5));
  const squatter = await signedIn(app, 'user');
  await db.update(users).set({ emailVerified: false }).where(eq(users.id, 5));
  const refused = await squatter.post(linkIn(invite.body, '/org/projects/participant-invites/'), { action: 'accept' });
  assert.equal(refused.status, 403);
  assert.equal((await db.select().from(projectParticipants).where(eq(projectParticipants.userId, 5))).length, 0);
});
