import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { type AreaFeatureCollection, modules } from '../../db/schema/index.js';
import { type PointFeature } from './schema.js';
import type { PlaceKind } from './queries.js';

/** Sets (or clears) a module's area. */
export async function saveArea(tx: Tx, moduleId: number, area: AreaFeatureCollection | null): Promise<void> {
  await tx.update(modules).set({ area, modified: new Date() }).where(eq(modules.id, moduleId));
}

/** Moves an item of a kind with a place (the edit form's transaction). */
export async function updatePlace(tx: Tx, { placeTable }: PlaceKind, id: number, place: { point: PointFeature; pointLabel: string }): Promise<void> {
  await tx.update(placeTable).set({ point: place.point, pointLabel: place.pointLabel }).where(eq(placeTable.id, id));
}
