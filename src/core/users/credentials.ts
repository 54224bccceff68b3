import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { apiTokens, users } from '../../db/schema/index.js';
import { destroyUserSessions } from '../../http/session.js';
import { hashPassword } from './passwords.js';

/**
 * The database's transaction time, the clock browser sessions are dated by: a session opened later
 * in the same transaction (the password-change page keeping its user signed in) still counts.
 */
const TRANSACTION_START = sql`now()`;

/**
 * Ends the credentials a user holds: the API token and the browser sessions are deleted; JWTs (access
 * and refresh) stop counting through credentialsValidAfter, which the callers set.
 */
async function deleteCredentials(tx: Tx, userId: number): Promise<void> {
  await tx.delete(apiTokens).where(eq(apiTokens.userId, userId));
  await destroyUserSessions(tx, userId);
}

/** Sets a new password (hashed with argon2id) and ends the user's API token, refresh tokens and sessions. */
export async function setPassword(tx: Tx, userId: number, newPassword: string): Promise<void> {
  const password = await hashPassword(newPassword);
  await tx.update(users).set({ password, credentialsValidAfter: TRANSACTION_START }).where(eq(users.id, userId));
  await deleteCredentials(tx, userId);
}

/** Deactivates a user (is_active = false) and ends their API token, refresh tokens and sessions. */
export async function deactivateUser(tx: Tx, userId: number): Promise<void> {
  await tx.update(users).set({ isActive: false, credentialsValidAfter: TRANSACTION_START }).where(eq(users.id, userId));
  await deleteCredentials(tx, userId);
}
