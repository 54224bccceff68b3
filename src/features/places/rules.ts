import type { AreaFeatureCollection, PolygonRings } from '../../db/schema/index.js';

/**
 * What an area is (a GeoJSON FeatureCollection of polygons, coordinates `[lng, lat]`), and the
 * operator's area presets (adhocracy+'s MapPreset, MapPresetCategory) and administrative districts
 * (adhocracy4's AdministrativeDistrict) as the back-office's forms and loaddata give them. Pure.
 */

/** A GeoJSON position, `[lng, lat]`. */
export type Position = [number, number];

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A longitude and latitude within their ranges (WGS 84). */
const inRange = (lng: number, lat: number) => lng >= -180 && lng <= 180 && lat >= -90 && lat <= 90;

/** A position within range; null otherwise. */
export const position = (v: unknown): Position | null =>
  Array.isArray(v) && v.length >= 2 && isNumber(v[0]) && isNumber(v[1]) && inRange(v[0], v[1]) ? [v[0], v[1]] : null;

/** The message of an invalid area. */
export const AREA_INVALID = 'This is not a valid area: a GeoJSON FeatureCollection of polygons (each ring closed, at least four positions).';

const ring = (v: unknown): Position[] | null => {
  if (!Array.isArray(v) || v.length < 4) return null;
  const positions = v.map(position);
  if (positions.some((p) => p === null)) return null;
  const ok = positions as Position[];
  const [first, last] = [ok[0], ok[ok.length - 1]];
  return first[0] === last[0] && first[1] === last[1] ? ok : null;
};

const polygon = (v: unknown): PolygonRings | null => {
  if (!Array.isArray(v) || v.length < 1) return null;
  const rings = v.map(ring);
  return rings.some((r) => r === null) ? null : (rings as PolygonRings);
};

/** An area as stored: a FeatureCollection of at least one Polygon or MultiPolygon feature (a bare geometry or Feature is wrapped); an error otherwise. */
export function parseArea(value: unknown): { area: AreaFeatureCollection } | { error: string } {
  const features = isObject(value) && value.type === 'FeatureCollection' ? value.features : isObject(value) && value.type === 'Feature' ? [value] : isObject(value) ? [{ type: 'Feature', geometry: value }] : null;
  if (!Array.isArray(features) || features.length === 0) return { error: AREA_INVALID };
  const parsed: AreaFeatureCollection['features'] = [];
  for (const feature of features) {
    if (!isObject(feature) || feature.type !== 'Feature' || !isObject(feature.geometry)) return { error: AREA_INVALID };
    const { type, coordinates } = feature.geometry;
    const properties = isObject(feature.properties) ? feature.properties : {};
    if (type === 'Polygon') {
      const rings = polygon(coordinates);
      if (!rings) return { error: AREA_INVALID };
      parsed.push({ type: 'Feature', properties, geometry: { type: 'Polygon', coordinates: rings } });
    } else if (type === 'MultiPolygon') {
      if (!Array.isArray(coordinates) || coordinates.length === 0) return { error: AREA_INVALID };
      const polygons = coordinates.map(polygon);
      if (polygons.some((p) => p === null)) return { error: AREA_INVALID };
      parsed.push({ type: 'Feature', properties, geometry: { type: 'MultiPolygon', coordinates: polygons as PolygonRings[] } });
    } else return { error: AREA_INVALID };
  }
  return { area: { type: 'FeatureCollection', features: parsed } };
}

/** The longest name of a preset, a preset category or a district (adhocracy+'s max_length). */
export const PLACE_NAME_MAX = 128;
/** The longest GeoJSON text of an area (characters); a city's district outline is far below it. */
export const AREA_TEXT_MAX = 1_000_000;

interface PlaceInput {
  name: string;
  /** GeoJSON text: pasted, or the uploaded file's contents. */
  area: string;
  /** A district's two-letter code (a4's short_code); presets have none. */
  shortCode?: string;
  /** A preset's category: '' for none, else one of `categoryIds`. */
  category?: string;
}

export interface CheckedPlace {
  name: string;
  shortCode: string;
  area: AreaFeatureCollection | null;
  categoryId: number | null;
}

/**
 * Checks a preset (area required) or a district (area optional): every error by its field, as
 * catalogue keys; the values only when there is none.
 */
export function checkPlace(input: PlaceInput, options: { areaRequired: boolean; categoryIds?: number[] }): { place: CheckedPlace; errors: null } | { place: null; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const name = input.name.trim();
  if (!name) errors.name = ['This field is required.'];
  else if (name.length > PLACE_NAME_MAX) errors.name = ['Ensure this field has no more than 128 characters.'];
  const shortCode = (input.shortCode ?? '').trim();
  if (shortCode.length > 2) errors.short_code = ['Ensure this field has no more than 2 characters.'];
  let categoryId: number | null = null;
  if (input.category) {
    categoryId = Number(input.category);
    if (!options.categoryIds?.includes(categoryId)) errors.category = ['Select a valid choice.'];
  }
  let area: AreaFeatureCollection | null = null;
  const text = input.area.trim();
  if (!text) {
    if (options.areaRequired) errors.area = ['This field is required.'];
  } else if (text.length > AREA_TEXT_MAX) errors.area = [AREA_INVALID];
  else {
    let parsed: ReturnType<typeof parseArea> = { error: AREA_INVALID };
    try {
      parsed = parseArea(JSON.parse(text));
    } catch {
      // not JSON: the error above
    }
    if ('error' in parsed) errors.area = [parsed.error];
    else area = parsed.area;
  }
  if (Object.keys(errors).length) return { place: null, errors };
  return { place: { name, shortCode, area, categoryId }, errors: null };
}

/** Checks a preset category's name. */
export function categoryNameError(value: string): string | null {
  const name = value.trim();
  if (!name) return 'This field is required.';
  return name.length > PLACE_NAME_MAX ? 'Ensure this field has no more than 128 characters.' : null;
}
