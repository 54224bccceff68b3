import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq, inArray } from 'drizzle-orm';
import { browserSessions, comments, modules, users } from '../../../src/db/schema/index.js';
import { DELETED_USERNAME } from '../../../src/core/users/deletion.js';
import { ideas } from '../../../src/features/ideas/schema.js';
import { SESSION_LIFETIME_SECONDS } from '../../../src/http/session.js';
import { GUEST_EXPIRY_INTERVAL_MS } from '../../../src/jobs/background.js';
import { basicWorldWith, daysFromNow, load } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { Browser } from './client.js';

/*
 * Expired guests (a+ `delete_expired_guests`): every hour the server deletes the guests who never
 * registered and have been inactive for GUEST_EXPIRY_DAYS, as their own account deletion would.
 */

const GUEST_CREATE = '/org/ideas/create/module/guest-ideas/';
const DAY = 24 * 60 * 60 * 1000;
const SESSION_LIFETIME_DAYS = SESSION_LIFETIME_SECONDS / (24 * 60 * 60);

test('the hourly job deletes guests inactive for GUEST_EXPIRY_DAYS as an account deletion does; active guests and registered accounts stay', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const { app, db } = await createTestApp({ guestExpiryDays: 20 });
  await load(
    db,
    basicWorldWith({
      projects: [{ id: 2, slug: 'open-to-guests', name: 'Open to guests', organisation: 1, allow_guests: true }],
      modules: [{ id: 2, slug: 'guest-ideas', project: 2, name: 'Guest ideas', phases: [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(10) }] }],
    }),
  );
  await db.update(modules).set({ slug: 'ideas' }).where(eq(modules.id, 1));
  const [othersIdea] = await db.insert(ideas).values({ moduleId: 2, creatorId: 5, name: 'Shade', description: 'Trees' }).returning();

  /** A new guest (through the guest form) who adds an idea and comments on someone else's. */
  const guest = async (idea: string) => {
    const browser = new Browser(app);
    assert.equal((await browser.post('/accounts/guest/', { next: GUEST_CREATE, terms_of_use: 'on' })).status, 302);
    assert.equal((await browser.post(GUEST_CREATE, { name: idea, description: 'x' })).status, 302);
    assert.equal((await browser.post(`/comments/on/idea/${othersIdea.id}/`, { comment: `${idea}: yes` })).status, 302);
    const [row] = await db.select().from(users).where(eq(users.isGuest, true)).orderBy(users.id).limit(1).offset((await db.$count(users, eq(users.isGuest, true))) - 1);
    return row;
  };
  /** The guest was made `joined` days ago; its browser session (14 days) ended or ends then. */
  const age = async (id: number, joined: number) => {
    await db.update(users).set({ dateJoined: new Date(Date.now() - joined * DAY) }).where(eq(users.id, id));
    await db.update(browserSessions).set({ expiresAt: new Date(Date.now() - (joined - SESSION_LIFETIME_DAYS) * DAY) }).where(eq(browserSessions.userId, id));
  };
  const gone = await guest('Gone');
  await age(gone.id, 20 + SESSION_LIFETIME_DAYS + 1);
  const recentlyActive = await guest('Recently active');
  await age(recentlyActive.id, 20 + SESSION_LIFETIME_DAYS - 1);
  const withSession = await guest('With a session');
  await age(withSession.id, 40);
  await db.update(browserSessions).set({ expiresAt: new Date(Date.now() + DAY) }).where(eq(browserSessions.userId, withSession.id));
  const fresh = await guest('Fresh');
  const registered = await guest('Registered');
  await age(registered.id, 40);
  await db.update(users).set({ isGuest: false }).where(eq(users.id, registered.id));

  t.mock.timers.tick(GUEST_EXPIRY_INTERVAL_MS - 1);
  assert.equal(await db.$count(users, eq(users.id, gone.id)), 1, 'nothing before the hour is up');
  t.mock.timers.tick(1);
  // Closing the app waits for a run that is going on.
  await app.close();
  const left = await db.select({ id: users.id }).from(users).where(inArray(users.id, [gone.id, recentlyActive.id, withSession.id, fresh.id, registered.id]));
  assert.deepEqual(left.map((u) => u.id).sort((a, b) => a - b), [recentlyActive.id, withSession.id, fresh.id, registered.id]);
  assert.equal((await db.select().from(ideas).where(eq(ideas.name, 'Gone'))).length, 0, 'an idea nobody took part in goes with its guest');
  const [comment] = await db.select().from(comments).where(eq(comments.objectPk, othersIdea.id)).orderBy(comments.id).limit(1);
  const [placeholder] = await db.select().from(users).where(eq(users.id, comment.creatorId));
  assert.deepEqual([placeholder.username, comment.isRemoved, comment.comment], [DELETED_USERNAME, true, ''], 'the comment stays for its replies, handed over as for deleted accounts');
  assert.equal((await db.select().from(ideas).where(eq(ideas.name, 'Recently active'))).length, 1);
});
