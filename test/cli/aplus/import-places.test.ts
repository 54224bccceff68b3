import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { importAplus, summary } from '../../../src/cli/aplus/import.js';
import { administrativeDistricts, projects } from '../../../src/db/schema/index.js';
import { mapPresetCategories, mapPresets } from '../../../src/features/places/schema.js';
import { createTestDatabase } from '../../database.js';
import { type DumpRecord, smallDump, writeDump } from './dumps.js';

const database = await createTestDatabase();
after(() => database.close());
const { db } = database;
const store = { mediaStore: 'database' as const, dataDir: '' };

const POLYGON = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[[13, 52], [14, 52], [14, 53], [13, 53], [13, 52]]] } }] };

/** The small dump with a+'s places: two districts, a preset category, a preset (its polygon as a+'s JSONField writes it) and one whose polygon is broken. */
function dumpWithPlaces(): DumpRecord[] {
  const dump = smallDump();
  const project = dump.find((r) => r.model === 'a4projects.project');
  if (!project) throw new Error('the small dump has a project');
  project.fields.administrative_district = 2;
  return [
    ...dump,
    { model: 'a4administrative_districts.administrativedistrict', pk: 1, fields: { name: 'Mitte', short_code: 'mi' } },
    { model: 'a4administrative_districts.administrativedistrict', pk: 2, fields: { name: 'Pankow', short_code: '' } },
    { model: 'a4_candy_maps.mappresetcategory', pk: 5, fields: { name: 'Bezirke' } },
    { model: 'a4_candy_maps.mappreset', pk: 6, fields: { name: 'Altstadt', polygon: JSON.stringify(POLYGON), category: 5 } },
    { model: 'a4_candy_maps.mappreset', pk: 7, fields: { name: 'Kaputt', polygon: '{"type": "FeatureCollection", "features": []}', category: null } },
  ];
}

test('the import places districts, preset categories and presets with their ids, and the project keeps its district; a broken polygon is reported, not fatal', async () => {
  const report = await importAplus(db, { ...writeDump(dumpWithPlaces()), store });
  assert.deepEqual(report.models['a4administrative_districts.administrativedistrict'], { found: 2, imported: 2, cannotPlace: {} });
  assert.deepEqual(report.models['a4_candy_maps.mappresetcategory'], { found: 1, imported: 1, cannotPlace: {} });
  assert.deepEqual(report.models['a4_candy_maps.mappreset'], { found: 2, imported: 1, cannotPlace: { 'its polygon is not a valid area': 1 } });
  assert.doesNotMatch(summary(report).split('Cannot place: no home yet')[1] ?? '', /mappreset|administrative/);
  assert.deepEqual(await db.select().from(administrativeDistricts).orderBy(administrativeDistricts.id), [
    { id: 1, name: 'Mitte', shortCode: 'mi', area: null },
    { id: 2, name: 'Pankow', shortCode: '', area: null },
  ]);
  assert.deepEqual(await db.select().from(mapPresetCategories), [{ id: 5, name: 'Bezirke' }]);
  assert.deepEqual(await db.select().from(mapPresets), [{ id: 6, name: 'Altstadt', categoryId: 5, area: POLYGON }]);
  const [project] = await db.select({ district: projects.administrativeDistrictId }).from(projects);
  assert.equal(project.district, 2);
});

test('a project naming a district the dump does not hold stops the import with its model and pk', async () => {
  const dump = smallDump();
  const project = dump.find((r) => r.model === 'a4projects.project');
  if (!project) throw new Error('the small dump has a project');
  project.fields.administrative_district = 9;
  const other = await createTestDatabase();
  try {
    await assert.rejects(importAplus(other.db, { ...writeDump(dump), store }), (error: Error) => error.message === 'a4projects.project pk 3: administrative_district 9 is not a district of the dump');
  } finally {
    await other.close();
  }
});
