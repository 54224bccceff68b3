import { and, eq, lt, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { Db, DbOrTx } from '../../db/client.js';
import { browserSessions, users } from '../../db/schema/index.js';
import { SESSION_LIFETIME_SECONDS } from '../../http/session.js';
import type { Lang } from '../../i18n/index.js';
import { deleteAccount } from './deletion.js';
import { hashPassword } from './passwords.js';
import { accountColumns, type Account, findAccountByEmail, type NewAccount, queueAccountExistsMail, queueConfirmationMail, sameUsername, type SignupLinks } from './services.js';

/**
 * Guests (issue 34.4, a+ `guest_user`): a person who takes part without an account gets a user row
 * marked `is_guest`, bound to their browser's session. It has a generated name, an address that no
 * mail reaches (`.invalid`, never confirmed, so no notice is sent to it) and no password, so nobody
 * can log in as it: losing the session loses the guest. Registering turns the same row into an
 * account, so everything the guest wrote stays theirs.
 */

/** The reserved domain (RFC 2606) of the guests' placeholder addresses. */
const GUEST_EMAIL_DOMAIN = 'guest.invalid';

/** A new guest in the given language; the caller starts its session. */
export async function createGuest(tx: DbOrTx, language: Lang): Promise<{ id: number; language: string }> {
  const username = `guest-${randomBytes(6).toString('hex')}`;
  const [guest] = await tx
    .insert(users)
    .values({ username, email: `${username}@${GUEST_EMAIL_DOMAIN}`, password: '', isGuest: true, emailVerified: false, language })
    .returning({ id: users.id, language: users.language });
  return guest;
}

type ConversionOutcome = 'converted' | 'email-taken' | 'username-taken' | 'not-a-guest';

/**
 * Registers a guest (a+ `GuestConvertView`): the guest's own row gets the username, address and
 * password and stops being a guest, unconfirmed until the mailed link is used; the session goes on.
 * An address that has an account is not told to the form (F13): its owner gets the "account
 * exists" mail, and the guest stays a guest.
 */
export async function convertGuest(tx: DbOrTx, guestId: number, input: NewAccount, links: SignupLinks): Promise<ConversionOutcome> {
  const password = await hashPassword(input.password);
  const owner = await findAccountByEmail(tx, input.email);
  if (owner) {
    await queueAccountExistsMail(tx, owner, input.language, links.reset(owner));
    return 'email-taken';
  }
  const [account] = await tx
    .update(users)
    .set({ username: input.username, email: input.email, password, language: input.language, getNewsletters: input.getNewsletters, emailVerified: false, isGuest: false })
    .where(and(eq(users.id, guestId), eq(users.isGuest, true), sql`not exists (select 1 from ${users} u where ${sameUsername(sql`u.username`, input.username)} and u.id <> ${guestId})`))
    .returning(accountColumns);
  if (!account) return (await isGuestUser(tx, guestId)) ? 'username-taken' : 'not-a-guest';
  await queueConfirmationMail(tx, account satisfies Account, input.language, links.confirm(account));
  return 'converted';
}

/** Whether the user is (still) a guest; `lock`: the row is locked for the caller's transaction. */
async function isGuestUser(tx: DbOrTx, userId: number, lock = false): Promise<boolean> {
  const query = tx.select({ isGuest: users.isGuest }).from(users).where(eq(users.id, userId));
  const [row] = await (lock ? query.for('update') : query);
  return Boolean(row?.isGuest);
}

/**
 * The guests that have expired: never registered and inactive for `days` days. A guest acts only
 * through the browser session it was made with (it has no password to log in again), so it was
 * last active when that session ended at the latest: `date_joined` plus the session lifetime. The
 * time comes from `date_joined`, as the purge of expired sessions drops their rows; a session still
 * alive within the last `days` days keeps its guest anyway.
 */
async function expiredGuestIds(db: DbOrTx, days: number, now = new Date()): Promise<number[]> {
  const since = new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
  const joinedBefore = new Date(since.getTime() - SESSION_LIFETIME_SECONDS * 1000);
  const recentSession = sql`exists (select 1 from ${browserSessions} s where s.user_id = ${users.id} and s.expires_at > ${since.toISOString()}::timestamptz)`;
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.isGuest, true), lt(users.dateJoined, joinedBefore), sql`not ${recentSession}`))
    .orderBy(users.id);
  return rows.map((row) => row.id);
}

/**
 * Deletes the expired guests, each in its own transaction, as a user deletes their own account
 * (`deleteAccount`: contributions handed over as for deleted accounts). Returns how many went and
 * the media files to remove.
 */
export async function deleteExpiredGuests(db: Db, days: number, now = new Date()): Promise<{ deleted: number; files: string[] }> {
  const files: string[] = [];
  let deleted = 0;
  for (const id of await expiredGuestIds(db, days, now)) {
    await db.transaction(async (tx) => {
      // Registered meanwhile (the row is an account now): it stays.
      if (!(await isGuestUser(tx, id, true))) return;
      files.push(...(await deleteAccount(tx, id)));
      deleted++;
    });
  }
  return { deleted, files };
}
