import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { newsletterOptouts, notificationOptouts, users } from '../../db/schema/index.js';
import { type Lang, t } from '../../i18n/index.js';
import { queueMail } from '../../mail/outbox.js';
import { NOTIFICATION_KINDS, type NotificationKind } from '../../mail/notices.js';
import { hashPassword } from './passwords.js';
import { isValidEmail, usernameError } from './rules.js';
import { stateFingerprint } from './tokens.js';

export const PASSWORD_MIN_LENGTH = 8;

/** The columns login, links and settings need. */
export const accountColumns = {
  id: users.id,
  username: users.username,
  email: users.email,
  password: users.password,
  isActive: users.isActive,
  emailVerified: users.emailVerified,
  language: users.language,
  bio: users.bio,
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
  language: string;
  bio: string;
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

/** Confirmation links act only while the address is the same and still unconfirmed. */
export const confirmationState = (account: Pick<Account, 'email' | 'emailVerified'>) =>
  stateFingerprint('confirm', account.email.toLowerCase(), account.emailVerified);
/** Reset links die once the password changed (the hash is part of the fingerprint). */
export const resetState = (account: Pick<Account, 'password' | 'isActive'>) => stateFingerprint('reset', account.password, account.isActive);

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
async function takenBy(db: DbOrTx, column: typeof users.username | typeof users.email, value: string, exceptUserId: number): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${column}) = ${value.toLowerCase()} and ${users.id} <> ${exceptUserId}`)
    .limit(1);
  return rows.length > 0;
}

export const usernameTaken = (db: DbOrTx, username: string, exceptUserId = 0) => takenBy(db, users.username, username, exceptUserId);
export const emailTaken = (db: DbOrTx, email: string, exceptUserId = 0) => takenBy(db, users.email, email, exceptUserId);

/**
 * The username and e-mail fields of the signup and settings forms. The e-mail's uniqueness is told
 * only where asked (settings); signup must not reveal whether an address has an account.
 */
export async function usernameAndEmailErrors(
  db: DbOrTx,
  lang: Lang,
  input: { username: string; email: string },
  options: { exceptUserId?: number; checkEmailTaken: boolean },
): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  const { username, email } = input;
  const exceptUserId = options.exceptUserId ?? 0;
  if (!username) errors.username = [t(lang, 'This field is required.')];
  else if (usernameError(username)) errors.username = [t(lang, usernameError(username) ?? '')];
  else if (await usernameTaken(db, username, exceptUserId)) errors.username = [t(lang, 'A user with that username already exists.')];
  if (!email) errors.email = [t(lang, 'This field is required.')];
  else if (!isValidEmail(email)) errors.email = [t(lang, 'Enter a valid email address.')];
  else if (options.checkEmailTaken && (await emailTaken(db, email, exceptUserId))) errors.email = [t(lang, 'A user is already registered with this e-mail address.')];
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
export async function signUp(tx: DbOrTx, input: NewAccount, links: SignupLinks): Promise<'sent' | 'username-taken'> {
  const created = await createAccount(tx, input);
  const owner = await findAccountByEmail(tx, input.email);
  if (created) await queueConfirmationMail(tx, created, input.language, links.confirm(created));
  else if (owner) await queueAccountExistsMail(tx, owner, input.language, links.reset(owner));
  else return 'username-taken';
  return 'sent';
}

/** Creates an unconfirmed account; null when the username or e-mail was taken (unique indexes decide). */
export async function createAccount(tx: DbOrTx, input: NewAccount): Promise<Account | null> {
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

/** Marks the address confirmed when the link's fingerprint still matches; false otherwise. */
export async function confirmEmail(tx: DbOrTx, userId: number, state: string): Promise<Account | null> {
  const [account] = await tx.select(accountColumns).from(users).where(eq(users.id, userId)).for('update');
  if (!account || !account.isActive || confirmationState(account) !== state) return null;
  await tx.update(users).set({ emailVerified: true }).where(eq(users.id, userId));
  return { ...account, emailVerified: true };
}

export async function markEmailVerified(tx: DbOrTx, userId: number): Promise<void> {
  await tx.update(users).set({ emailVerified: true }).where(eq(users.id, userId));
}

export async function recordLogin(tx: DbOrTx, userId: number): Promise<void> {
  await tx.update(users).set({ lastLogin: sql`now()` }).where(eq(users.id, userId));
}

export interface AccountChanges {
  username: string;
  email: string;
  language: Lang;
  bio: string;
  avatar?: string | null;
}

/** Saves the settings form; a new e-mail address must be confirmed again. A unique index may refuse it (see isUniqueViolation). */
export async function updateAccount(tx: DbOrTx, userId: number, changes: AccountChanges): Promise<{ emailChanged: boolean } | null> {
  const [before] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId)).for('update');
  if (!before) return null;
  const emailChanged = before.email.toLowerCase() !== changes.email.toLowerCase();
  await tx
    .update(users)
    .set({
      username: changes.username,
      email: changes.email,
      language: changes.language,
      bio: changes.bio,
      ...(changes.avatar !== undefined ? { avatar: changes.avatar } : {}),
      ...(emailChanged ? { emailVerified: false } : {}),
    })
    .where(eq(users.id, userId));
  return { emailChanged };
}

/**
 * The app's account changes (username, language, avatar). Returns the avatar it replaced (to
 * remove its files once the write is committed); a unique index may refuse the username.
 */
export async function updateAccountProfile(
  tx: DbOrTx,
  userId: number,
  changes: { username?: string; language?: Lang; avatar?: string },
): Promise<{ replacedAvatar: string | null }> {
  const [before] = await tx.select({ avatar: users.avatar }).from(users).where(eq(users.id, userId)).for('update');
  if (Object.keys(changes).length) await tx.update(users).set(changes).where(eq(users.id, userId));
  return { replacedAvatar: changes.avatar !== undefined ? (before?.avatar ?? null) : null };
}

export async function setLanguage(db: DbOrTx, userId: number, language: Lang): Promise<void> {
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
export async function withdrawNewsletterConsent(tx: DbOrTx, userId: number, organisationId: number): Promise<void> {
  await tx.insert(newsletterOptouts).values({ userId, organisationId }).onConflictDoNothing();
}

export interface MailSettingsInput {
  /** Newsletters at all (the sign-up choice). */
  newsletters: boolean;
  /** The organisations shown on the form, and those of them whose newsletters the user still wants. */
  shownOrganisationIds: number[];
  wantedOrganisationIds: number[];
  /** The notification kinds the user wants; every other kind is turned off. */
  wantedNotifications: NotificationKind[];
}

/**
 * Saves `/account/notifications/`: each unticked switch is a recorded withdrawal (kept with its
 * first moment while it stays off), each ticked one removes it. Notifications as a whole are on
 * again, the per-kind switches decide.
 */
export async function saveMailSettings(tx: DbOrTx, userId: number, input: MailSettingsInput): Promise<void> {
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
}
