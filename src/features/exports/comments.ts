import { and, asc, type Column, eq, gt, inArray, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { comments, type ContentKind, users } from '../../db/schema/index.js';
import { commentPath } from '../../core/urls.js';
import { contentTypeOfModule } from '../../core/modules/registry.js';
import type { ObjectRef } from '../comments/queries.js';
import { exportFile, type ModuleExportFile } from '../moduletypes/contract.js';
import { commentExportColumns, commentParent as parent, commentParentJoin, commentSheetOf, type CommentSheetRow } from './comment-sheet.js';
import { EXPORT_BATCH, keysetBatches } from './queries.js';

/**
 * The comment export of a module whose content is not ideas (§1.5: a text review's chapters and
 * paragraphs, a debate's subjects, a prioritisation's topics): every comment on the module's
 * objects and every reply, oldest first, in batches. The objects' pages and names come from their
 * content types (`pages`).
 */

interface ModuleCommentRow extends CommentSheetRow {
  commentCategories: string;
  object: ObjectRef;
  objectName: string;
  objectPath: string;
}

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
        ...commentExportColumns(),
        commentCategories: comments.commentCategories,
        contentType: comments.contentType,
        objectPk: comments.objectPk,
        parentType: parent.contentType,
        parentObjectPk: parent.objectPk,
      })
      .from(comments)
      .innerJoin(users, eq(users.id, comments.creatorId))
      .leftJoin(parent, commentParentJoin)
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

/** The comment sheet: what each comment is on by name; the categories (debates) before "Blocked". */
const sheet = (categories: boolean) =>
  commentSheetOf<ModuleCommentRow>({
    link: (row) => commentPath(row.objectPath, row.id),
    on: { column: 'Commented on', cell: (row) => row.objectName },
    more: categories ? { columns: ['Categories'], cells: (row) => [row.commentCategories.replace(/^\[|\]$/g, '')] } : undefined,
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
