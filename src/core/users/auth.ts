import { and, eq, or, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { apiTokens, users } from '../../db/schema/index.js';
import { checkLoginThrottle, clearLoginFailures, recordLoginFailure } from '../../http/throttle.js';
import { checkPassword, checkPasswordAgainstNothing, hashPassword } from './passwords.js';

interface LoginUser {
  id: number;
  username: string;
  email: string;
  language: string;
  credentialsValidAfter: Date | null;
}

/**
 * The outcome of a password login. `inactive` and `unverified` are told only when the password
 * was right, so they reveal nothing to someone who does not know it.
 */
type LoginResult = { ok: true; user: LoginUser } | { ok: false; reason: 'invalid' | 'inactive' | 'unverified' };

const loginColumns = {
  id: users.id,
  username: users.username,
  email: users.email,
  language: users.language,
  credentialsValidAfter: users.credentialsValidAfter,
  password: users.password,
  isActive: users.isActive,
  emailVerified: users.emailVerified,
};

/** The account a login name names: the username (case-insensitively) first, else the e-mail address. */
async function findAccount(db: Db, login: string) {
  const name = login.trim();
  const byUsername = sql`lower(${users.username}) = lower(${name})`;
  const rows = await db
    .select({ ...loginColumns, byUsername: sql<boolean>`${byUsername}` })
    .from(users)
    .where(or(byUsername, sql`lower(${users.email}) = lower(${name})`))
    .limit(2);
  return rows.find((row) => row.byUsername) ?? rows[0] ?? null;
}

/** Replaces a Django pbkdf2 hash by argon2id, unless the password changed meanwhile. */
async function upgradeHash(db: Db, userId: number, oldHash: string, password: string): Promise<void> {
  const newHash = await hashPassword(password);
  await db.update(users).set({ password: newHash }).where(and(eq(users.id, userId), eq(users.password, oldHash)));
}

type LoginAccount = NonNullable<Awaited<ReturnType<typeof findAccount>>>;

/**
 * Checks the password of the account a login named (null: none). Inactive accounts and accounts
 * whose e-mail is not confirmed cannot log in. A correct password stored as a Django
 * `pbkdf2_sha256` hash is re-hashed with argon2id.
 */
async function verifyLogin(db: Db, account: LoginAccount | null, password: string): Promise<LoginResult> {
  if (!account || !account.password) {
    await checkPasswordAgainstNothing(password);
    return { ok: false, reason: 'invalid' };
  }
  const check = await checkPassword(password, account.password);
  if (!check.ok) return { ok: false, reason: 'invalid' };
  if (check.needsUpgrade) await upgradeHash(db, account.id, account.password, password);
  if (!account.isActive) return { ok: false, reason: 'inactive' };
  if (!account.emailVerified) return { ok: false, reason: 'unverified' };
  const { password: _p, isActive: _a, emailVerified: _e, byUsername: _b, ...user } = account;
  return { ok: true, user };
}

/**
 * What the per-account throttle counts against: the account itself when the login names one, so
 * that username, e-mail address and any spelling of them share one limit; else the login as typed
 * (normalised), so that guessing at unknown names is limited too.
 */
const throttleAccount = (account: { id: number } | null, login: string) => (account ? `user:${account.id}` : `login:${login.normalize('NFKC')}`);

/**
 * A password login behind the failed-login throttle, as every login endpoint and form does it:
 * throws 429 (ApiError with Retry-After) while the IP or the account is over the limit, counts a
 * failure, and forgets the account's failures after a success.
 */
export async function throttledLogin(ctx: { db: Db; config: Config }, ip: string, login: string, password: string): Promise<LoginResult> {
  const account = login.includes('\0') ? null : await findAccount(ctx.db, login);
  const key = throttleAccount(account, login);
  await checkLoginThrottle(ctx, ip, key);
  const result = await verifyLogin(ctx.db, account, password);
  if (result.ok) await clearLoginFailures(ctx, key);
  else await recordLoginFailure(ctx, ip, key);
  return result;
}

/**
 * The current-password check of a signed-in user (password change, account deletion) under the same
 * throttle as logins, counted against her account: throws 429 while over the limit.
 */
export async function throttledPasswordCheck(ctx: { config: Config }, ip: string, userId: number, password: string, hash: string): Promise<boolean> {
  const key = throttleAccount({ id: userId }, '');
  await checkLoginThrottle(ctx, ip, key);
  const ok = (await checkPassword(password, hash)).ok;
  if (ok) await clearLoginFailures(ctx, key);
  else await recordLoginFailure(ctx, ip, key);
  return ok;
}

/** The user's persistent API key (DRF's Token): made on first use, the same one afterwards. */
export async function apiTokenFor(db: DbOrTx, userId: number): Promise<string> {
  await db.insert(apiTokens).values({ key: randomBytes(20).toString('hex'), userId }).onConflictDoNothing({ target: apiTokens.userId });
  const [row] = await db.select({ key: apiTokens.key }).from(apiTokens).where(eq(apiTokens.userId, userId));
  if (!row) throw new Error(`no API token for user ${userId}`);
  return row.key;
}
