import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { organisationInitiators, organisationMembers, projectModerators, projectParticipants, projects } from '../../db/schema/index.js';
import type { ProjectContext } from './rules.js';

/** Loads a project and the user's roles in it in one statement; null when the project does not exist. */
export async function loadProjectContext(
  db: DbOrTx,
  projectId: number,
  user: { id: number; isSuperuser: boolean } | null,
): Promise<(ProjectContext & { projectId: number; organisationId: number }) | null> {
  const uid = user?.id ?? 0;
  const [row] = await db
    .select({
      projectId: projects.id,
      organisationId: projects.organisationId,
      access: projects.access,
      isDraft: projects.isDraft,
      isArchived: projects.isArchived,
      moderator: sql<boolean>`exists (select 1 from ${projectModerators} where ${projectModerators.projectId} = ${projects.id} and ${projectModerators.userId} = ${uid})`,
      participant: sql<boolean>`exists (select 1 from ${projectParticipants} where ${projectParticipants.projectId} = ${projects.id} and ${projectParticipants.userId} = ${uid})`,
      initiator: sql<boolean>`exists (select 1 from ${organisationInitiators} where ${organisationInitiators.organisationId} = ${projects.organisationId} and ${organisationInitiators.userId} = ${uid})`,
      orgMember: sql<boolean>`exists (select 1 from ${organisationMembers} where ${organisationMembers.organisationId} = ${projects.organisationId} and ${organisationMembers.userId} = ${uid})`,
    })
    .from(projects)
    .where(and(eq(projects.id, projectId)));
  if (!row) return null;
  return {
    projectId: row.projectId,
    organisationId: row.organisationId,
    access: row.access,
    isDraft: row.isDraft,
    isArchived: row.isArchived,
    user,
    roles: { moderator: row.moderator, participant: row.participant, initiator: row.initiator, orgMember: row.orgMember },
  };
}
