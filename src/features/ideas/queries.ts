import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { categories, comments, ideaLabels, ideas, labels, ratings, users } from '../../db/schema/index.js';
import { type LoadedModule, loadModule, type NamedRef } from '../modules/queries.js';
import { loadProjectContext } from '../projects/queries.js';
import type { IdeaRuleContext } from './rules.js';

/** A module that ideas live in, with the caller's rule context. */
export interface IdeaModule {
  module: LoadedModule;
  rules: IdeaRuleContext;
}

export async function loadIdeaModule(db: DbOrTx, moduleId: number, user: { id: number; isSuperuser: boolean } | null): Promise<IdeaModule | null> {
  const module = await loadModule(db, moduleId);
  if (!module) return null;
  const project = await loadProjectContext(db, module.projectId, user);
  if (!project) return null;
  return { module, rules: { project, phases: module.phases, now: new Date() } };
}

/** An idea with everything its serializer shows. */
export interface IdeaRow {
  id: number;
  moduleId: number;
  creatorId: number;
  creatorName: string;
  name: string;
  description: string;
  image: string | null;
  created: Date;
  category: NamedRef | null;
  commentCount: number;
  positiveRatingCount: number;
  negativeRatingCount: number;
  userRating: { id: number; value: number } | null;
  labels: NamedRef[];
}

const count = (query: ReturnType<typeof sql>) => sql<number>`(${query})`.mapWith(Number);

/**
 * Ideas of a module (or one of them) in two statements whatever their number: the ideas with their
 * counts and the caller's rating, then the labels of all of them. Newest first.
 */
export async function loadIdeas(db: DbOrTx, where: { moduleId: number; ideaId?: number }, userId: number | null): Promise<IdeaRow[]> {
  const uid = userId ?? 0;
  const rows = await db
    .select({
      id: ideas.id,
      moduleId: ideas.moduleId,
      creatorId: ideas.creatorId,
      creatorName: users.username,
      name: ideas.name,
      description: ideas.description,
      image: ideas.image,
      created: ideas.created,
      categoryId: categories.id,
      categoryName: categories.name,
      // Comments on the idea plus their direct replies, removed and blocked ones included.
      commentCount: count(sql`select count(*) from ${comments} c where c.content_type = 'idea' and c.object_pk = ${ideas.id}`),
      replyCount: count(
        sql`select count(*) from ${comments} r inner join ${comments} c on r.content_type = 'comment' and r.object_pk = c.id where c.content_type = 'idea' and c.object_pk = ${ideas.id}`,
      ),
      positiveRatingCount: count(sql`select count(*) from ${ratings} x where x.content_type = 'idea' and x.object_pk = ${ideas.id} and x.value = 1`),
      negativeRatingCount: count(sql`select count(*) from ${ratings} x where x.content_type = 'idea' and x.object_pk = ${ideas.id} and x.value = -1`),
      userRatingId: sql<number | null>`(select x.id from ${ratings} x where x.content_type = 'idea' and x.object_pk = ${ideas.id} and x.creator_id = ${uid})`,
      userRatingValue: sql<number | null>`(select x.value from ${ratings} x where x.content_type = 'idea' and x.object_pk = ${ideas.id} and x.creator_id = ${uid})`,
    })
    .from(ideas)
    .innerJoin(users, eq(users.id, ideas.creatorId))
    .leftJoin(categories, eq(categories.id, ideas.categoryId))
    .where(and(eq(ideas.moduleId, where.moduleId), where.ideaId === undefined ? undefined : eq(ideas.id, where.ideaId)))
    .orderBy(desc(ideas.created), desc(ideas.id));
  const labelsOf = await loadIdeaLabels(
    db,
    rows.map((r) => r.id),
  );
  return rows.map(({ categoryId, categoryName, replyCount, userRatingId, userRatingValue, ...row }) => ({
    ...row,
    commentCount: row.commentCount + replyCount,
    category: categoryId !== null && categoryName !== null ? { id: categoryId, name: categoryName } : null,
    userRating: userRatingId === null || userRatingValue === null ? null : { id: Number(userRatingId), value: Number(userRatingValue) },
    labels: labelsOf.get(row.id) ?? [],
  }));
}

async function loadIdeaLabels(db: DbOrTx, ideaIds: number[]): Promise<Map<number, NamedRef[]>> {
  const map = new Map<number, NamedRef[]>();
  if (!ideaIds.length) return map;
  const rows = await db
    .select({ ideaId: ideaLabels.ideaId, id: labels.id, name: labels.name })
    .from(ideaLabels)
    .innerJoin(labels, eq(labels.id, ideaLabels.labelId))
    .where(inArray(ideaLabels.ideaId, ideaIds))
    .orderBy(asc(labels.id));
  for (const { ideaId, id, name } of rows) map.set(ideaId, [...(map.get(ideaId) ?? []), { id, name }]);
  return map;
}
