import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { chapters, comments, type ContentKind, ideas, modules, paragraphs, polls } from '../../db/schema/index.js';

/** What generic relations need to know about a target object. */
export interface TargetInfo {
  kind: ContentKind;
  id: number;
  /** The target's creator; null for kinds without one (paragraphs). */
  creatorId: number | null;
  projectId: number | null;
  moduleId: number | null;
  /** A comment removed by its author or censored by a moderator. */
  isRemoved?: boolean;
  isCensored?: boolean;
}

/** Loads a commentable/rateable object's creator, module and project; null when it does not exist. */
export async function loadTarget(db: DbOrTx, kind: ContentKind, id: number): Promise<TargetInfo | null> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2147483647) return null;
  const withModule = async (moduleId: number, creatorId: number | null): Promise<TargetInfo> => {
    const [module] = await db.select({ projectId: modules.projectId }).from(modules).where(eq(modules.id, moduleId));
    return { kind, id, creatorId, moduleId, projectId: module?.projectId ?? null };
  };
  switch (kind) {
    case 'idea': {
      const [row] = await db.select({ moduleId: ideas.moduleId, creatorId: ideas.creatorId }).from(ideas).where(eq(ideas.id, id));
      return row ? withModule(row.moduleId, row.creatorId) : null;
    }
    case 'poll': {
      const [row] = await db.select({ moduleId: polls.moduleId, creatorId: polls.creatorId }).from(polls).where(eq(polls.id, id));
      return row ? withModule(row.moduleId, row.creatorId) : null;
    }
    case 'chapter': {
      const [row] = await db.select({ moduleId: chapters.moduleId, creatorId: chapters.creatorId }).from(chapters).where(eq(chapters.id, id));
      return row ? withModule(row.moduleId, row.creatorId) : null;
    }
    case 'paragraph': {
      const [row] = await db
        .select({ moduleId: chapters.moduleId })
        .from(paragraphs)
        .innerJoin(chapters, eq(chapters.id, paragraphs.chapterId))
        .where(eq(paragraphs.id, id));
      return row ? withModule(row.moduleId, null) : null;
    }
    case 'comment': {
      const [row] = await db
        .select({
          creatorId: comments.creatorId,
          projectId: comments.projectId,
          contentType: comments.contentType,
          objectPk: comments.objectPk,
          isRemoved: comments.isRemoved,
          isCensored: comments.isCensored,
        })
        .from(comments)
        .where(eq(comments.id, id));
      if (!row) return null;
      // A reply belongs to the module of the object its thread is about.
      const parent = await loadTarget(db, row.contentType, row.objectPk);
      return {
        kind,
        id,
        creatorId: row.creatorId,
        projectId: row.projectId ?? parent?.projectId ?? null,
        moduleId: parent?.moduleId ?? null,
        isRemoved: row.isRemoved,
        isCensored: row.isCensored,
      };
    }
    default:
      return null;
  }
}
