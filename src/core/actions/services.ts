import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { type ActionVerb, actions, type ContentKind } from '../../db/schema/index.js';

interface NewAction {
  actorId: number | null;
  verb: ActionVerb;
  obj: { type: ContentKind; id: number };
  target?: { type: ContentKind; id: number } | null;
  targetCreatorId?: number | null;
  objCommentCreatorId?: number | null;
  projectId: number | null;
  phaseId?: number | null;
  timestamp?: Date;
  description?: string | null;
}

/** Records an activity (platform-facts §6). */
export async function recordAction(db: Tx, action: NewAction): Promise<void> {
  await db.insert(actions).values({
    actorId: action.actorId,
    verb: action.verb,
    objType: action.obj.type,
    objId: action.obj.id,
    targetType: action.target?.type ?? null,
    targetId: action.target?.id ?? null,
    targetCreatorId: action.targetCreatorId ?? null,
    objCommentCreatorId: action.objCommentCreatorId ?? null,
    projectId: action.projectId,
    phaseId: action.phaseId ?? null,
    timestamp: action.timestamp ?? new Date(),
    description: action.description ?? null,
  });
}

/** Deleting (or removing) an object deletes the actions whose object it is. */
export async function deleteActionsOf(db: Tx, type: ContentKind, id: number): Promise<void> {
  await db.delete(actions).where(and(eq(actions.objType, type), eq(actions.objId, id)));
}
