import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { offlineEvents } from '../../db/schema/index.js';
import { deleteActionsOf, recordAction } from '../../core/actions/services.js';
import { freeSlug, slugify } from '../../core/slugs.js';
import { cleanRichText } from '../../text/html.js';
import { type EventNoticeOptions, sendEventChangeNotice } from './notices.js';
import { takenEventSlugs } from './queries.js';
import type { OfflineEventInput } from './rules.js';

/**
 * Adds an event to a project with its "add" action (the activity stream), inside the caller's
 * transaction; its slug is made from the name and unique across the platform (a+'s AutoSlugField).
 * The import keeps a given id, slug and creation date. With `notice` (the dashboard's pages; never
 * loaddata or the import) the project's followers are told (a+ "event added").
 */
export async function createOfflineEvent(
  tx: Tx,
  input: OfflineEventInput & { projectId: number; creatorId: number | null; document?: string | null; id?: number; slug?: string; created?: Date },
  notice?: EventNoticeOptions,
): Promise<{ id: number; slug: string }> {
  const base = input.slug ?? slugify(input.name, 'event');
  const slug = freeSlug(base, await takenEventSlugs(tx, base));
  const [row] = await tx
    .insert(offlineEvents)
    .values({
      ...(input.id ? { id: input.id } : {}),
      ...(input.created ? { created: input.created } : {}),
      projectId: input.projectId,
      creatorId: input.creatorId,
      slug,
      name: input.name,
      eventType: input.eventType,
      date: input.date,
      description: cleanRichText(input.description),
      document: input.document ?? null,
    })
    .returning({ id: offlineEvents.id, slug: offlineEvents.slug });
  await recordAction(tx, { actorId: input.creatorId, verb: 'add', obj: { type: 'offlineevent', id: row.id }, target: { type: 'project', id: input.projectId }, projectId: input.projectId, ...(input.created ? { timestamp: input.created } : {}) });
  if (notice && input.creatorId !== null) await sendEventChangeNotice(tx, 'event_added', row.id, input.creatorId, notice);
  return row;
}

/**
 * Changes an event (its slug stays, so links keep working); `document` undefined keeps the stored
 * one, null removes it. Returns the document path that no longer belongs to the event, if any.
 * With `notice`, a new date is told to the project's followers (a+ "event update": only the date).
 */
export async function updateOfflineEvent(
  tx: Tx,
  event: { id: number; projectId: number; document: string | null; date: Date },
  input: OfflineEventInput & { document?: string | null },
  actorId: number,
  notice?: EventNoticeOptions,
): Promise<string | null> {
  const document = input.document === undefined ? event.document : input.document;
  await tx
    .update(offlineEvents)
    .set({ name: input.name, eventType: input.eventType, date: input.date, description: cleanRichText(input.description), document, modified: new Date() })
    .where(eq(offlineEvents.id, event.id));
  await recordAction(tx, { actorId, verb: 'update', obj: { type: 'offlineevent', id: event.id }, target: { type: 'project', id: event.projectId }, projectId: event.projectId });
  if (notice && input.date.getTime() !== event.date.getTime()) await sendEventChangeNotice(tx, 'event_update', event.id, actorId, notice);
  return event.document && event.document !== document ? event.document : null;
}

/**
 * Deletes an event with its actions; returns its document's path (removed from the store once no
 * row names it). With `notice` (and the actor), the project's followers hear it is cancelled.
 */
export async function deleteOfflineEvent(tx: Tx, event: { id: number; document: string | null }, notice?: EventNoticeOptions & { actorId: number }): Promise<string | null> {
  if (notice) await sendEventChangeNotice(tx, 'event_cancelled', event.id, notice.actorId, notice);
  await deleteActionsOf(tx, 'offlineevent', event.id);
  await tx.delete(offlineEvents).where(eq(offlineEvents.id, event.id));
  return event.document;
}
