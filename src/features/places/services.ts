import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { administrativeDistricts, type AreaFeatureCollection } from '../../db/schema/index.js';
import { mapPresetCategories, mapPresets } from './schema.js';
import type { CheckedPlace } from './rules.js';

/** Which row a save writes: a new one (with the id loaddata gives, or the next), or the stored one. */
type SaveTarget = { create: true; id?: number } | { create: false; id: number };

/** Creates or changes an area preset, checked by `checkPlace`. */
export async function savePreset(tx: Tx, target: SaveTarget, place: CheckedPlace & { area: AreaFeatureCollection }): Promise<void> {
  const values = { name: place.name, area: place.area, categoryId: place.categoryId };
  const { id } = target;
  if (target.create) await tx.insert(mapPresets).values({ ...values, id });
  else await tx.update(mapPresets).set(values).where(eq(mapPresets.id, target.id));
}

/** Removes a preset; the modules that took its area keep it (the area was copied). */
export async function deletePreset(tx: Tx, id: number): Promise<void> {
  await tx.delete(mapPresets).where(eq(mapPresets.id, id));
}

/** Creates a preset category (its name checked by `categoryNameError`). */
export async function createPresetCategory(tx: Tx, name: string, id?: number): Promise<void> {
  await tx.insert(mapPresetCategories).values({ id, name: name.trim() });
}

/** Renames a preset category (its name checked by `categoryNameError`); its presets follow. */
export async function renamePresetCategory(tx: Tx, id: number, name: string): Promise<void> {
  await tx.update(mapPresetCategories).set({ name: name.trim() }).where(eq(mapPresetCategories.id, id));
}

/** Removes a preset category; its presets stay, without a category (a+'s SET_NULL). */
export async function deletePresetCategory(tx: Tx, id: number): Promise<void> {
  await tx.delete(mapPresetCategories).where(eq(mapPresetCategories.id, id));
}

/** Creates or changes an administrative district, checked by `checkPlace`. */
export async function saveDistrict(tx: Tx, target: SaveTarget, place: CheckedPlace): Promise<void> {
  const values = { name: place.name, shortCode: place.shortCode, area: place.area };
  if (target.create) await tx.insert(administrativeDistricts).values({ ...values, id: target.id });
  else await tx.update(administrativeDistricts).set(values).where(eq(administrativeDistricts.id, target.id));
}

/** Removes a district; its projects keep no district (SET NULL). */
export async function deleteDistrict(tx: Tx, id: number): Promise<void> {
  await tx.delete(administrativeDistricts).where(eq(administrativeDistricts.id, id));
}
