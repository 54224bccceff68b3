import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { administrativeDistricts, type AreaFeatureCollection, modules } from '../../db/schema/index.js';
import { mapPresetCategories, mapPresets, type PointFeature } from './schema.js';
import type { CheckedPlace } from './rules.js';
import type { PlaceKind } from './queries.js';

/** Sets (or clears) a module's area. */
export async function saveArea(tx: DbOrTx, moduleId: number, area: AreaFeatureCollection | null): Promise<void> {
  await tx.update(modules).set({ area, modified: new Date() }).where(eq(modules.id, moduleId));
}

/** Moves an item of a kind with a place (the edit form's transaction). */
export async function updatePlace(tx: DbOrTx, { placeTable }: PlaceKind, id: number, place: { point: PointFeature; pointLabel: string }): Promise<void> {
  await tx.update(placeTable).set({ point: place.point, pointLabel: place.pointLabel }).where(eq(placeTable.id, id));
}

/** Creates (id null) or changes an area preset, checked by `checkPlace`. */
export async function savePreset(tx: DbOrTx, id: number | null, place: CheckedPlace & { area: AreaFeatureCollection }): Promise<void> {
  const values = { name: place.name, area: place.area, categoryId: place.categoryId };
  if (id === null) await tx.insert(mapPresets).values(values);
  else await tx.update(mapPresets).set(values).where(eq(mapPresets.id, id));
}

/** Removes a preset; the modules that took its area keep it (the area was copied). */
export async function deletePreset(tx: DbOrTx, id: number): Promise<void> {
  await tx.delete(mapPresets).where(eq(mapPresets.id, id));
}

/** Creates (id null) or renames a preset category. */
export async function savePresetCategory(tx: DbOrTx, id: number | null, name: string): Promise<void> {
  if (id === null) await tx.insert(mapPresetCategories).values({ name: name.trim() });
  else await tx.update(mapPresetCategories).set({ name: name.trim() }).where(eq(mapPresetCategories.id, id));
}

/** Removes a preset category; its presets stay, without a category (a+'s SET_NULL). */
export async function deletePresetCategory(tx: DbOrTx, id: number): Promise<void> {
  await tx.delete(mapPresetCategories).where(eq(mapPresetCategories.id, id));
}

/** Creates (id null) or changes an administrative district, checked by `checkPlace`. */
export async function saveDistrict(tx: DbOrTx, id: number | null, place: CheckedPlace): Promise<void> {
  const values = { name: place.name, shortCode: place.shortCode, area: place.area };
  if (id === null) await tx.insert(administrativeDistricts).values(values);
  else await tx.update(administrativeDistricts).set(values).where(eq(administrativeDistricts.id, id));
}

/** Removes a district; its projects keep no district (SET NULL). */
export async function deleteDistrict(tx: DbOrTx, id: number): Promise<void> {
  await tx.delete(administrativeDistricts).where(eq(administrativeDistricts.id, id));
}
