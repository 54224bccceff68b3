import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { type ContentKind, moderatorRemarks } from '../../db/schema/index.js';

/**
 * Writes the remark on an item (one per item: a second writer updates the same row, ON CONFLICT);
 * an empty remark deletes it. Returns the row's id, null after a delete.
 */
export async function saveRemark(tx: Tx, input: { kind: ContentKind; pk: number; remark: string; actorId: number | null; created?: Date }): Promise<number | null> {
  const remark = input.remark.trim();
  if (!remark) {
    await tx.delete(moderatorRemarks).where(and(eq(moderatorRemarks.contentType, input.kind), eq(moderatorRemarks.objectPk, input.pk)));
    return null;
  }
  const [row] = await tx
    .insert(moderatorRemarks)
    .values({ contentType: input.kind, objectPk: input.pk, remark, creatorId: input.actorId, ...(input.created ? { created: input.created } : {}) })
    .onConflictDoUpdate({ target: [moderatorRemarks.contentType, moderatorRemarks.objectPk], set: { remark, modified: sql`now()` } })
    .returning({ id: moderatorRemarks.id });
  return row.id;
}
