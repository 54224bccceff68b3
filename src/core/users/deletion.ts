import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { commentFeedback, comments, outbox, users } from '../../db/schema/index.js';
import { destroyUserSessions } from '../../http/session.js';
import { moduleContentTypes } from '../modules/registry.js';

/**
 * The account that content of deleted accounts is handed to. Its name breaks the username rule
 * (it starts with "["), so no signup, settings form, fixture or CLI can take or make it.
 */
export const DELETED_USERNAME = '[deleted]';

async function placeholderId(tx: DbOrTx): Promise<number> {
  await tx.insert(users).values({ username: DELETED_USERNAME, email: DELETED_USERNAME, isActive: false }).onConflictDoNothing();
  const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.username, DELETED_USERNAME));
  if (!row) throw new Error('the placeholder for deleted accounts is missing');
  return row.id;
}

/**
 * Deletes an account without touching anybody else's content:
 * - the user's comments stay as rows, removed (no text, no categories), so replies under them stay;
 * - every module type's content goes as its content type says (`onAuthorDeleted`): the idea-like
 *   kinds are deleted as in the reference, except those others took part in, which stay without
 *   the user's name; what a project's staff posts (polls, chapters, subjects, topics) stays;
 * - moderator feedback the user gave stays;
 * - what stays is handed to the placeholder account; everything personal (ratings, reports,
 *   follows, roles, tokens, sessions, unsent mail; poll votes and ballots lose their voter) goes.
 * Returns the media files (relative paths) to remove once the transaction has committed.
 */
export async function deleteAccount(tx: Tx, userId: number): Promise<string[]> {
  const [account] = await tx.select({ email: users.email, avatar: users.avatar }).from(users).where(eq(users.id, userId)).for('update');
  if (!account) return [];
  const files = account.avatar ? [account.avatar] : [];
  const placeholder = await placeholderId(tx);
  for (const contentType of moduleContentTypes()) files.push(...(await contentType.onAuthorDeleted(tx, userId, placeholder)));
  await tx
    .update(comments)
    .set({ creatorId: placeholder, isRemoved: true, comment: '', commentCategories: '' })
    .where(eq(comments.creatorId, userId));
  await tx.update(commentFeedback).set({ creatorId: placeholder }).where(eq(commentFeedback.creatorId, userId));
  await tx.delete(outbox).where(and(sql`lower(${outbox.recipient}) = lower(${account.email})`, isNull(outbox.sentAt)));
  await destroyUserSessions(tx, userId);
  await tx.delete(users).where(eq(users.id, userId));
  return files;
}
