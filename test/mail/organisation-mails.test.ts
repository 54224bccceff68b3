import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../../src/config.js';
import { organisations, outbox, projects } from '../../src/db/schema/index.js';
import { lastMail, linkIn } from '../me/accounts/client.js';
import { dashboardApp, signedIn } from '../manage/world.js';
import { basicWorldWith, load, tokenHeader } from '../fixtures.js';
import { createTestApp } from '../helpers.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

test('without MAIL_FROM mail comes from noreply@ the host of BASE_URL, never from .invalid', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'allmende-mailfrom-'));
  assert.equal(loadConfig({ DATA_DIR: dataDir, BASE_URL: 'https://beteiligung.example.org/' }).mailFrom, 'Allmende <noreply@beteiligung.example.org>');
  assert.equal(loadConfig({ DATA_DIR: dataDir, PORT: '8010' }).mailFrom, 'Allmende <noreply@127.0.0.1>');
  assert.equal(loadConfig({ DATA_DIR: dataDir, MAIL_FROM: 'Stadt <post@stadt.example>' }).mailFrom, 'Stadt <post@stadt.example>');
});

test('every e-mail has an HTML part beside its text: the organisation\'s name and logo when it is about one, links clickable', async () => {
  const { app, db } = await dashboardApp();
  await db.update(organisations).set({ logo: 'organisations/logo/abc.png' }).where(eq(organisations.id, 1));
  await db.update(projects).set({ access: 'PRIVATE' }).where(eq(projects.id, 2));
  const initiator = await signedIn(app, 'initiator');
  await initiator.post('/org/dashboard/projects/draft-plan/participants/', { action: 'invite', add_users: 'guest@example.org' });
  const invite = await lastMail(db, 'guest@example.org');
  assert.ok(invite?.html);
  assert.match(invite.html, /<img src="http:\/\/localhost:80\/media\/organisations\/logo\/abc.png" alt="" width="48" height="48"[^>]*><strong[^>]*>Organisation<\/strong>/);
  const link = linkIn(invite.body, '/org/projects/participant-invites/');
  assert.match(invite.html, new RegExp(`<a href="http://localhost:80${link}">`));
  assert.match(invite.html, /<title>[^<]+<\/title>/);
  // A mail about no organisation carries the platform's name.
  const reset = await initiator.post('/accounts/password/reset/', { email: 'user@example.org' });
  assert.equal(reset.status, 302);
  const mail = await lastMail(db, 'user@example.org');
  assert.match(mail?.html ?? '', /<strong[^>]*>Allmende<\/strong>/);
  assert.doesNotMatch(mail?.html ?? '', /<img/);
});

test('a newly appointed initiator and a new moderator are told by e-mail where to go', async () => {
  const { app, db } = await dashboardApp();
  const admin = await signedIn(app, 'admin');
  await admin.post('/backoffice/organisations/org/', { action: 'add_initiator', initiator_name: 'user' });
  const appointed = await lastMail(db, 'user@example.org');
  assert.equal(appointed?.kind, 'initiator_appointed');
  assert.equal(appointed?.subject, 'You are now an initiator of Organisation');
  assert.match(appointed?.body ?? '', /admin has made you an initiator of Organisation\. .* http:\/\/localhost:80\/org\/dashboard\/projects\//);
  const count = async (kind: string) => (await db.select().from(outbox).where(eq(outbox.kind, kind))).length;
  await admin.post('/backoffice/organisations/org/', { action: 'add_initiator', initiator_name: 'user' });
  assert.equal(await count('initiator_appointed'), 1, 'appointing again tells nobody again');
  await admin.post('/backoffice/organisations/org/', { action: 'add_initiator', initiator_name: 'coinit' });
  assert.equal(await count('initiator_appointed'), 1, 'coinit was an initiator already');
  await admin.post('/backoffice/organisations/org/', { action: 'add_member', member_name: 'other' });
  assert.equal((await lastMail(db, 'other@example.org'))?.kind ?? null, null, 'members are not told');

  const initiator = await signedIn(app, 'initiator');
  await initiator.post('/org/dashboard/projects/draft-plan/moderators/', { action: 'invite', add_users: 'member@example.org' });
  const link = linkIn((await lastMail(db, 'member@example.org'))?.body ?? '', '/org/projects/moderator-invites/');
  const member = await signedIn(app, 'member');
  assert.equal((await member.post(link, { action: 'accept' })).status, 200);
  const told = await lastMail(db, 'member@example.org');
  assert.equal(told?.kind, 'moderator_appointed');
  assert.match(told?.body ?? '', /you now moderate the project "Draft plan" of Organisation\. .*http:\/\/localhost:80\/userdashboard\/moderation\//s);
});

test('the appointment e-mails speak the recipient\'s language', async () => {
  const { app, db } = await dashboardApp();
  const admin = await signedIn(app, 'admin');
  await admin.post('/backoffice/organisations/other-org/', { action: 'add_initiator', initiator_name: 'coinit' });
  const mail = await lastMail(db, 'coinit@example.org');
  assert.equal(mail?.subject, 'Sie sind jetzt Initiator*in von Other organisation');
});

test("a comment notice, moderator feedback and a blocked comment carry the organisation's name and logo in their HTML part (issue 36.11)", async () => {
  const t = await createTestApp();
  await load(t.db, basicWorldWith({ ideas: [{ id: 1, module: 1, creator: 5, name: 'Trees', description: 'x' }] }));
  await t.db.update(organisations).set({ logo: 'organisations/logo/abc.png' }).where(eq(organisations.id, 1));
  const commented = await t.request({ method: 'POST', url: '/api/contenttypes/4/objects/1/comments/', headers: await tokenHeader(t.db, 6), payload: { comment: 'Nice idea' } });
  assert.equal(commented.status, 201);
  const commentId = (commented.body as { id: number }).id;
  const moderator = await tokenHeader(t.db, 3);
  const blocked = await t.request({ method: 'PATCH', url: `/api/userdashboard/moderation/1/comments/${commentId}/`, headers: moderator, payload: { is_blocked: true } });
  assert.equal(blocked.status, 200, blocked.text);
  const mails = await t.db.select().from(outbox);
  const about = mails.filter((m) => m.recipient === 'user@example.org' || m.recipient === 'other@example.org');
  assert.ok(about.length >= 2, `notices were queued: ${mails.map((m) => `${m.kind}→${m.recipient}`).join(', ')}`);
  for (const mail of about) {
    assert.match(mail.html ?? '', /<img src="http:\/\/localhost(:\d+)?\/media\/organisations\/logo\/abc.png"[^>]*><strong[^>]*>Organisation<\/strong>/, mail.kind);
    assert.doesNotMatch(mail.html ?? '', /<strong[^>]*>Allmende<\/strong>/, mail.kind);
  }
});
