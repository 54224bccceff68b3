import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { itemsNamed } from '../moduletypes/items.js';
import { ideaPath } from '../../core/urls.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import { comments, modules, organisations, projects, ratings } from '../../db/schema/index.js';
import type { ContentTypeOfModule, TileCount } from '../../core/modules/registry.js';
import type { IdeaKind } from './kinds.js';
import { deleteIdea } from './services.js';

/** The items of a kind among `ids` that someone other than `userId` commented on (or replied under) or rated. */
async function discussedByOthers(tx: DbOrTx, { kind }: IdeaKind, userId: number, ids: number[]): Promise<number[]> {
  const parent = alias(comments, 'parent');
  const onItems = (table: typeof comments | typeof ratings) => and(eq(table.contentType, kind), inArray(table.objectPk, ids));
  const commented = await tx.select({ id: comments.objectPk }).from(comments).where(and(onItems(comments), ne(comments.creatorId, userId)));
  const replied = await tx
    .select({ id: parent.objectPk })
    .from(comments)
    .innerJoin(parent, and(eq(comments.contentType, 'comment'), eq(comments.objectPk, parent.id)))
    .where(and(eq(parent.contentType, kind), inArray(parent.objectPk, ids), ne(comments.creatorId, userId)));
  const rated = await tx.select({ id: ratings.objectPk }).from(ratings).where(and(onItems(ratings), ne(ratings.creatorId, userId)));
  return [...commented, ...replied, ...rated].map((r) => r.id);
}

/**
 * The idea-like kinds' one rule for an author who deletes the account: an item nobody else took part
 * in (comments, replies, ratings, and what the kind counts besides: supports, votes) is deleted as in
 * the reference, with its image; an item others took part in stays, handed over to the placeholder,
 * without the author's contact details.
 */
const deleteOrHandOverIdeas =
  (ideaKind: IdeaKind) =>
  async (tx: Tx, userId: number, placeholderId: number): Promise<string[]> => {
    const { table } = ideaKind;
    const own = await tx.select({ id: table.id, image: table.image }).from(table).where(eq(table.creatorId, userId));
    if (!own.length) return [];
    const ids = own.map((i) => i.id);
    const kept = new Set([...(await discussedByOthers(tx, ideaKind, userId, ids)), ...((await ideaKind.takenPartIn?.(tx, userId, ids)) ?? [])]);
    const files: string[] = [];
    for (const item of own.filter((i) => !kept.has(i.id))) {
      await deleteIdea(tx, item.id, ideaKind);
      if (item.image) files.push(item.image);
    }
    // The author's contact details (kept from adhocracy+) go with the account.
    if (kept.size) await tx.update(table).set({ creatorId: placeholderId, creatorEmail: '', creatorPhone: '', creatorContactConsent: false }).where(inArray(table.id, [...kept]));
    return files;
  };

/** Idea-like items as content: commented, rated and reported through the shared content-type API. */
export const ideaContentTypeOf = (
  ideaKind: IdeaKind,
  type: Pick<ContentTypeOfModule, 'id' | 'appLabel' | 'model'>,
  reportedNames: NonNullable<ContentTypeOfModule['reportedNames']>,
): ContentTypeOfModule => {
  const { kind, table, segment } = ideaKind;
  return {
    kind,
    ...type,
    commentable: true,
    rateable: true,
    reportable: true,
    remarkable: true,
    resultable: { named: itemsNamed({ id: table.id, moduleId: table.moduleId, name: table.name }) },
    reportedNames,
    inModules: (moduleIds) => sql`select ${table.id}, ${table.moduleId}, ${table.creatorId} from ${table} where ${table.moduleId} in (${moduleIds})`,
    target: async (db, id) => {
      const [row] = await db.select({ moduleId: table.moduleId, creatorId: table.creatorId }).from(table).where(eq(table.id, id));
      return row ?? null;
    },
    pages: async (db, ids) => {
      const rows = await db
        .select({ id: table.id, name: table.name, created: table.created, orgSlug: organisations.slug })
        .from(table)
        .innerJoin(modules, eq(modules.id, table.moduleId))
        .innerJoin(projects, eq(projects.id, modules.projectId))
        .innerJoin(organisations, eq(organisations.id, projects.organisationId))
        .where(inArray(table.id, ids));
      return new Map(
        rows.map((r) => {
          const path = ideaPath(r.orgSlug, r.created, r.id, segment);
          return [r.id, { name: r.name, path, moderatePath: `${path}moderate/` }];
        }),
      );
    },
    onAuthorDeleted: deleteOrHandOverIdeas(ideaKind),
  };
};

/** The module tiles of the idea-like types count their items as ideas (map ideas are ideas on a map). */
export const IDEA_TILE_COUNT: TileCount = { one: { en: '%(count)s idea', de: '%(count)s Idee' }, many: { en: '%(count)s ideas', de: '%(count)s Ideen' } };
