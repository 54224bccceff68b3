import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { projectModerators, projectParticipants, projects } from '../../db/schema/index.js';
import { setFollow } from '../follows/services.js';

/**
 * How a moderator role was granted: explicitly (an invitation, a fixture), or implied by the
 * organisation's initiator role (the initiator who creates a project), which ends with that role.
 */
type ModeratorGrant = 'explicit' | 'implied';

/**
 * Adding a moderator makes them follow the project (enabled, even if they had unfollowed). An
 * explicit grant makes an implied one explicit; an implied one never weakens an explicit one.
 */
export async function addModerator(db: Tx, projectId: number, userId: number, grant: ModeratorGrant = 'explicit'): Promise<void> {
  const insert = db.insert(projectModerators).values({ projectId, userId, implied: grant === 'implied' });
  await (grant === 'explicit' ? insert.onConflictDoUpdate({ target: [projectModerators.projectId, projectModerators.userId], set: { implied: false } }) : insert.onConflictDoNothing());
  await setFollow(db, userId, projectId, true);
}

/**
 * Revoking an organisation's initiator role revokes what it granted (issue 21, finding 5): the
 * implied moderator roles in the organisation's projects. The one place that ends an initiator role calls it.
 */
export async function revokeImpliedRoles(db: Tx, organisationId: number, userId: number): Promise<void> {
  const ofOrganisation = db.select({ id: projects.id }).from(projects).where(eq(projects.organisationId, organisationId));
  await db
    .delete(projectModerators)
    .where(and(eq(projectModerators.userId, userId), eq(projectModerators.implied, true), inArray(projectModerators.projectId, ofOrganisation)));
}

export async function addParticipant(db: Tx, projectId: number, userId: number): Promise<void> {
  await db.insert(projectParticipants).values({ projectId, userId }).onConflictDoNothing();
}
