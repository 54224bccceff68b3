import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { ideaLabels, ideas, modules, ratings, reports } from '../../db/schema/index.js';
import { cleanRichText } from '../../text/html.js';
import { deleteActionsOf, recordAction } from '../actions/services.js';
import { deleteCommentsOn } from '../comments/services.js';
import { autoFollow } from '../follows/services.js';

export interface NewIdea {
  id?: number;
  moduleId: number;
  creatorId: number;
  name: string;
  description: string;
  categoryId?: number | null;
  labelIds?: number[];
  image?: string | null;
  created?: Date;
  modified?: Date | null;
}

async function projectOfModule(db: DbOrTx, moduleId: number): Promise<number> {
  const [module] = await db.select({ projectId: modules.projectId }).from(modules).where(eq(modules.id, moduleId));
  if (!module) throw new Error(`no module ${moduleId}`);
  return module.projectId;
}

/** Creates an idea the platform's way: the idea, its labels, its "add" action, the creator's follow. */
export async function createIdea(db: DbOrTx, input: NewIdea): Promise<number> {
  const projectId = await projectOfModule(db, input.moduleId);
  const created = input.created ?? new Date();
  const [idea] = await db
    .insert(ideas)
    .values({
      ...(input.id ? { id: input.id } : {}),
      moduleId: input.moduleId,
      creatorId: input.creatorId,
      name: input.name,
      description: cleanRichText(input.description),
      categoryId: input.categoryId ?? null,
      image: input.image ?? null,
      created,
      modified: input.modified ?? null,
    })
    .returning({ id: ideas.id });
  if (input.labelIds?.length) {
    await db.insert(ideaLabels).values(input.labelIds.map((labelId) => ({ ideaId: idea.id, labelId })));
  }
  await recordAction(db, {
    actorId: input.creatorId,
    verb: 'add',
    obj: { type: 'idea', id: idea.id },
    target: { type: 'project', id: projectId },
    projectId,
    timestamp: created,
  });
  await autoFollow(db, input.creatorId, projectId, created);
  return idea.id;
}

export interface IdeaChanges {
  name?: string;
  description?: string;
  categoryId?: number | null;
  labelIds?: number[];
  image?: string | null;
}

/** Saves changes to an idea: sets `modified` and records an "update" action by its creator. */
export async function updateIdea(db: DbOrTx, ideaId: number, changes: IdeaChanges): Promise<void> {
  const [idea] = await db
    .update(ideas)
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.description !== undefined ? { description: cleanRichText(changes.description) } : {}),
      ...(changes.categoryId !== undefined ? { categoryId: changes.categoryId } : {}),
      ...(changes.image !== undefined ? { image: changes.image } : {}),
      modified: new Date(),
    })
    .where(eq(ideas.id, ideaId))
    .returning({ creatorId: ideas.creatorId, moduleId: ideas.moduleId });
  if (!idea) throw new Error(`no idea ${ideaId}`);
  if (changes.labelIds !== undefined) {
    await db.delete(ideaLabels).where(eq(ideaLabels.ideaId, ideaId));
    if (changes.labelIds.length) await db.insert(ideaLabels).values(changes.labelIds.map((labelId) => ({ ideaId, labelId })));
  }
  const projectId = await projectOfModule(db, idea.moduleId);
  await recordAction(db, { actorId: idea.creatorId, verb: 'update', obj: { type: 'idea', id: ideaId }, projectId });
}

/** Deletes an idea with everything that hangs on it: comments (and their replies), ratings, reports, actions. */
export async function deleteIdea(db: DbOrTx, ideaId: number): Promise<void> {
  await deleteCommentsOn(db, 'idea', ideaId);
  await db.delete(ratings).where(and(eq(ratings.contentType, 'idea'), eq(ratings.objectPk, ideaId)));
  await db.delete(reports).where(and(eq(reports.contentType, 'idea'), eq(reports.objectPk, ideaId)));
  await deleteActionsOf(db, 'idea', ideaId);
  await db.delete(ideas).where(eq(ideas.id, ideaId));
}
