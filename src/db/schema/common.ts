import { timestamp } from 'drizzle-orm/pg-core';

/** created/modified as the platform keeps them: modified stays null until the first real edit. */
export const timestamps = {
  created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  modified: timestamp('modified', { withTimezone: true }),
};

/** The kinds of objects that generic relations (comments, ratings, reports, actions) point at. */
export const CONTENT_KINDS = [
  'project',
  'module',
  'phase',
  'idea',
  'mapidea',
  'proposal',
  'poll',
  'chapter',
  'paragraph',
  'subject',
  'topic',
  'livequestion',
  'comment',
  'rating',
  'report',
  'moderatorcommentfeedback',
  'offlineevent',
  'result',
  'pollquestion',
] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

/** A polygon's rings of `[lng, lat]` positions: the outer ring first, then the holes (GeoJSON). */
export type PolygonRings = [number, number][][];

/** A module's area (adhocracy4's AreaSettings.polygon): a GeoJSON FeatureCollection of polygons and multipolygons. */
export type AreaFeatureCollection = {
  type: 'FeatureCollection';
  features: {
    type: 'Feature';
    properties: Record<string, unknown> | null;
    geometry: { type: 'Polygon'; coordinates: PolygonRings } | { type: 'MultiPolygon'; coordinates: PolygonRings[] };
  }[];
};
