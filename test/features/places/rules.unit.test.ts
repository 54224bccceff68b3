import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AREA_TEXT_MAX, categoryNameError, checkPlace } from '../../../src/features/places/rules.js';

const SQUARE = JSON.stringify({ type: 'Polygon', coordinates: [[[13, 52], [14, 52], [14, 53], [13, 53], [13, 52]]] });
const INVALID = 'This is not a valid area: a GeoJSON FeatureCollection of polygons (each ring closed, at least four positions).';

test('a preset needs a name and an area; a district a name, its area and short code optional; each error by its field', () => {
  const preset = { areaRequired: true, categoryIds: [3] };
  const district = { areaRequired: false };
  const cases: [Parameters<typeof checkPlace>[0], Parameters<typeof checkPlace>[1], Record<string, string[]> | null][] = [
    [{ name: 'Old town', area: SQUARE }, preset, null],
    [{ name: 'Old town', area: SQUARE, category: '3' }, preset, null],
    [{ name: '  ', area: '' }, preset, { name: ['This field is required.'], area: ['This field is required.'] }],
    [{ name: 'x'.repeat(129), area: SQUARE }, preset, { name: ['Ensure this field has no more than 128 characters.'] }],
    [{ name: 'Old town', area: SQUARE, category: '4' }, preset, { category: ['Select a valid choice.'] }],
    [{ name: 'Old town', area: '{"type": "Point", "coordinates": [13, 52]}' }, preset, { area: [INVALID] }],
    [{ name: 'Old town', area: 'not json' }, preset, { area: [INVALID] }],
    [{ name: 'Old town', area: ' '.repeat(10) + 'x'.repeat(AREA_TEXT_MAX + 1) }, preset, { area: [INVALID] }],
    [{ name: 'Mitte', area: '', shortCode: 'mi' }, district, null],
    [{ name: 'Mitte', area: SQUARE, shortCode: '' }, district, null],
    [{ name: 'Mitte', area: '', shortCode: 'mit' }, district, { short_code: ['Ensure this field has no more than 2 characters.'] }],
  ];
  for (const [input, options, errors] of cases) assert.deepEqual(checkPlace(input, options).errors, errors, JSON.stringify(input).slice(0, 120));
});

test('a checked place is trimmed, its area wrapped as a FeatureCollection, its category a number', () => {
  const checked = checkPlace({ name: ' Old town ', area: SQUARE, category: '3', shortCode: ' ' }, { areaRequired: true, categoryIds: [3] });
  assert.equal(checked.place?.name, 'Old town');
  assert.equal(checked.place?.shortCode, '');
  assert.equal(checked.place?.categoryId, 3);
  assert.equal(checked.place?.area?.type, 'FeatureCollection');
  assert.equal(checkPlace({ name: 'Mitte', area: '' }, { areaRequired: false }).place?.area, null);
});

test('a preset category needs a name of at most 128 characters', () => {
  assert.equal(categoryNameError('Districts'), null);
  assert.equal(categoryNameError(' '), 'This field is required.');
  assert.equal(categoryNameError('x'.repeat(129)), 'Ensure this field has no more than 128 characters.');
});
