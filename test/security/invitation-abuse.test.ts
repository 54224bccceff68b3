import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { outbox, projectInvites, projects } from '../../src/db/schema/index.js';
import { INVITE_LIMITS } from '../../src/manage/projects/rules.js';
import { lastMail, linkIn } from '../me/accounts/client.js';
import { dashboardApp, signedIn } from '../manage/world.js';

const MODERATORS = '/org/dashboard/projects/project/moderators/';
const addresses = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}-${i}@example.net`).join(', ');
const inviteMails = async (db: Awaited<ReturnType<typeof dashboardApp>>['db']) => (await db.select().from(outbox).where(eq(outbox.kind, 'invite_moderator'))).length;

test('issue 21 finding 10: one invitation form names at most 50 addresses', async () => {
  const { app, db } = await dashboardApp();
  const initiator = await signedIn(app, 'initiator');
  const flood = await initiator.post(MODERATORS, { action: 'invite', add_users: addresses(2000, 'flood') });
  assert.equal(flood.status, 400);
  assert.match(flood.text, /Please enter at most 50 addresses at a time\./);
  assert.equal(await inviteMails(db), 0);
  assert.equal((await initiator.post(MODERATORS, { action: 'invite', add_users: addresses(INVITE_LIMITS.perPost, 'ok') })).status, 200);
  assert.equal(await inviteMails(db), INVITE_LIMITS.perPost);
});

test('issue 21 finding 10: an organisation invites at most 500 addresses a day, over all its projects and initiators', async () => {
  const { app, db } = await dashboardApp();
  await db.update(projects).set({ access: 'PRIVATE' }).where(eq(projects.id, 2));
  const [initiator, coinit] = [await signedIn(app, 'initiator'), await signedIn(app, 'coinit')];
  for (let post = 0; post < 10; post++) {
    const browser = post % 2 ? coinit : initiator;
    const path = post % 3 ? MODERATORS : '/org/dashboard/projects/draft-plan/participants/';
    assert.equal((await browser.post(path, { action: 'invite', add_users: addresses(50, `day-${post}`) })).status, 200, `post ${post}`);
  }
  const over = await initiator.post(MODERATORS, { action: 'invite', add_users: 'one-more@example.net' });
  assert.equal(over.status, 429);
  assert.ok(Number(over.headers['retry-after']) > 0);
  assert.equal((await db.select().from(outbox).where(eq(outbox.recipient, 'one-more@example.net'))).length, 0);
  const other = await signedIn(app, 'other');
  assert.equal((await other.post('/other-org/dashboard/projects/foreign/moderators/', { action: 'invite', add_users: 'elsewhere@example.net' })).status, 200, 'other organisations go on');
});

test('issue 21 finding 10: only the invited account may decline an invitation', async () => {
  const { app, db } = await dashboardApp();
  const initiator = await signedIn(app, 'initiator');
  await initiator.post(MODERATORS, { action: 'invite', add_users: 'user@example.org' });
  const link = linkIn((await lastMail(db, 'user@example.org'))?.body ?? '', '/org/projects/moderator-invites/');
  const stranger = await signedIn(app, 'other');
  const refused = await stranger.post(link, { action: 'reject' });
  assert.equal(refused.status, 403);
  assert.equal((await db.select().from(projectInvites)).length, 1, 'the invitation stands');
  const invited = await signedIn(app, 'user');
  assert.match((await invited.post(link, { action: 'reject' })).text, /You declined the invitation\./);
  assert.equal((await db.select().from(projectInvites)).length, 0);
});
