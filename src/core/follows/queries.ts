import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { follows, projects } from '../../db/schema/index.js';
import { qualified as q } from '../../db/sql.js';

export interface FollowRow {
  projectId: number;
  projectSlug: string;
  followers: number;
  enabled: boolean;
  created: Date;
  modified: Date | null;
}

const followColumns = {
  projectId: follows.projectId,
  projectSlug: projects.slug,
  // The outer follow's project, table-qualified: a bare "project_id" would bind to the subquery's own row (finding F1).
  followers: sql<number>`(select count(*) from ${follows} f where f.project_id = ${q(follows.projectId)} and f.enabled)`.mapWith(Number),
  enabled: follows.enabled,
  created: follows.created,
  modified: follows.modified,
};

/** A user's follows, optionally only enabled or disabled ones, with each project's follower count. */
export async function loadFollows(db: DbOrTx, userId: number, enabled?: boolean): Promise<FollowRow[]> {
  return db
    .select(followColumns)
    .from(follows)
    .innerJoin(projects, eq(projects.id, follows.projectId))
    .where(and(eq(follows.creatorId, userId), enabled === undefined ? undefined : eq(follows.enabled, enabled)))
    .orderBy(asc(follows.id));
}

export async function loadFollow(db: DbOrTx, userId: number, projectId: number): Promise<FollowRow | null> {
  const [row] = await db
    .select(followColumns)
    .from(follows)
    .innerJoin(projects, eq(projects.id, follows.projectId))
    .where(and(eq(follows.creatorId, userId), eq(follows.projectId, projectId)));
  return row ?? null;
}
