import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { contentTypeOfModule, moduleContentTypes, reportableContentTypes } from '../../core/modules/registry.js';
import type { ContentKind } from '../../db/schema/index.js';
import { openReportsInProject } from '../../features/reports/queries.js';
import { results } from '../../features/results/schema.js';
import {
  actions,
  commentFeedback,
  comments,
  organisationInitiators,
  organisations,
  projectModerators,
  projects,
  reports,
  users,
} from '../../db/schema/index.js';

/** Comment targets whose comment actions stay out of the feed: the kinds whose content type says `inFeed: false` (the seed's Poll/Chapter/Paragraph exclusion). */
const excludedTargets = () => {
  const kinds = moduleContentTypes().filter((c) => c.inFeed === false).map((c) => c.kind);
  // The kinds are content kinds of the code (lowercase letters), never input; `('')` when none is excluded.
  return sql.raw(`(${kinds.length ? kinds.map((kind) => `'${kind}'`).join(', ') : "''"})`);
};

/**
 * One page of a user's activity feed, newest first: (a) "add" actions on comments whose target the
 * user created (not on polls, chapters or paragraphs, not the user's own, not blocked comments),
 * (b) moderator-feedback actions on the user's comments (not the user's own), (c) results that
 * took up the user's contributions or changed their status (features/results) and (d) the moderation's
 * official feedback on the user's items (ideas, map ideas, proposals: an "update" whose target is the
 * item itself, recorded by idealike/services moderateIdea for the author). One statement; each
 * branch walks its feed index (target_creator_id / obj_comment_creator_id, timestamp) backwards and
 * stops after `limit` rows, so a user with a million activities gets a page as fast as one with ten.
 * `before` is the id of the last action on the previous page (keyset pagination).
 */
export async function feedPage(db: DbOrTx, userId: number, limit: number, before?: number): Promise<number[]> {
  const result = await db.execute(feedQuery(userId, limit, before));
  return (result as unknown as { rows: { id: number | string }[] }).rows.map((row) => Number(row.id));
}

/** The statement behind feedPage (tests EXPLAIN it). */
export function feedQuery(userId: number, limit: number, before?: number): SQL {
  const after = before
    ? sql`and a.timestamp <= (select c.timestamp from ${actions} c where c.id = ${before})
          and (a.timestamp, a.id) < (select c.timestamp, c.id from ${actions} c where c.id = ${before})`
    : sql``;
  return sql`
    select f.id from (
      (select a.id, a.timestamp from ${actions} a
        join ${comments} cm on cm.id = a.obj_id
        where a.target_creator_id = ${userId} and a.obj_type = 'comment' and a.verb = 'add'
          and (a.target_type is null or a.target_type not in ${excludedTargets()})
          and a.actor_id is distinct from ${userId} and not cm.is_blocked ${after}
        order by a.timestamp desc, a.id desc limit ${limit})
      union all
      (select a.id, a.timestamp from ${actions} a
        where a.obj_comment_creator_id = ${userId} and a.obj_type = 'moderatorcommentfeedback'
          and a.actor_id is distinct from ${userId} ${after}
        order by a.timestamp desc, a.id desc limit ${limit})
      union all
      (select a.id, a.timestamp from ${actions} a
        where a.target_creator_id = ${userId} and a.obj_type = 'result'
          and a.actor_id is distinct from ${userId} ${after}
        order by a.timestamp desc, a.id desc limit ${limit})
      union all
      (select a.id, a.timestamp from ${actions} a
        where a.target_creator_id = ${userId} and a.verb = 'update' and a.obj_type = a.target_type and a.obj_id = a.target_id
          and a.actor_id is distinct from ${userId} ${after}
        order by a.timestamp desc, a.id desc limit ${limit})
    ) f order by f.timestamp desc, f.id desc limit ${limit}`;
}

const actor = alias(users, 'actor');
const parent = alias(comments, 'parent_comment');

/** Everything the feed rows show, for the given action ids, in one statement (newest first); links come from comments/queries loadCommentPaths. */
export async function feedEntries(db: DbOrTx, ids: number[]) {
  if (!ids.length) return [];
  const commentId = sql<number>`case when ${actions.objType} = 'comment' then ${actions.objId} else ${commentFeedback.commentId} end`;
  return db
    .select({
      id: actions.id,
      verb: actions.verb,
      objType: actions.objType,
      timestamp: actions.timestamp,
      actorId: actor.id,
      actorName: actor.username,
      projectName: projects.name,
      projectSlug: projects.slug,
      organisationSlug: organisations.slug,
      commentId: comments.id,
      commentText: comments.comment,
      commentType: comments.contentType,
      commentObjectPk: comments.objectPk,
      parentId: parent.id,
      parentType: parent.contentType,
      parentObjectPk: parent.objectPk,
      resultId: results.id,
      resultTitle: results.title,
      description: actions.description,
      targetType: actions.targetType,
      targetId: actions.targetId,
    })
    .from(actions)
    .leftJoin(actor, eq(actor.id, actions.actorId))
    .leftJoin(projects, eq(projects.id, actions.projectId))
    .leftJoin(organisations, eq(organisations.id, projects.organisationId))
    .leftJoin(commentFeedback, and(eq(actions.objType, 'moderatorcommentfeedback'), eq(commentFeedback.id, actions.objId)))
    .leftJoin(comments, eq(comments.id, commentId))
    .leftJoin(parent, and(eq(comments.contentType, 'comment'), eq(parent.id, comments.objectPk)))
    .leftJoin(results, and(eq(actions.objType, 'result'), eq(results.id, actions.objId)))
    .where(inArray(actions.id, ids))
    .orderBy(desc(actions.timestamp), desc(actions.id));
}

