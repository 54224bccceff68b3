import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { type ContentKind, ratings } from '../../db/schema/index.js';
import { loadTarget } from '../../core/contenttypes/queries.js';
import { countContribution } from '../../core/insights/services.js';

/** Ratings are -1, 0 or 1; anything else is clamped (the reference's save). */
const clampRating = (value: number) => Math.max(-1, Math.min(1, Math.trunc(value)));

export class RatingExists extends Error {
  constructor(readonly ratingId: number) {
    super('You have already rated this object.');
  }
}

/** One rating per user and object: a second one is refused with the existing rating's id. A new rating counts in the project's statistics. */
export async function addRating(db: Tx, creatorId: number, target: { type: ContentKind; id: number }, value: number): Promise<number> {
  const [row] = await db
    .insert(ratings)
    .values({ creatorId, contentType: target.type, objectPk: target.id, value: clampRating(value) })
    .onConflictDoNothing({ target: [ratings.contentType, ratings.objectPk, ratings.creatorId] })
    .returning({ id: ratings.id });
  if (row) {
    const found = await loadTarget(db, target.type, target.id);
    await countContribution(db, found?.projectId ?? null, creatorId, 'ratings', new Date());
    return row.id;
  }
  const [existing] = await db
    .select({ id: ratings.id })
    .from(ratings)
    .where(and(eq(ratings.contentType, target.type), eq(ratings.objectPk, target.id), eq(ratings.creatorId, creatorId)));
  throw new RatingExists(existing?.id ?? 0);
}

/** Changes a rating's value; "deleting" a rating sets it to 0 (the row stays). */
export async function setRating(db: Tx, ratingId: number, value: number): Promise<void> {
  await db.update(ratings).set({ value: clampRating(value), modified: new Date() }).where(eq(ratings.id, ratingId));
}

/**
 * The pages' rating buttons (§A10.2): the user's first click sets +1 or -1, clicking the chosen
 * value again withdraws it (0), the other value switches. The user's own rating row, one per object.
 */
export async function toggleRating(db: Tx, creatorId: number, target: { type: ContentKind; id: number }, value: 1 | -1 | number): Promise<void> {
  const [existing] = await db
    .select({ id: ratings.id, value: ratings.value })
    .from(ratings)
    .where(and(eq(ratings.contentType, target.type), eq(ratings.objectPk, target.id), eq(ratings.creatorId, creatorId)))
    .for('update');
  if (!existing) {
    try {
      await addRating(db, creatorId, target, value);
      return;
    } catch (error) {
      if (!(error instanceof RatingExists)) throw error;
      return setRating(db, error.ratingId, value);
    }
  }
  await setRating(db, existing.id, existing.value === clampRating(value) ? 0 : value);
}
