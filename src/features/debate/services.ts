import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { subjects } from './schema.js';
import { deleteCommentsOn } from '../comments/services.js';
import type { SubjectInput } from './rules.js';

/** Adds a subject to a debate module (inside the caller's transaction); loaddata keeps a given id. */
export async function createSubject(tx: Tx, input: SubjectInput & { moduleId: number; creatorId: number; id?: number; created?: Date }): Promise<{ id: number; created: Date }> {
  const [row] = await tx
    .insert(subjects)
    .values({ ...(input.id ? { id: input.id } : {}), ...(input.created ? { created: input.created } : {}), moduleId: input.moduleId, creatorId: input.creatorId, name: input.name.trim(), description: input.description.trim() })
    .returning({ id: subjects.id, created: subjects.created });
  return row;
}

export async function updateSubject(tx: Tx, id: number, input: SubjectInput): Promise<void> {
  await tx.update(subjects).set({ name: input.name.trim(), description: input.description.trim(), modified: new Date() }).where(eq(subjects.id, id));
}

/** Deletes a subject with its discussion (the confirmation page says so). */
export async function deleteSubject(tx: Tx, id: number): Promise<void> {
  await deleteCommentsOn(tx, 'subject', id);
  await tx.delete(subjects).where(eq(subjects.id, id));
}
