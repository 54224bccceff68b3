import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { ratings, reports } from '../../db/schema/index.js';
import { topicLabels, topics } from './schema.js';
import { cleanRichText } from '../../text/html.js';
import { deleteCommentsOn } from '../comments/services.js';
import type { TopicInput } from './rules.js';

/** Adds a topic to a prioritisation module (inside the caller's transaction); loaddata keeps a given id. */
export async function createTopic(tx: Tx, input: TopicInput & { moduleId: number; creatorId: number; id?: number; created?: Date }): Promise<{ id: number; created: Date }> {
  const [row] = await tx
    .insert(topics)
    .values({
      ...(input.id ? { id: input.id } : {}),
      ...(input.created ? { created: input.created } : {}),
      moduleId: input.moduleId,
      creatorId: input.creatorId,
      name: input.name.trim(),
      description: cleanRichText(input.description),
      categoryId: input.categoryId,
    })
    .returning({ id: topics.id, created: topics.created });
  if (input.labelIds.length) await tx.insert(topicLabels).values([...new Set(input.labelIds)].map((labelId) => ({ topicId: row.id, labelId })));
  return row;
}

export async function updateTopic(tx: Tx, id: number, input: TopicInput): Promise<void> {
  await tx.update(topics).set({ name: input.name.trim(), description: cleanRichText(input.description), categoryId: input.categoryId, modified: new Date() }).where(eq(topics.id, id));
  await tx.delete(topicLabels).where(eq(topicLabels.topicId, id));
  if (input.labelIds.length) await tx.insert(topicLabels).values([...new Set(input.labelIds)].map((labelId) => ({ topicId: id, labelId })));
}

/** Deletes a topic with its discussion, ratings and reports (the confirmation page says so). */
export async function deleteTopic(tx: Tx, id: number): Promise<void> {
  await deleteCommentsOn(tx, 'topic', id);
  await tx.delete(ratings).where(and(eq(ratings.contentType, 'topic'), eq(ratings.objectPk, id)));
  await tx.delete(reports).where(and(eq(reports.contentType, 'topic'), eq(reports.objectPk, id)));
  await tx.delete(topics).where(eq(topics.id, id));
}
