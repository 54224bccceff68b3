import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { chapters, commentFeedback, comments, ideas, outbox, polls, ratings, subjects, topics, users } from '../../db/schema/index.js';
import { destroyUserSessions } from '../../http/session.js';
import { deleteIdea } from '../../features/ideas/services.js';

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

/** The user's ideas that someone else commented on (or replied under) or rated. */
async function ideasOthersTookPartIn(tx: DbOrTx, userId: number, ideaIds: number[]): Promise<Set<number>> {
  const parent = alias(comments, 'parent');
  const onOwnIdeas = (table: typeof comments | typeof ratings) => and(eq(table.contentType, 'idea'), inArray(table.objectPk, ideaIds));
  const commented = await tx.select({ id: comments.objectPk }).from(comments).where(and(onOwnIdeas(comments), ne(comments.creatorId, userId)));
  const replied = await tx
    .select({ id: parent.objectPk })
    .from(comments)
    .innerJoin(parent, and(eq(comments.contentType, 'comment'), eq(comments.objectPk, parent.id)))
    .where(and(eq(parent.contentType, 'idea'), inArray(parent.objectPk, ideaIds), ne(comments.creatorId, userId)));
  const rated = await tx.select({ id: ratings.objectPk }).from(ratings).where(and(onOwnIdeas(ratings), ne(ratings.creatorId, userId)));
  return new Set([...commented, ...replied, ...rated].map((r) => r.id));
}

/**
 * Deletes an account without touching anybody else's content:
 * - the user's comments stay as rows, removed (no text, no categories), so replies under them stay;
 * - the user's ideas are deleted as in the reference, except those others commented on or rated:
 *   they stay, without the user's name;
 * - polls, chapters, subjects, topics and moderator feedback the user wrote stay (they belong to a project);
 * - what stays is handed to the placeholder account; everything personal (ratings, reports,
 *   follows, roles, tokens, sessions, unsent mail) goes.
 * Returns the media files (relative paths) to remove once the transaction has committed.
 */
export async function deleteAccount(tx: DbOrTx, userId: number): Promise<string[]> {
  const [account] = await tx.select({ email: users.email, avatar: users.avatar }).from(users).where(eq(users.id, userId)).for('update');
  if (!account) return [];
  const files = account.avatar ? [account.avatar] : [];
  const placeholder = await placeholderId(tx);
  const own = await tx.select({ id: ideas.id, image: ideas.image }).from(ideas).where(eq(ideas.creatorId, userId));
  const kept = own.length ? await ideasOthersTookPartIn(tx, userId, own.map((i) => i.id)) : new Set<number>();
  for (const idea of own.filter((i) => !kept.has(i.id))) {
    await deleteIdea(tx, idea.id);
    if (idea.image) files.push(idea.image);
  }
  if (kept.size) await tx.update(ideas).set({ creatorId: placeholder }).where(inArray(ideas.id, [...kept]));
  await tx
    .update(comments)
    .set({ creatorId: placeholder, isRemoved: true, comment: '', commentCategories: '' })
    .where(eq(comments.creatorId, userId));
  for (const table of [polls, chapters, subjects, topics, commentFeedback]) {
    await tx.update(table).set({ creatorId: placeholder }).where(eq(table.creatorId, userId));
  }
  await tx.delete(outbox).where(and(sql`lower(${outbox.recipient}) = lower(${account.email})`, isNull(outbox.sentAt)));
  await destroyUserSessions(tx, userId);
  await tx.delete(users).where(eq(users.id, userId));
  return files;
}
