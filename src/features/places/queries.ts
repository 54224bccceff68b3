import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { administrativeDistricts } from '../../db/schema/index.js';
import { mapPresetCategories, mapPresets } from './schema.js';

/** The operator's preset categories, by name. */
export const listPresetCategories = (db: DbOrTx) => db.select().from(mapPresetCategories).orderBy(asc(mapPresetCategories.name), asc(mapPresetCategories.id));

/** The area presets with their category's name (null: none), by category and name: the dashboard's choice and the back-office's list. */
export const listPresets = (db: DbOrTx) =>
  db
    .select({ id: mapPresets.id, name: mapPresets.name, area: mapPresets.area, categoryId: mapPresets.categoryId, categoryName: mapPresetCategories.name })
    .from(mapPresets)
    .leftJoin(mapPresetCategories, eq(mapPresetCategories.id, mapPresets.categoryId))
    .orderBy(asc(mapPresetCategories.name), asc(mapPresets.name), asc(mapPresets.id));

export type AreaPreset = Awaited<ReturnType<typeof listPresets>>[number];

/** One preset; null when there is none with this id. */
export async function loadPreset(db: DbOrTx, id: number) {
  const [row] = await db.select().from(mapPresets).where(eq(mapPresets.id, id));
  return row ?? null;
}

/** One preset category; null when there is none with this id. */
export async function loadPresetCategory(db: DbOrTx, id: number) {
  const [row] = await db.select().from(mapPresetCategories).where(eq(mapPresetCategories.id, id));
  return row ?? null;
}

/** The administrative districts, by name (the project form's choice, the start page's filter, the back-office's list). */
export const listDistricts = (db: DbOrTx) => db.select().from(administrativeDistricts).orderBy(asc(administrativeDistricts.name), asc(administrativeDistricts.id));

export type District = Awaited<ReturnType<typeof listDistricts>>[number];

/** One district; null when there is none with this id. */
export async function loadDistrict(db: DbOrTx, id: number) {
  const [row] = await db.select().from(administrativeDistricts).where(eq(administrativeDistricts.id, id));
  return row ?? null;
}