export type FeedEntry = Awaited<ReturnType<typeof feedEntries>>[number];

/** Whether an entry is the moderation's official feedback on an item (branch (d) of the feed). */
export const isItemFeedback = (entry: Pick<FeedEntry, 'objType' | 'verb' | 'targetType' | 'targetId'>) =>
  entry.verb === 'update' && entry.targetType !== null && entry.targetType === entry.objType && entry.targetId !== null;

/** The pages and names of the items the feedback entries are about, by `kind:id`, a statement per kind (the content types' `pages`). */
export async function feedItemPages(db: DbOrTx, entries: FeedEntry[]): Promise<Map<string, { path: string; name: string }>> {
  const byKind = new Map<ContentKind, number[]>();
  for (const e of entries) if (isItemFeedback(e) && e.targetType && e.targetId !== null) byKind.set(e.targetType, [...(byKind.get(e.targetType) ?? []), e.targetId]);
  const found = new Map<string, { path: string; name: string }>();
  for (const [kind, ids] of byKind) {
    const pages = (await contentTypeOfModule(kind)?.pages?.(db, ids)) ?? new Map();
    for (const [id, page] of pages) found.set(`${kind}:${id}`, { path: page.path, name: page.name });
  }
  return found;
}

/** The sidebar: organisations where the user is an initiator. */
export async function initiatorOrganisations(db: DbOrTx, userId: number) {
  return db
    .select({ id: organisations.id, name: organisations.name, slug: organisations.slug })
    .from(organisationInitiators)
    .innerJoin(organisations, eq(organisations.id, organisationInitiators.organisationId))
    .where(eq(organisationInitiators.userId, userId))
    .orderBy(organisations.name);
}

/** view_moderation_dashboard: the user moderates at least one project (initiators and superusers do not count). */
/**
 * The projects a user may possibly moderate: those they moderate, those of organisations they are
 * an initiator of, and every project for a superuser. The pages filter them with `canModerate`.
 */
function moderationCandidates(user: { id: number; isSuperuser: boolean }): SQL | undefined {
  if (user.isSuperuser) return undefined;
  return sql`(exists (select 1 from ${projectModerators} m where m.project_id = ${projects.id} and m.user_id = ${user.id})
    or exists (select 1 from ${organisationInitiators} i where i.organisation_id = ${projects.organisationId} and i.user_id = ${user.id}))`;
}

/** Whether the user may moderate some project (the Moderation tab). */
export async function moderatesSomeProject(db: DbOrTx, user: { id: number; isSuperuser: boolean }): Promise<boolean> {
  const [row] = await db.select({ id: projects.id }).from(projects).where(moderationCandidates(user)).limit(1);
  return row !== undefined;
}

/** The projects the user may moderate, with their numbers of unread comments and of unread reported comments, in one statement; most unread first. */
export async function moderatedProjects(db: DbOrTx, user: { id: number; isSuperuser: boolean }, limit = 200) {
  const unread = (reported: boolean) => sql<number>`(select count(*) from ${comments} c
      where (c.project_id = ${projects.id} or (c.content_type = 'comment' and c.object_pk in (select p.id from ${comments} p where p.project_id = ${projects.id})))
        and not c.is_reviewed
        ${reported ? sql`and exists (select 1 from ${reports} r where r.content_type = 'comment' and r.object_pk = c.id and r.handled_at is null)` : sql``})`.mapWith(Number);
  const unreadReported = unread(true);
  // Objects of every reportable kind with open reports (issue 22.4: they reach the queue too), a column per kind.
  const reported = Object.fromEntries(
    reportableContentTypes().map((kind) => [
      `reported:${kind.kind}`,
      sql<number>`(select count(distinct ${reports.objectPk}) from ${reports} where ${openReportsInProject(kind, sql`${projects.id}`) ?? sql`false`})`.mapWith(Number),
    ]),
  );
  const reportedObjects = Object.values(reported).reduce<SQL>((sum, n) => sql`${sum} + ${n}`, sql`0`);
  const rows = await db
    .select({
      id: projects.id,
      name: projects.name,
      slug: projects.slug,
      organisationName: organisations.name,
      unread: unread(false),
      unreadReported,
      reportedObjects: reportedObjects.mapWith(Number),
      ...reported,
    })
    .from(projects)
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(moderationCandidates(user))
    .orderBy(desc(sql`${unreadReported} + ${reportedObjects}`), desc(projects.created), desc(projects.id))
    .limit(limit);
  // Per kind with open reports: its count and what the queue calls them.
  return rows.map((row) => {
    const counts = row as unknown as Record<string, number>;
    const reportedKinds = reportableContentTypes()
      .map((kind) => ({ kind: kind.kind, count: counts[`reported:${kind.kind}`] ?? 0, names: kind.reportedNames }))
      .filter((k) => k.count > 0);
    return { id: row.id, name: row.name, slug: row.slug, organisationName: row.organisationName, unread: row.unread, unreadReported: row.unreadReported, reportedKinds };
  });
}

export type ModeratedProject = Awaited<ReturnType<typeof moderatedProjects>>[number];
