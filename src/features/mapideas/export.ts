import type { DbOrTx } from '../../db/client.js';
import { type ExportIdeaRow, ideaBatches, ideaSheetOf } from '../idealike/export.js';
import type { Cell, Sheet } from '../moduletypes/contract.js';
import { loadPlaces, type Place, type PlaceKind } from './queries.js';

/** An exported item with its place. */
export type PlacedRow = ExportIdeaRow & { place: Place | null };

/** The items of a kind in batches, each batch with its places (one more statement per batch). */
export async function* placedBatches(db: DbOrTx, moduleId: number, kind: PlaceKind): AsyncGenerator<PlacedRow[]> {
  for await (const batch of ideaBatches(db, moduleId, kind)) {
    const places = await loadPlaces(db, kind, batch.map((i) => i.id));
    yield batch.map((idea) => ({ ...idea, place: places.get(idea.id) ?? null }));
  }
}

/** The place's columns of an export (§1.5: location_lon, location_lat, location_label). */
const PLACE_COLUMNS = ['Longitude', 'Latitude', 'Place label'];
const placeCells = (row: PlacedRow): Cell[] => [row.place?.point.geometry.coordinates[0] ?? '', row.place?.point.geometry.coordinates[1] ?? '', row.place?.pointLabel ?? ''];

/** The idea sheet of a kind with a place: the idea columns, then longitude, latitude and the place's label. */
export function placedSheetOf(kind: PlaceKind): Sheet<PlacedRow> {
  const ideas = ideaSheetOf(kind.segment);
  return { title: ideas.title, columns: [...ideas.columns, ...PLACE_COLUMNS], cells: (row, c) => [...ideas.cells(row, c), ...placeCells(row)] };
}
