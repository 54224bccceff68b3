import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { comments, type ContentKind } from '../../db/schema/index.js';
import { notFound } from '../../http/errors.js';
import { type LoadedModuleContext, loadModuleContext, type LoadedProjectItemContext, loadProjectItemContext } from '../projects/context.js';
import { loadTarget, type TargetInfo } from './queries.js';
import { contentKindOf, projectContentType } from './registry.js';

interface ObjectFacts {
  target: TargetInfo;
  /** The idea, poll, chapter, paragraph or result a comment thread is about (the object itself if it is one). */
  root: { type: ContentKind; id: number };
}

/**
 * An object addressed by `/api/contenttypes/{ct}/objects/{pk}/…`, with its thread root and the rule
 * context: its module's, or in a thread about a project's own content (a result, registry
 * `projectContentType`) the project's alone (`module: null`).
 */
export type ObjectContext = (LoadedModuleContext | LoadedProjectItemContext) & ObjectFacts;

const MAX_DEPTH = 4;

/** Follows replies up to the object their thread is about. */
async function threadRoot(db: DbOrTx, type: ContentKind, id: number): Promise<{ type: ContentKind; id: number } | null> {
  let current = { type, id };
  for (let depth = 0; current.type === 'comment' && depth < MAX_DEPTH; depth++) {
    const [row] = await db.select({ type: comments.contentType, id: comments.objectPk }).from(comments).where(eq(comments.id, current.id));
    if (!row) return null;
    current = row;
  }
  return current.type === 'comment' ? null : current;
}

type ContextUser = { id: number; isSuperuser: boolean } | null;

/**
 * Loads an object by content type id and pk for a user: 404 when the content type is not one of
 * `allowed`, or the object (or its project) does not exist.
 */
export async function loadObjectContext(db: DbOrTx, ctId: number, pk: number, user: ContextUser, allowed: readonly ContentKind[]): Promise<ObjectContext> {
  const context = await findObjectContext(db, ctId, pk, user, allowed);
  if (!context) throw notFound();
  return context;
}

/** The same, null where `loadObjectContext` answers 404 (for the routes that answer a missing object otherwise). */
export async function findObjectContext(db: DbOrTx, ctId: number, pk: number, user: ContextUser, allowed: readonly ContentKind[]): Promise<ObjectContext | null> {
  const kind = contentKindOf(ctId);
  if (!kind || !allowed.includes(kind)) return null;
  const target = await loadTarget(db, kind, pk);
  const root = target && (await threadRoot(db, kind, pk));
  if (!target || !root) return null;
  // A thread about a project's own content (a result) is decided by the project; every other by the object's module.
  const context = projectContentType(root.type)
    ? target.projectId === null ? null : await loadProjectItemContext(db, target.projectId, user)
    : target.moduleId === null ? null : await loadModuleContext(db, target.moduleId, user);
  return context && { ...context, target, root };
}
