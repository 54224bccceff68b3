import { and, eq, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { DbOrTx } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import type { Lang } from '../../i18n/index.js';
import { hashPassword } from './passwords.js';
import { accountColumns, type Account, findAccountByEmail, type NewAccount, queueAccountExistsMail, queueConfirmationMail, type SignupLinks } from './services.js';

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
    .where(and(eq(users.id, guestId), eq(users.isGuest, true), sql`not exists (select 1 from ${users} u where lower(normalize(u.username, NFKC)) = lower(normalize(${input.username}::text, NFKC)) and u.id <> ${guestId})`))
    .returning(accountColumns);
  if (!account) return (await isGuestUser(tx, guestId)) ? 'username-taken' : 'not-a-guest';
  await queueConfirmationMail(tx, account satisfies Account, input.language, links.confirm(account));
  return 'converted';
}

async function isGuestUser(tx: DbOrTx, userId: number): Promise<boolean> {
  const [row] = await tx.select({ isGuest: users.isGuest }).from(users).where(eq(users.id, userId));
  return Boolean(row?.isGuest);
}
