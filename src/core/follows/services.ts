import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { follows } from '../../db/schema/index.js';

/** Auto-follow on contribution: creates an enabled follow, never re-enables one the user disabled. */
export async function autoFollow(db: Tx, userId: number, projectId: number | null, at: Date = new Date()): Promise<void> {
  if (projectId === null) return;
  await db.insert(follows).values({ creatorId: userId, projectId, enabled: true, created: at }).onConflictDoNothing();
}

/** Sets a follow to enabled or disabled, creating it when missing. */
export async function setFollow(db: Tx, userId: number, projectId: number, enabled: boolean): Promise<void> {
  await db
    .insert(follows)
    .values({ creatorId: userId, projectId, enabled })
    .onConflictDoUpdate({ target: [follows.projectId, follows.creatorId], set: { enabled, modified: sql`now()` } });
}
