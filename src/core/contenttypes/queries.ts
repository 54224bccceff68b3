import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { comments, type ContentKind, modules } from '../../db/schema/index.js';
import { contentTypeOfModule } from '../modules/registry.js';
import { projectContentType } from './registry.js';

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
    default: {
      // A project's own content (a result): no module.
      const projectOwned = projectContentType(kind);
      if (projectOwned) {
        const own = await projectOwned.target(db, id);
        return own ? { kind, id, creatorId: own.creatorId, projectId: own.projectId, moduleId: null } : null;
      }
      // The content of a module type: its registry entry finds the object's module and creator.
      const found = await contentTypeOfModule(kind)?.target(db, id);
      return found ? withModule(found.moduleId, found.creatorId) : null;
    }
  }
}
