import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { follows, outbox, projectInvites, projectModerators, projectParticipants, projects } from '../../src/db/schema/index.js';
import { Browser, lastMail, linkIn } from '../me/accounts/client.js';
import { dashboardApp, signedIn } from './world.js';

const MODERATORS = '/org/dashboard/projects/draft-plan/moderators/';
const PARTICIPANTS = '/org/dashboard/projects/draft-plan/participants/';

async function privateDraft() {
  const t = await dashboardApp();
  await t.db.update(projects).set({ access: 'PRIVATE' }).where(eq(projects.id, 2));
  return { ...t, initiator: await signedIn(t.app, 'initiator') };
}

test('inviting moderators: bad addresses refused beside the field, members and pending invitations skipped, each new address gets one e-mail', async () => {
  const { db, initiator } = await privateDraft();
  const bad = await initiator.post(MODERATORS, { action: 'invite', add_users: 'new@example.org, not-an-address' });
  assert.equal(bad.status, 400);
  assert.match(bad.text, /id="id_add_users_errors"[^>]*><li>Please enter correct email addresses, separated by commas./);
  assert.match(bad.text, /new@example.org, not-an-address/);
  assert.equal((await db.select().from(projectInvites)).length, 0);
  assert.match((await initiator.post(MODERATORS, { action: 'invite', add_users: '' })).text, /Please enter email addresses./);

  await db.insert(projectModerators).values({ projectId: 2, userId: 3 });
  const sent = await initiator.post(MODERATORS, { action: 'invite', add_users: 'moderator@example.org, new@example.org, User@Example.org' });
  assert.equal(sent.status, 200);
  assert.match(sent.text, /2 invitations sent\./);
  assert.match(sent.text, /Already members: moderator@example.org/);
  const again = await initiator.post(MODERATORS, { action: 'invite', add_users: 'NEW@example.org' });
  assert.match(again.text, /Already invited: new@example.org/);
  assert.equal((await db.select().from(outbox).where(eq(outbox.kind, 'invite_moderator'))).length, 2);
  const mail = await lastMail(db, 'new@example.org');
  assert.match(mail?.subject ?? '', /Einladung zur Moderation des Projekts Draft plan/, 'an address without an account gets the organisation language');
  assert.match((await lastMail(db, 'User@Example.org'))?.subject ?? '', /Invitation to moderate the project Draft plan/);
});

test('an invitation is accepted only by the owner of the invited address; accepting as moderator makes him follow the project', async () => {
  const { app, db, initiator } = await privateDraft();
  await initiator.post(MODERATORS, { action: 'invite', add_users: 'user@example.org' });
  const link = linkIn((await lastMail(db, 'user@example.org'))?.body ?? '', '/org/projects/moderator-invites/');
  const anonymous = await new Browser(app).get(link);
  assert.equal(anonymous.status, 200);
  assert.match(anonymous.text, /Login/);
  const stranger = await signedIn(app, 'other');
  const refused = await stranger.post(link, { action: 'accept' });
  assert.equal(refused.status, 403);
  assert.match(refused.text, /This invitation was sent to another e-mail address./);
  const user = await signedIn(app, 'user');
  assert.equal((await user.post(link, {})).status, 400);
  const accepted = await user.post(link, { action: 'accept' });
  assert.equal(accepted.status, 200);
  assert.match(accepted.text, /You are now a moderator of Draft plan./);
  assert.match(accepted.text, /<h1>Invitation to moderate Draft plan<\/h1>/, 'the answer page keeps the invitation as its heading');
  assert.equal((await db.select().from(projectModerators).where(and(eq(projectModerators.projectId, 2), eq(projectModerators.userId, 5)))).length, 1);
  assert.equal((await db.select().from(follows).where(and(eq(follows.projectId, 2), eq(follows.creatorId, 5))))[0]?.enabled, true);
  assert.equal((await user.get(link)).status, 404, 'an invitation is used once');
  assert.equal((await user.get(link.replace('/org/', '/other-org/'))).status, 404);
});

