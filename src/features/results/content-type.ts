import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { organisations, projects } from '../../db/schema/index.js';
import type { ProjectContentType } from '../../core/contenttypes/registry.js';
import { resultPath } from './queries.js';
import { results } from './schema.js';

/**
 * A result as commentable content of its project (issue 39.3: the discussion on a result's page):
 * the comment API, the thread forms, the moderation queue and the notices find it through this
 * entry (core/contenttypes/registry `registerProjectContentType`, in src/module-types.ts). Who may
 * comment is the comment rules' `canCommentInProject`.
 */
export const resultContentType: ProjectContentType = {
  kind: 'result',
  async target(db: DbOrTx, id: number) {
    const [row] = await db.select({ projectId: results.projectId, creatorId: results.creatorId }).from(results).where(eq(results.id, id));
    return row ?? null;
  },
  async pages(db: DbOrTx, ids: number[]) {
    if (!ids.length) return new Map();
    const rows = await db
      .select({ id: results.id, title: results.title, orgSlug: organisations.slug })
      .from(results)
      .innerJoin(projects, eq(projects.id, results.projectId))
      .innerJoin(organisations, eq(organisations.id, projects.organisationId))
      .where(inArray(results.id, ids));
    return new Map(rows.map((row) => [row.id, { path: resultPath(row.orgSlug, row.id), name: row.title }]));
  },
};
