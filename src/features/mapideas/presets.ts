import type { AreaFeatureCollection } from '../../db/schema/index.js';
import type { Text } from '../../core/modules/registry.js';

const box = (west: number, south: number, east: number, north: number): AreaFeatureCollection => ({
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: {},
      geometry: { type: 'Polygon', coordinates: [[[west, south], [east, south], [east, north], [west, north], [west, south]]] },
    },
  ],
});

/**
 * The area presets of the dashboard (adhocracy+ keeps them in the database, managed in its admin;
 * here a short list in code). Germany's box is adhocracy+'s map bounding box (A4_MAP_BOUNDING_BOX).
 */
export const AREA_PRESETS: { key: string; name: Text; area: AreaFeatureCollection }[] = [
  { key: 'germany', name: { en: 'Germany (bounding box)', de: 'Deutschland (umschließendes Rechteck)' }, area: box(5.988, 47.302, 15.016, 54.983) },
  { key: 'berlin', name: { en: 'Berlin (bounding box)', de: 'Berlin (umschließendes Rechteck)' }, area: box(13.088, 52.338, 13.761, 52.675) },
  { key: 'hamburg', name: { en: 'Hamburg (bounding box)', de: 'Hamburg (umschließendes Rechteck)' }, area: box(8.42, 53.395, 10.325, 53.964) },
];
