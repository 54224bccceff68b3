import type { AreaFeatureCollection, PolygonRings } from '../../db/schema/index.js';
import { isObject, type Position, position } from '../places/rules.js';
import type { PointFeature } from './schema.js';

/**
 * The geometry rules of map ideas and proposals, pure: what a point is, what an area is, and
 * whether a point lies inside an area (checked on the server; adhocracy+ checks only in the
 * browser, §4.1). Coordinates are GeoJSON's `[lng, lat]`.
 */

/** The message of a missing or invalid point (adhocracy+'s words). */
const POINT_MISSING = 'Please locate your proposal on the map.';
const POINT_INVALID = 'This is not a valid point: latitude between -90 and 90, longitude between -180 and 180.';
const POINT_OUTSIDE = 'The point is outside the area of this module.';

/** A GeoJSON Feature with a Point geometry (or a bare Point geometry) as stored; an error message otherwise. */
export function parsePoint(value: unknown): { point: PointFeature } | { error: string } {
  if (value === undefined || value === null || value === '' || (isObject(value) && Object.keys(value).length === 0)) return { error: POINT_MISSING };
  if (isObject(value) && value.type === 'FeatureCollection' && Array.isArray(value.features) && value.features.length === 0) return { error: POINT_MISSING };
  const geometry = isObject(value) && value.type === 'Feature' ? value.geometry : value;
  if (!isObject(geometry) || geometry.type !== 'Point') return { error: POINT_INVALID };
  const coordinates = position(geometry.coordinates);
  if (!coordinates) return { error: POINT_INVALID };
  const properties = isObject(value) && isObject(value.properties) ? value.properties : {};
  return { point: { type: 'Feature', properties, geometry: { type: 'Point', coordinates } } };
}

/** The point of a form's latitude and longitude fields (decimal degrees, a comma allowed as decimal mark). */
export function pointFromFields(lat: string, lng: string): { point: PointFeature } | { error: string } {
  if (!lat.trim() && !lng.trim()) return { error: POINT_MISSING };
  const number = (s: string) => (/^\s*[-+]?(\d+([.,]\d*)?|[.,]\d+)\s*$/.test(s) ? Number(s.trim().replace(',', '.')) : NaN);
  return parsePoint({ type: 'Point', coordinates: [number(lng), number(lat)] });
}

const EPSILON = 1e-12;

/** Whether p lies on the segment a–b (within rounding). */
function onSegment(p: Position, a: Position, b: Position): boolean {
  const cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
  if (Math.abs(cross) > EPSILON * Math.max(1, Math.abs(b[0] - a[0]) + Math.abs(b[1] - a[1]))) return false;
  return p[0] >= Math.min(a[0], b[0]) - EPSILON && p[0] <= Math.max(a[0], b[0]) + EPSILON && p[1] >= Math.min(a[1], b[1]) - EPSILON && p[1] <= Math.max(a[1], b[1]) + EPSILON;
}

/** Where a point lies relative to a closed ring: on its border, inside or outside (ray casting). */
function relativeToRing(p: Position, positions: Position[]): 'border' | 'inside' | 'outside' {
  let inside = false;
  for (let i = 0, j = positions.length - 1; i < positions.length; j = i++) {
    const a = positions[i];
    const b = positions[j];
    if (onSegment(p, a, b)) return 'border';
    if (a[1] > p[1] !== b[1] > p[1] && p[0] < ((b[0] - a[0]) * (p[1] - a[1])) / (b[1] - a[1]) + a[0]) inside = !inside;
  }
  return inside ? 'inside' : 'outside';
}

/** Inside a polygon: inside or on its outer ring, and not strictly inside one of its holes (a hole's border belongs to the polygon). */
function inPolygon(p: Position, rings: PolygonRings): boolean {
  const [outer, ...holes] = rings;
  if (!outer || relativeToRing(p, outer) === 'outside') return false;
  return !holes.some((hole) => relativeToRing(p, hole) === 'inside');
}

/** Whether a point lies inside an area: inside (or on the border of) any of its polygons. */
export function pointInArea(point: PointFeature, area: AreaFeatureCollection): boolean {
  const p = point.geometry.coordinates;
  return area.features.some(({ geometry }) => (geometry.type === 'Polygon' ? inPolygon(p, geometry.coordinates) : geometry.coordinates.some((rings) => inPolygon(p, rings))));
}

/** The field error of a point for a module's area (null: fine). A module without an area takes any valid point. */
export function pointError(value: unknown, area: AreaFeatureCollection | null): { point: PointFeature; error: null } | { point: null; error: string } {
  const parsed = parsePoint(value);
  if ('error' in parsed) return { point: null, error: parsed.error };
  if (area && !pointInArea(parsed.point, area)) return { point: null, error: POINT_OUTSIDE };
  return { point: parsed.point, error: null };
}
