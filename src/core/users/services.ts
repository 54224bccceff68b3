import { and, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { newsletterOptouts, notificationInappOptouts, notificationOptouts, users } from '../../db/schema/index.js';
import { type Lang, t } from '../../i18n/index.js';
import { queueMail } from '../../mail/outbox.js';
import { NOTIFICATION_KINDS, type NotificationKind } from '../../mail/notices.js';
import { hashPassword } from './passwords.js';
import { isValidEmail, usernameError } from './rules.js';
import { stateFingerprint } from './link-tokens.js';

const PASSWORD_MIN_LENGTH = 8;

/** The columns login, links and settings need. */
export const accountColumns = {
  id: users.id,
  username: users.username,
  email: users.email,
  password: users.password,
  isActive: users.isActive,
  emailVerified: users.emailVerified,
  pendingEmail: users.pendingEmail,
  language: users.language,
  bio: users.bio,
  homepage: users.homepage,
  twitterHandle: users.twitterHandle,
  facebookHandle: users.facebookHandle,
  avatar: users.avatar,
  getNewsletters: users.getNewsletters,
};

export interface Account {
  id: number;
  username: string;
  email: string;
  password: string;
  isActive: boolean;
  emailVerified: boolean;
  /** A new address waiting for its confirmation; `email` stays the account's address until then. */
  pendingEmail: string | null;
  language: string;
  bio: string;
  homepage: string;
  twitterHandle: string;
  facebookHandle: string;
  avatar: string | null;
  getNewsletters: boolean;
}

/** Case-insensitive lookup by username or e-mail (decision D7). */
export async function findAccountByLogin(db: DbOrTx, login: string): Promise<Account | null> {
  const needle = login.trim().toLowerCase();
  if (!needle || needle.length > 254) return null;
  const rows = await db
    .select(accountColumns)
    .from(users)
    .where(or(sql`lower(${users.username}) = ${needle}`, sql`lower(${users.email}) = ${needle}`))
    .orderBy(sql`lower(${users.username}) = ${needle} desc`)
    .limit(1);
  return rows[0] ?? null;
}

export async function findAccountByEmail(db: DbOrTx, email: string): Promise<Account | null> {
  const needle = email.trim().toLowerCase();
  if (!needle) return null;
  const [row] = await db.select(accountColumns).from(users).where(sql`lower(${users.email}) = ${needle}`);
  return row ?? null;
}

export async function findAccount(db: DbOrTx, userId: number): Promise<Account | null> {
  const [row] = await db.select(accountColumns).from(users).where(eq(users.id, userId));
  return row ?? null;
}

/**
 * The account with its row locked until the transaction ends: a link acts once even when it is
 * posted twice at the same moment (the second waits, then sees the first one's change; issue 36.7).
 */
export async function findAccountForUpdate(tx: DbOrTx, userId: number): Promise<Account | null> {
  const [row] = await tx.select(accountColumns).from(users).where(eq(users.id, userId)).for('update');
  return row ?? null;
}

/** The address a confirmation link confirms: the pending new one, else the account's own. */
const addressToConfirm = (account: Pick<Account, 'email' | 'pendingEmail'>) => account.pendingEmail ?? account.email;

/** Confirmation links act only while the address to confirm is the same and still unconfirmed. */
export const confirmationState = (account: Pick<Account, 'email' | 'emailVerified' | 'pendingEmail'>) =>
  stateFingerprint('confirm', addressToConfirm(account).toLowerCase(), account.pendingEmail ? false : account.emailVerified);
/**
 * Reset links are bound to the address they were mailed to and the password hash at issue time:
 * they die once either changes (issue 21, finding 11), or the account is deactivated.
 */
export const resetState = (account: Pick<Account, 'email' | 'password' | 'isActive'>) =>
  stateFingerprint('reset', account.email.toLowerCase(), account.password, account.isActive);

/** Django's password validators, as far as they matter here. */
export function passwordProblems(lang: Lang, password: string, username = '', email = ''): string[] {
  const problems: string[] = [];
  if (password.length < PASSWORD_MIN_LENGTH) {
    problems.push(t(lang, 'This password is too short. It must contain at least %(min)s characters.', { min: PASSWORD_MIN_LENGTH }));
  }
  if (/^\d+$/.test(password)) problems.push(t(lang, 'This password is entirely numeric.'));
  const lower = password.toLowerCase();
  if ((username && lower === username.toLowerCase()) || (email && lower === email.toLowerCase())) {
    problems.push(t(lang, 'The password is too similar to the username.'));
  }
  return problems;
}

/** Whether another user has this value (case-insensitively) in the column. */
async function takenBy(db: DbOrTx, column: typeof users.email, value: string, exceptUserId: number): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${column}) = ${value.toLowerCase()} and ${users.id} <> ${exceptUserId}`)
    .limit(1);
  return rows.length > 0;
}

/**
 * Whether another user has the username, compared as the unique index does: after NFKC folding
 * and case (as Django normalises usernames), so that "ｕｓｅｒ" is "user" (issue 21, finding 12).
 */
export async function usernameTaken(db: DbOrTx, username: string, exceptUserId = 0): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`${sameUsername(sql`${users.username}`, username)} and ${users.id} <> ${exceptUserId}`)
    .limit(1);
  return rows.length > 0;
}

/** A stored username (`column`) is `username` as the unique index compares them: NFKC-folded, without case. */
export const sameUsername = (column: SQL, username: string): SQL => sql`lower(normalize(${column}, NFKC)) = lower(normalize(${username}::text, NFKC))`;
export const emailTaken = (db: DbOrTx, email: string, exceptUserId = 0) => takenBy(db, users.email, email, exceptUserId);

/**
 * The username and e-mail fields of the signup and settings forms. Whether an address has an
 * account is told nowhere (signup: F13; settings: issue 21, finding 8): the mails tell its owner.
 */
export async function usernameAndEmailErrors(
  db: DbOrTx,
  lang: Lang,
  input: { username: string; email: string },
  options: { exceptUserId?: number; currentUsername?: string } = {},
): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  const { username, email } = input;
  const exceptUserId = options.exceptUserId ?? 0;
  if (!username) errors.username = [t(lang, 'This field is required.')];
  else if (usernameError(username, options.currentUsername)) errors.username = [t(lang, usernameError(username, options.currentUsername) ?? '')];
  else if (await usernameTaken(db, username, exceptUserId)) errors.username = [t(lang, 'A user with that username already exists.')];
  if (!email) errors.email = [t(lang, 'This field is required.')];
  else if (!isValidEmail(email)) errors.email = [t(lang, 'Enter a valid email address.')];
  return errors;
}

export interface NewAccount {
  username: string;
  email: string;
  password: string;
  language: Lang;
  getNewsletters: boolean;
}

/** The links a signup mail carries. */
export interface SignupLinks {
  confirm(account: Account): string;
  reset(account: Account): string;
}

/**
 * Signup (finding F13: no enumeration by timing). A new address gets an unconfirmed account and a
 * confirmation mail; for an address that has an account its owner gets an "account exists" mail
 * and nothing is stored. Both paths do the same work: one argon2id hash, the insert (a conflict on
 * the e-mail's unique index does nothing), one look-up of the address's account and one queued
 * mail. 'username-taken' when the username was taken meanwhile (the form checked it before).
 */
export async function signUp(tx: Tx, input: NewAccount, links: SignupLinks): Promise<'sent' | 'username-taken'> {
  const created = await createAccount(tx, input);
  const owner = await findAccountByEmail(tx, input.email);
  if (created) await queueConfirmationMail(tx, created, input.language, links.confirm(created));
  else if (owner) await queueAccountExistsMail(tx, owner, input.language, links.reset(owner));
  else return 'username-taken';
  return 'sent';
}

/** Creates an unconfirmed account; null when the username or e-mail was taken (unique indexes decide). */
async function createAccount(tx: Tx, input: NewAccount): Promise<Account | null> {
  const [row] = await tx
    .insert(users)
    .values({
      username: input.username,
      email: input.email,
      password: await hashPassword(input.password),
      language: input.language,
      getNewsletters: input.getNewsletters,
      emailVerified: false,
    })
    .onConflictDoNothing()
    .returning(accountColumns);
  return row ?? null;
}

export async function queueConfirmationMail(tx: DbOrTx, account: Pick<Account, 'email' | 'username'>, lang: Lang, link: string): Promise<void> {
  await queueMail(tx, {
    to: account.email,
    kind: 'account_confirm_email',
    subject: t(lang, 'Please confirm your e-mail address'),
    body: [
      t(lang, 'Hello %(username)s,', { username: account.username }),
      '',
      t(lang, 'please confirm your e-mail address for Allmende by opening this link:'),
      link,
      '',
      t(lang, 'If you did not sign up, you can ignore this e-mail.'),
    ].join('\n'),
  });
}

/** Someone tried to sign up with an address that already has an account: tell its owner, reveal nothing on the page. */
export async function queueAccountExistsMail(tx: DbOrTx, account: Pick<Account, 'email' | 'username'>, lang: Lang, resetLink: string): Promise<void> {
  await queueMail(tx, {
    to: account.email,
    kind: 'account_already_exists',
    subject: t(lang, 'Account already exists'),
    body: [
      t(lang, 'Hello %(username)s,', { username: account.username }),
      '',
      t(lang, 'someone tried to sign up with your e-mail address, which already has an account. If you forgot your password, reset it here:'),
      resetLink,
    ].join('\n'),
  });
}

export async function queueResetMail(tx: DbOrTx, account: Pick<Account, 'email' | 'username'>, lang: Lang, link: string): Promise<void> {
  await queueMail(tx, {
    to: account.email,
    kind: 'account_reset_password',
    subject: t(lang, 'Password reset'),
    body: [
      t(lang, 'Hello %(username)s,', { username: account.username }),
      '',
      t(lang, 'you or someone else asked to reset the password of your account. Open this link to choose a new password:'),
      link,
      '',
      t(lang, 'If you did not ask for this, you can ignore this e-mail.'),
    ].join('\n'),
  });
}

/**
 * Marks the address confirmed when the link's fingerprint still matches; null otherwise. A pending
 * new address becomes the account's address only now, and only while no other account has it.
 */
export async function confirmEmail(tx: Tx, userId: number, state: string): Promise<Account | null> {
  const [account] = await tx.select(accountColumns).from(users).where(eq(users.id, userId)).for('update');
  if (!account || !account.isActive || confirmationState(account) !== state) return null;
  const email = addressToConfirm(account);
  if (account.pendingEmail && (await emailTaken(tx, email, userId))) return null;
  await tx.update(users).set({ email, pendingEmail: null, emailVerified: true }).where(eq(users.id, userId));
  return { ...account, email, pendingEmail: null, emailVerified: true };
}

export async function markEmailVerified(tx: Tx, userId: number): Promise<void> {
  await tx.update(users).set({ emailVerified: true }).where(eq(users.id, userId));
}

export async function recordLogin(tx: Tx, userId: number): Promise<void> {
  await tx.update(users).set({ lastLogin: sql`now()` }).where(eq(users.id, userId));
}

export interface AccountChanges {
  username: string;
  email: string;
  language: Lang;
  bio: string;
  homepage: string;
  twitterHandle: string;
  facebookHandle: string;
  avatar?: string | null;
}

/**
 * Saves the settings form. A new e-mail address does not replace the account's address: it waits
 * as `pendingEmail` until its link is used (confirmEmail), so an address nobody proved never picks
 * a person (issue 21, finding 2); the form with the account's own address again drops a pending
 * one. Returns the account as it was (to tell its address), null when it is gone. A unique index
 * may refuse the username (see isUniqueViolation).
 */
export async function updateAccount(tx: Tx, userId: number, changes: AccountChanges): Promise<{ before: Account; emailChanged: boolean } | null> {
  const [before] = await tx.select(accountColumns).from(users).where(eq(users.id, userId)).for('update');
  if (!before) return null;
  const emailChanged = before.email.toLowerCase() !== changes.email.toLowerCase();
  const samePending = emailChanged && before.pendingEmail?.toLowerCase() === changes.email.toLowerCase();
  await tx
    .update(users)
    .set({
      username: changes.username,
      pendingEmail: emailChanged ? changes.email : null,
      language: changes.language,
      bio: changes.bio,
      homepage: changes.homepage,
      twitterHandle: changes.twitterHandle,
      facebookHandle: changes.facebookHandle,
      ...(changes.avatar !== undefined ? { avatar: changes.avatar } : {}),
    })
    .where(eq(users.id, userId));
  return { before, emailChanged: emailChanged && !samePending };
}

/** How many e-mail changes a user may ask for in an hour (issue 21, finding 8: no unthrottled probing of addresses). */
export const EMAIL_CHANGE_LIMIT = { perWindow: 5, windowSeconds: 3600 };

/**
 * Mails what a requested address change needs, the same work whether the new address is free or
 * taken, so that the settings form tells nobody which addresses have accounts (issue 21, finding
 * 8): a free address gets its confirmation link; the owner of a taken one is told that someone
 * tried to use it (the pending change can never be confirmed); the old address is told either way.
 */
export async function mailEmailChange(tx: DbOrTx, before: Account, changes: { email: string; username: string; language: Lang }, confirmLink: string): Promise<void> {
  const owner = await findAccountByEmail(tx, changes.email);
  if (owner && owner.id !== before.id) await queueAddressInUseMail(tx, owner, changes.language);
  else await queueConfirmationMail(tx, { email: changes.email, username: changes.username }, changes.language, confirmLink);
  await queueEmailChangeNotice(tx, before, changes.email, changes.language);
}

async function queueAddressInUseMail(tx: DbOrTx, owner: Pick<Account, 'email' | 'username'>, lang: Lang): Promise<void> {
  await queueMail(tx, {
    to: owner.email,
    kind: 'account_email_in_use',
    subject: t(lang, 'Someone tried to use your e-mail address'),
    body: [
      t(lang, 'Hello %(username)s,', { username: owner.username }),
      '',
      t(lang, 'someone tried to change the e-mail address of another account to yours. Nothing was changed and your account is not affected; you can ignore this e-mail.'),
    ].join('\n'),
  });
}

/** The account's current address is told that a new one was asked for; the change waits for the new one's link. */
async function queueEmailChangeNotice(tx: DbOrTx, account: Pick<Account, 'email' | 'username'>, newEmail: string, lang: Lang): Promise<void> {
  await queueMail(tx, {
    to: account.email,
    kind: 'account_email_change',
    subject: t(lang, 'Your e-mail address is about to change'),
    body: [
      t(lang, 'Hello %(username)s,', { username: account.username }),
      '',
      t(lang, 'someone signed in to your account asked to change its e-mail address to %(email)s. The change takes effect once the link sent to that address is used; until then this address stays the account\'s address. If this was not you, change your password.', { email: newEmail }),
    ].join('\n'),
  });
}

/**
 * The app's account changes (username, language, avatar). Returns the avatar it replaced (to
 * remove its files once the write is committed); a unique index may refuse the username.
 */
export async function updateAccountProfile(
  tx: Tx,
  userId: number,
  changes: { username?: string; language?: Lang; avatar?: string },
): Promise<{ replacedAvatar: string | null }> {
  const [before] = await tx.select({ avatar: users.avatar }).from(users).where(eq(users.id, userId)).for('update');
  if (Object.keys(changes).length) await tx.update(users).set(changes).where(eq(users.id, userId));
  return { replacedAvatar: changes.avatar !== undefined ? (before?.avatar ?? null) : null };
}

export async function setLanguage(db: Tx, userId: number, language: Lang): Promise<void> {
  await db.update(users).set({ language }).where(eq(users.id, userId));
}

/** A unique index refused a write (PostgreSQL 23505), also when the driver wrapped the error. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** Consent withdrawn for one organisation's newsletters (unsubscribe link, RFC 8058 one-click, or the settings); recorded once, with its moment. */
export async function withdrawNewsletterConsent(tx: Tx, userId: number, organisationId: number): Promise<void> {
  await tx.insert(newsletterOptouts).values({ userId, organisationId }).onConflictDoNothing();
}

/** One kind of notification turned off (a notification e-mail's one-click link); recorded once, with its moment. */
export async function turnNotificationOff(tx: Tx, userId: number, kind: NotificationKind): Promise<void> {
  await tx.insert(notificationOptouts).values({ userId, kind }).onConflictDoNothing();
}

interface MailSettingsInput {
  /** Newsletters at all (the sign-up choice). */
  newsletters: boolean;
  /** The organisations shown on the form, and those of them whose newsletters the user still wants. */
  shownOrganisationIds: number[];
  wantedOrganisationIds: number[];
  /** The notification kinds the user wants by e-mail; every other kind is turned off. */
  wantedNotifications: NotificationKind[];
  /** The kinds the user wants in the notification centre, the others are turned off there; null: unchanged (a form without those switches). */
  wantedInApp: NotificationKind[] | null;
}

/**
 * Saves `/account/notifications/`: each unticked switch is a recorded withdrawal (kept with its
 * first moment while it stays off), each ticked one removes it. Notifications as a whole are on
 * again, the per-kind switches decide.
 */
export async function saveMailSettings(tx: Tx, userId: number, input: MailSettingsInput): Promise<void> {
  await tx.update(users).set({ getNewsletters: input.newsletters, getNotifications: true }).where(eq(users.id, userId));
  const unwanted = input.shownOrganisationIds.filter((id) => !input.wantedOrganisationIds.includes(id));
  if (input.wantedOrganisationIds.length) {
    await tx.delete(newsletterOptouts).where(and(eq(newsletterOptouts.userId, userId), inArray(newsletterOptouts.organisationId, input.wantedOrganisationIds)));
  }
  if (unwanted.length) await tx.insert(newsletterOptouts).values(unwanted.map((organisationId) => ({ userId, organisationId }))).onConflictDoNothing();
  const kinds = Object.keys(NOTIFICATION_KINDS) as NotificationKind[];
  const off = kinds.filter((kind) => !input.wantedNotifications.includes(kind));
  const wanted = kinds.filter((kind) => input.wantedNotifications.includes(kind));
  if (wanted.length) await tx.delete(notificationOptouts).where(and(eq(notificationOptouts.userId, userId), inArray(notificationOptouts.kind, wanted)));
  if (off.length) await tx.insert(notificationOptouts).values(off.map((kind) => ({ userId, kind }))).onConflictDoNothing();
  const { wantedInApp } = input;
  if (!wantedInApp) return;
  const inAppOff = kinds.filter((kind) => !wantedInApp.includes(kind));
  const inAppWanted = kinds.filter((kind) => wantedInApp.includes(kind));
  if (inAppWanted.length) await tx.delete(notificationInappOptouts).where(and(eq(notificationInappOptouts.userId, userId), inArray(notificationInappOptouts.kind, inAppWanted)));
  if (inAppOff.length) await tx.insert(notificationInappOptouts).values(inAppOff.map((kind) => ({ userId, kind }))).onConflictDoNothing();
}
