import { integer, jsonb, pgTable, serial, varchar } from 'drizzle-orm/pg-core';
import type { AreaFeatureCollection } from '../../db/schema/index.js';

/* The operator's area presets (drizzle.config.ts finds them here); the districts are the floor's (projects name them). */

/** A group of area presets (adhocracy+'s `MapPresetCategory`), shown as a group of the dashboard's preset choice. */
export const mapPresetCategories = pgTable('map_preset_categories', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 128 }).notNull(),
});

/** A named area the operator keeps (adhocracy+'s `MapPreset`): an initiator takes it as a map module's area. */
export const mapPresets = pgTable('map_presets', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 128 }).notNull(),
  categoryId: integer('category_id').references(() => mapPresetCategories.id, { onDelete: 'set null' }),
  area: jsonb('area').$type<AreaFeatureCollection>().notNull(),
});
