import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { type AreaFeatureCollection, modules } from '../../db/schema/index.js';
import { mapIdeaLabels, mapIdeas, type PointFeature } from './schema.js';
import { ITEM_SEGMENTS } from '../../core/urls.js';
import { asIdeaLabels, asIdeaTable, type IdeaKind } from '../idealike/kinds.js';

/** An idea-like kind with a place: its table seen through the place columns too (map ideas, proposals). */
export interface PlaceKind extends IdeaKind {
  placeTable: typeof mapIdeas;
}

/** Map ideas (Spatial Brainstorming, Spatial Idea Challenge): ideas with a place, under `/<org>/mapideas/`. */
export const MAPIDEA_KIND: PlaceKind = {
  kind: 'mapidea',
  table: asIdeaTable(mapIdeas),
  labels: asIdeaLabels(mapIdeaLabels),
  segment: ITEM_SEGMENTS.mapidea,
  extraColumns: [
    { name: 'point', type: 'jsonb' },
    { name: 'point_label', type: 'varchar', default: "''" },
  ],
  placeTable: mapIdeas,
};

/** A module's area; null when none is set. */
export async function loadArea(db: DbOrTx, moduleId: number): Promise<AreaFeatureCollection | null> {
  const [row] = await db.select({ area: modules.area }).from(modules).where(eq(modules.id, moduleId));
  return row?.area ?? null;
}

/** Whether each module has an area (the publish check's fact). */
export async function areaFacts(db: DbOrTx, moduleIds: number[]): Promise<Map<number, Record<string, unknown>>> {
  const rows = moduleIds.length ? await db.select({ id: modules.id, area: modules.area }).from(modules).where(inArray(modules.id, moduleIds)) : [];
  return new Map(rows.map((r) => [r.id, { hasArea: r.area !== null && r.area.features.length > 0 }]));
}

export interface Place {
  point: PointFeature;
  pointLabel: string;
}

/** The places of items of a kind, by id: one statement. */
export async function loadPlaces(db: DbOrTx, { placeTable }: PlaceKind, ids: number[]): Promise<Map<number, Place>> {
  if (!ids.length) return new Map();
  const rows = await db.select({ id: placeTable.id, point: placeTable.point, pointLabel: placeTable.pointLabel }).from(placeTable).where(inArray(placeTable.id, ids));
  return new Map(rows.map(({ id, ...place }) => [id, place]));
}
