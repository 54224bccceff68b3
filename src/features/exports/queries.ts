import { and, asc, eq, gt, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { comments, ideas, modules, organisations, projects, ratings, users } from '../../db/schema/index.js';
import { qualified as q } from '../../db/sql.js';
import { type IdeaRow, loadIdeas } from '../ideas/queries.js';

/** Rows read per statement: an export of any size holds one batch at a time. */
export const EXPORT_BATCH = 500;

/** The module an export is about, found under its organisation (another organisation's module is not found). */
export async function findExportModule(db: DbOrTx, orgSlug: string, moduleSlug: string) {
  const [row] = await db
    .select({ id: modules.id, name: modules.name, slug: modules.slug, blueprintType: modules.blueprintType, isDraft: modules.isDraft, projectId: projects.id, projectSlug: projects.slug, projectName: projects.name })
    .from(modules)
    .innerJoin(projects, eq(projects.id, modules.projectId))
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(and(eq(organisations.slug, orgSlug), eq(modules.slug, moduleSlug)));
  return row ?? null;
}
/** A project's modules with what the export rule asks (`mayExportModule`), in menu order. */
export const loadProjectExportModules = (db: DbOrTx, projectId: number) =>
  db
    .select({ name: modules.name, slug: modules.slug, blueprintType: modules.blueprintType, isDraft: modules.isDraft })
    .from(modules)
    .where(eq(modules.projectId, projectId))
    .orderBy(asc(modules.weight), asc(modules.id));

export type ExportModule = NonNullable<Awaited<ReturnType<typeof findExportModule>>>;

/** Reads a table in id order, one batch per statement, until a batch comes back short. */
async function* keysetBatches<R extends { id: number }>(read: (afterId: number) => Promise<R[]>, size: number): AsyncGenerator<R[]> {
  let afterId = 0;
  for (;;) {
    const batch = await read(afterId);
    if (batch.length) yield batch;
    if (batch.length < size) return;
    afterId = batch[batch.length - 1].id;
  }
}

/** The ideas of a module, oldest first, in batches (the idea list's own query: counts, category, labels). */
export const ideaBatches = (db: DbOrTx, moduleId: number, size = EXPORT_BATCH): AsyncGenerator<IdeaRow[]> =>
  keysetBatches((afterId) => loadIdeas(db, { moduleId, ordering: 'id', afterId, limit: size }, null), size);

export interface CommentExportRow {
  id: number;
  comment: string;
  isRemoved: boolean;
  isCensored: boolean;
  isBlocked: boolean;
  created: Date;
  creatorName: string;
  /** The comment a reply answers; null for a comment on the idea itself. */
  parentId: number | null;
  ideaId: number;
  ideaCreated: Date;
  positiveRatingCount: number;
  negativeRatingCount: number;
}

const parent = alias(comments, 'parent');
const ratingCount = (value: 1 | -1) =>
  sql<number>`(select count(*) from ${ratings} where ${q(ratings.contentType)} = 'comment' and ${q(ratings.objectPk)} = ${q(comments.id)} and ${q(ratings.value)} = ${value})`.mapWith(Number);

function loadCommentBatch(db: DbOrTx, moduleId: number, afterId: number, size: number): Promise<CommentExportRow[]> {
  return db
    .select({
      id: comments.id,
      comment: comments.comment,
      isRemoved: comments.isRemoved,
      isCensored: comments.isCensored,
      isBlocked: comments.isBlocked,
      created: comments.created,
      creatorName: users.username,
      parentId: parent.id,
      ideaId: ideas.id,
      ideaCreated: ideas.created,
      positiveRatingCount: ratingCount(1),
      negativeRatingCount: ratingCount(-1),
    })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.creatorId))
    .leftJoin(parent, and(eq(comments.contentType, 'comment'), eq(parent.id, comments.objectPk)))
    .innerJoin(ideas, or(and(eq(comments.contentType, 'idea'), eq(ideas.id, comments.objectPk)), and(eq(parent.contentType, 'idea'), eq(ideas.id, parent.objectPk))))
    .where(and(eq(ideas.moduleId, moduleId), gt(comments.id, afterId)))
    .orderBy(asc(comments.id))
    .limit(size);
}

/** The comments on a module's ideas and the replies to them, oldest first, in batches (§B16.3). */
export const commentBatches = (db: DbOrTx, moduleId: number, size = EXPORT_BATCH): AsyncGenerator<CommentExportRow[]> =>
  keysetBatches((afterId) => loadCommentBatch(db, moduleId, afterId, size), size);
