import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { apiTokens, users } from '../../db/schema/index.js';
import { destroyUserSessions } from '../../http/session.js';
import { hashPassword } from './passwords.js';

/**
 * Ends every credential the user holds: the API token and the browser sessions are deleted, and
 * JWTs (access and refresh) issued before now stop counting (credentialsValidAfter).
 */
async function revokeCredentials(tx: Tx, userId: number): Promise<void> {
  await tx.delete(apiTokens).where(eq(apiTokens.userId, userId));
  await destroyUserSessions(tx, userId);
}

/** Sets a new password (hashed with argon2id) and ends the user's API token, refresh tokens and sessions. */
export async function setPassword(tx: Tx, userId: number, newPassword: string): Promise<void> {
  const password = await hashPassword(newPassword);
  await tx.update(users).set({ password, credentialsValidAfter: new Date() }).where(eq(users.id, userId));
  await revokeCredentials(tx, userId);
}

/** Deactivates a user (is_active = false) and ends their API token, refresh tokens and sessions. */
export async function deactivateUser(tx: Tx, userId: number): Promise<void> {
  await tx.update(users).set({ isActive: false, credentialsValidAfter: new Date() }).where(eq(users.id, userId));
  await revokeCredentials(tx, userId);
}
