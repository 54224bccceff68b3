import { integer, jsonb, pgTable, serial, varchar } from 'drizzle-orm/pg-core';
import type { AreaFeatureCollection } from '../../db/schema/index.js';
import { ideaColumns, ideaIndexes, labelLinks } from '../ideas/schema.js';

/* The map ideas' tables, and the place columns proposals share (drizzle.config.ts finds them here). */

/** A GeoJSON Feature with a Point geometry, `[lng, lat]` (adhocracy4's PointField). */
export type PointFeature = {
  type: 'Feature';
  properties: Record<string, unknown>;
  geometry: { type: 'Point'; coordinates: [number, number] };
};

/** The place of a map idea or proposal: the point and its label. */
export const placeColumns = () => ({
  point: jsonb('point').$type<PointFeature>().notNull(),
  pointLabel: varchar('point_label', { length: 255 }).notNull().default(''),
});


/** Ideas with a place (Spatial Brainstorming, Spatial Idea Challenge): their own ids, as adhocracy+'s `mapidea`. */
export const mapIdeas = pgTable('map_ideas', { ...ideaColumns(), ...placeColumns() }, (t) => ideaIndexes('map_ideas', t));

export const mapIdeaLabels = labelLinks('map_idea_labels', 'map_idea_id', mapIdeas);

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
