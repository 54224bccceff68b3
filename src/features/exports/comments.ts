import { and, asc, type Column, eq, gt, inArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { comments, type ContentKind, ratings, users } from '../../db/schema/index.js';
import { qualified as q } from '../../db/sql.js';
import { formatIsoLocal } from '../../i18n/dates.js';
import { t } from '../../i18n/index.js';
import { absoluteUrl } from '../../http/urls.js';
import { commentPath } from '../../core/urls.js';
import { contentTypeOfModule } from '../../core/modules/registry.js';
import type { ObjectRef } from '../comments/queries.js';
import { exportFile, type ModuleExportFile, type Sheet } from '../moduletypes/contract.js';
import { EXPORT_BATCH, keysetBatches } from './queries.js';

/**
 * The comment export of a module whose content is not ideas (§1.5: a text review's chapters and
 * paragraphs, a debate's subjects, a prioritisation's topics): every comment on the module's
 * objects and every reply, oldest first, in batches. The objects' pages and names come from their
 * content types (`pages`).
 */

interface ModuleCommentRow {
  id: number;
  comment: string;
  commentCategories: string;
  isRemoved: boolean;
  isCensored: boolean;
  isBlocked: boolean;
  created: Date;
  creatorName: string;
  parentId: number | null;
  object: ObjectRef;
  objectName: string;
  objectPath: string;
  positiveRatingCount: number;
  negativeRatingCount: number;
}

const parent = alias(comments, 'parent');
const ratingCount = (value: 1 | -1) =>
  sql<number>`(select count(*) from ${ratings} where ${q(ratings.contentType)} = 'comment' and ${q(ratings.objectPk)} = ${q(comments.id)} and ${q(ratings.value)} = ${value})`.mapWith(Number);

const onObjects = (table: { contentType: Column; objectPk: Column }, kind: ContentKind, ids: number[]) => and(eq(table.contentType, kind), inArray(table.objectPk, ids));

async function* commentBatches(db: DbOrTx, objects: ObjectRef[], size: number): AsyncGenerator<ModuleCommentRow[]> {
  const kinds = [...new Set(objects.map((o) => o.type))];
  const idsOf = (kind: ContentKind) => objects.filter((o) => o.type === kind).map((o) => o.id);
  const pages = new Map<string, { path: string; name: string }>();
  for (const kind of kinds) {
    for (const [id, page] of (await contentTypeOfModule(kind)?.pages?.(db, idsOf(kind))) ?? []) pages.set(`${kind}:${id}`, page);
  }
  if (!objects.length) return;
  const read = (afterId: number) =>
    db
      .select({
        id: comments.id,
        comment: comments.comment,
        commentCategories: comments.commentCategories,
        isRemoved: comments.isRemoved,
        isCensored: comments.isCensored,
        isBlocked: comments.isBlocked,
        created: comments.created,
        creatorName: users.username,
        parentId: parent.id,
        contentType: comments.contentType,
        objectPk: comments.objectPk,
        parentType: parent.contentType,
        parentObjectPk: parent.objectPk,
        positiveRatingCount: ratingCount(1),
        negativeRatingCount: ratingCount(-1),
      })
      .from(comments)
      .innerJoin(users, eq(users.id, comments.creatorId))
      .leftJoin(parent, and(eq(comments.contentType, 'comment'), eq(parent.id, comments.objectPk)))
      .where(and(or(...kinds.flatMap((kind) => [onObjects(comments, kind, idsOf(kind)), onObjects(parent, kind, idsOf(kind))])), gt(comments.id, afterId)))
      .orderBy(asc(comments.id))
      .limit(size)
      .then((rows) =>
        rows.map(({ contentType, objectPk, parentType, parentObjectPk, ...row }) => {
          const object = contentType === 'comment' && parentType !== null && parentObjectPk !== null ? { type: parentType, id: parentObjectPk } : { type: contentType, id: objectPk };
          const page = pages.get(`${object.type}:${object.id}`);
          return { ...row, object, objectName: page?.name ?? '', objectPath: page?.path ?? '/' };
        }),
      );
  yield* keysetBatches(read, size);
}

/** The comment sheet: what the discussion withholds (removed, censored, blocked text), the export withholds too. */
const sheet = (categories: boolean): Sheet<ModuleCommentRow> => ({
  title: 'Comments',
  columns: ['ID', 'Comment', 'Created', 'Link', 'Creator', 'Positive ratings', 'Negative ratings', 'Commented on', 'Reply to Comment', ...(categories ? ['Categories'] : []), 'Blocked'],
  cells: (row, c) => [
    row.id,
    row.isRemoved || row.isCensored || row.isBlocked ? '' : row.comment,
    formatIsoLocal(row.created, c.timeZone),
    absoluteUrl(c.baseUrl, commentPath(row.objectPath, row.id)),
    row.creatorName,
    row.positiveRatingCount,
    row.negativeRatingCount,
    row.objectName,
    row.parentId ?? '',
    ...(categories ? [row.commentCategories.replace(/^\[|\]$/g, '')] : []),
    t(c.lang, row.isBlocked ? 'yes' : 'no'),
  ],
});

/** The comments export file of a module whose commented objects `objects` lists; with the "Categories" column for debates (§9.2). */
export const moduleCommentsFile = (objects: (db: DbOrTx, moduleId: number) => Promise<ObjectRef[]>, options: { categories?: boolean } = {}): ModuleExportFile =>
  exportFile({
    name: 'comments',
    heading: 'Comments',
    sheet: sheet(options.categories ?? false),
    batches: async function* (db, moduleId) {
      yield* commentBatches(db, await objects(db, moduleId), EXPORT_BATCH);
    },
  });
