import type { DbOrTx } from '../../db/client.js';
import { projectModerators, projectParticipants } from '../../db/schema/index.js';
import { setFollow } from '../follows/services.js';

/** Adding a moderator makes them follow the project (enabled, even if they had unfollowed). */
export async function addModerator(db: DbOrTx, projectId: number, userId: number): Promise<void> {
  await db.insert(projectModerators).values({ projectId, userId }).onConflictDoNothing();
  await setFollow(db, userId, projectId, true);
}

export async function addParticipant(db: DbOrTx, projectId: number, userId: number): Promise<void> {
  await db.insert(projectParticipants).values({ projectId, userId }).onConflictDoNothing();
}