test('participants: only for projects that are not public; invite, add registered users (welcomed), remove', async () => {
  const { app, db, initiator } = await privateDraft();
  assert.equal((await initiator.get('/org/dashboard/projects/project/participants/')).status, 404);
  assert.equal((await initiator.get(PARTICIPANTS)).status, 200);
  const unknown = await initiator.post(PARTICIPANTS, { action: 'add', add_existing: 'user, ghost' });
  assert.equal(unknown.status, 400);
  assert.match(unknown.text, /No user with the name or address: ghost/);
  assert.equal((await initiator.post(PARTICIPANTS, { action: 'add', add_existing: 'user other@example.org' })).location, `${PARTICIPANTS}?done=added`);
  const rows = await db.select().from(projectParticipants).where(eq(projectParticipants.projectId, 2));
  assert.deepEqual(rows.map((r) => r.userId).sort(), [5, 6]);
  assert.equal((await db.select().from(outbox).where(eq(outbox.kind, 'welcome_participant'))).length, 2);
  assert.equal((await initiator.post(PARTICIPANTS, { action: 'remove_member', user_id: '5' })).status, 302);
  assert.deepEqual((await db.select().from(projectParticipants).where(eq(projectParticipants.projectId, 2))).map((r) => r.userId), [6]);

  await initiator.post(PARTICIPANTS, { action: 'invite', add_users: 'member@example.org' });
  const [invite] = await db.select().from(projectInvites);
  const page = await initiator.get(PARTICIPANTS);
  assert.match(page.text, /member@example.org/);
  assert.equal((await initiator.post(PARTICIPANTS, { action: 'remove_invite', invite_id: String(invite.id) })).status, 302);
  assert.equal((await db.select().from(projectInvites)).length, 0);
  assert.equal((await initiator.post(PARTICIPANTS, { action: 'remove_member', user_id: 'abc' })).status, 400);

  await initiator.post(PARTICIPANTS, { action: 'invite', add_users: 'member@example.org' });
  const link = linkIn((await lastMail(db, 'member@example.org'))?.body ?? '', '/org/projects/participant-invites/');
  const member = await signedIn(app, 'member');
  const accepted = await member.post(link, { action: 'accept' });
  assert.match(accepted.text, /You are now a participant of Draft plan. The project can be seen once it is published./);
  assert.equal((await db.select().from(projectParticipants).where(and(eq(projectParticipants.projectId, 2), eq(projectParticipants.userId, 4)))).length, 1);
  const other = await signedIn(app, 'other');
  assert.equal((await other.get(PARTICIPANTS)).status, 403);
});

test('an invited newcomer registers from the invitation and the confirmation link brings him back to it; a foreign next is never followed', async () => {
  const { app, db, initiator } = await privateDraft();
  await initiator.post(MODERATORS, { action: 'invite', add_users: 'newcomer@example.org' });
  const link = linkIn((await lastMail(db, 'newcomer@example.org'))?.body ?? '', '/org/projects/moderator-invites/');
  const browser = new Browser(app);
  const register = /<a class="btn btn-secondary" href="([^"]+)">Register<\/a>/.exec((await browser.get(link)).text)?.[1] ?? '';
  assert.equal(register, `/accounts/signup/?next=${link}`);
  const form = await browser.get(register);
  assert.match(form.text, new RegExp(`action="/accounts/signup/">.*?name="next" value="${link}"`, 's'));
  const fields = { username: 'newcomer', email: 'newcomer@example.org', password1: 'a-long-secret', password2: 'a-long-secret', terms_of_use: 'on' };
  assert.equal((await browser.post('/accounts/signup/', { ...fields, next: link })).status, 200);
  const confirm = linkIn((await lastMail(db, 'newcomer@example.org'))?.body ?? '', '/accounts/confirm-email/');
  assert.ok(confirm.endsWith(`/?next=${link}`), confirm);
  const carried = /action="\/accounts\/confirm-email\/[^"]+">.*?name="next" value="([^"]*)"/s.exec((await browser.get(confirm)).text)?.[1];
  assert.equal(carried, link, 'the confirm form carries the invitation');
  const confirmed = await browser.post(confirm, { next: carried });
  assert.equal(confirmed.status, 302);
  assert.equal(confirmed.location, link, 'after confirming, the invitation');
  const invitation = await browser.get(link);
  assert.match(invitation.text, /Your e-mail address has been confirmed./);
  assert.match(invitation.text, /value="accept"/, 'signed in, ready to accept');
  assert.match((await browser.post(link, { action: 'accept' })).text, /You are now a moderator of Draft plan./);

  const evil = 'https://evil.example/';
  const stranger = new Browser(app);
  assert.match((await stranger.get(`/accounts/signup/?next=${encodeURIComponent(evil)}`)).text, /action="\/accounts\/signup\/">.*?name="next" value="\/userdashboard\/overview\/"/s);
  await stranger.post('/accounts/signup/', { ...fields, username: 'stranger', email: 'stranger@example.org', next: evil });
  const plain = linkIn((await lastMail(db, 'stranger@example.org'))?.body ?? '', '/accounts/confirm-email/');
  assert.doesNotMatch(plain, /next=|evil/);
  assert.match((await stranger.get(`${plain}?next=${encodeURIComponent(evil)}`)).text, /action="\/accounts\/confirm-email\/[^"]+">.*?name="next" value="\/userdashboard\/overview\/"/s);
  const landed = await stranger.post(plain, { next: evil });
  assert.equal(landed.status, 302);
  assert.equal(landed.location, '/userdashboard/overview/');
});
