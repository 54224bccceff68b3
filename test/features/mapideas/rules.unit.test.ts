import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePoint, pointError, pointFromFields, pointInArea } from '../../../src/features/mapideas/rules.js';
import { parseArea } from '../../../src/features/places/rules.js';

const pt = (lng: number, lat: number) => ({ type: 'Feature' as const, properties: {}, geometry: { type: 'Point' as const, coordinates: [lng, lat] as [number, number] } });
const square = (x0: number, y0: number, x1: number, y1: number): [number, number][] => [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]];
const area = (value: unknown) => {
  const parsed = parseArea(value);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.area;
};
const collection = (...geometries: unknown[]) => ({ type: 'FeatureCollection', features: geometries.map((geometry) => ({ type: 'Feature', properties: {}, geometry })) });

const withHole = area(collection({ type: 'Polygon', coordinates: [square(0, 0, 10, 10), square(4, 4, 6, 6)] }));
const two = area(collection({ type: 'MultiPolygon', coordinates: [[square(0, 0, 1, 1)], [square(5, 5, 6, 6)]] }));

test('a point inside a polygon is inside; outside every polygon it is not', () => {
  assert.equal(pointInArea(pt(2, 2), withHole), true);
  assert.equal(pointInArea(pt(11, 2), withHole), false);
  assert.equal(pointInArea(pt(3, 3), two), false);
});

test('points on the border count as inside: edges, corners, and the border of a hole', () => {
  assert.equal(pointInArea(pt(0, 5), withHole), true);
  assert.equal(pointInArea(pt(10, 10), withHole), true);
  assert.equal(pointInArea(pt(4, 5), withHole), true);
  assert.equal(pointInArea(pt(1, 0.5), two), true);
});

test('a point in a hole is outside', () => {
  assert.equal(pointInArea(pt(5, 5), withHole), false);
});

test('a multipolygon: inside either part is inside', () => {
  assert.equal(pointInArea(pt(0.5, 0.5), two), true);
  assert.equal(pointInArea(pt(5.5, 5.5), two), true);
});

test('several features: inside any of them is inside', () => {
  const both = area(collection({ type: 'Polygon', coordinates: [square(0, 0, 1, 1)] }, { type: 'Polygon', coordinates: [square(2, 2, 3, 3)] }));
  assert.equal(pointInArea(pt(2.5, 2.5), both), true);
  assert.equal(pointInArea(pt(1.5, 1.5), both), false);
});

test('invalid points are refused with a message; empty values are "missing"', () => {
  for (const value of [undefined, null, '', {}, { type: 'FeatureCollection', features: [] }]) assert.deepEqual(parsePoint(value), { error: 'Please locate your proposal on the map.' });
  for (const value of [
    { type: 'Feature', geometry: { type: 'LineString', coordinates: [[0, 0], [1, 1]] } },
    { type: 'Feature', geometry: { type: 'Point', coordinates: ['1', 2] } },
    { type: 'Feature', geometry: { type: 'Point', coordinates: [1] } },
    { type: 'Feature', geometry: { type: 'Point', coordinates: [181, 0] } },
    { type: 'Feature', geometry: { type: 'Point', coordinates: [0, -90.5] } },
    { type: 'Feature', geometry: { type: 'Point', coordinates: [Number.NaN, 0] } },
    'POINT(1 2)',
    [1, 2],
  ]) assert.ok('error' in parsePoint(value), JSON.stringify(value));
  assert.deepEqual(parsePoint({ type: 'Point', coordinates: [13.4, 52.5] }), { point: pt(13.4, 52.5) });
  assert.deepEqual(parsePoint({ type: 'Feature', geometry: { type: 'Point', coordinates: [180, -90] } }), { point: pt(180, -90) });
});

test('latitude and longitude fields make a point; out of range or not a number is an error', () => {
  assert.deepEqual(pointFromFields('52.52', '13,405'), { point: pt(13.405, 52.52) });
  assert.ok('error' in pointFromFields('91', '0'));
  assert.ok('error' in pointFromFields('0', '-180.1'));
  assert.ok('error' in pointFromFields('abc', '1'));
  assert.ok('error' in pointFromFields('1e3', '1'));
  assert.deepEqual(pointFromFields(' ', ''), { error: 'Please locate your proposal on the map.' });
});

test('invalid areas are refused: wrong types, open or short rings, out-of-range coordinates, empty collections', () => {
  for (const value of [
    null,
    'x',
    { type: 'FeatureCollection', features: [] },
    collection({ type: 'Point', coordinates: [0, 0] }),
    collection({ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] }),
    collection({ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [0, 0]]] }),
    collection({ type: 'Polygon', coordinates: [square(0, 0, 200, 1)] }),
    collection({ type: 'MultiPolygon', coordinates: [] }),
    collection({ type: 'Polygon', coordinates: [] }),
  ]) assert.ok('error' in parseArea(value), JSON.stringify(value));
  assert.equal(area({ type: 'Polygon', coordinates: [square(0, 0, 1, 1)] }).features.length, 1, 'a bare geometry is wrapped');
});

test('pointError: outside the area is a field error; without an area any valid point is fine', () => {
  assert.deepEqual(pointError(pt(20, 20), withHole), { point: null, error: 'The point is outside the area of this module.' });
  assert.deepEqual(pointError(pt(1, 1), withHole), { point: pt(1, 1), error: null });
  assert.deepEqual(pointError(pt(20, 20), null), { point: pt(20, 20), error: null });
});
