import { jsonb, pgTable, varchar } from 'drizzle-orm/pg-core';
import { ideaColumns, ideaIndexes, labelLinks } from '../idealike/columns.js';

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
