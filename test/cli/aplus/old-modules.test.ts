import assert from 'node:assert/strict';
import { test } from 'node:test';
import { importAplus } from '../../../src/cli/aplus/import.js';
import { createTestApp } from '../../helpers.js';
import { type DumpRecord, smallDump, writeDump } from './dumps.js';

/**
 * An installation from before a+ dropped the facilitator activity (an old module type whose only
 * content is one `a4_candy_activities.Activity`): its module and phase come along, the activity is
 * counted with no home yet, and the pages around it answer.
 */
const { app, db, config } = await createTestApp();
const old: DumpRecord[] = [
  ...smallDump().filter((r) => r.model !== 'a4_candy_activities.activity'),
  { model: 'a4modules.module', pk: 45, fields: { slug: 'infostand', name: 'Infostand', project: 3, weight: 2, is_draft: false, blueprint_type: 'FA', description: '' } },
  { model: 'a4phases.phase', pk: 46, fields: { module: 45, type: 'a4_candy_activities:facetoface', name: 'Vor Ort', description: '', start_date: '2025-01-01T00:00:00Z', end_date: '2035-01-01T00:00:00Z', weight: 0 } },
  { model: 'a4modules.item', pk: 47, fields: { module: 45, creator: ['anna'], created: '2025-02-03T10:00:00Z', modified: null } },
  { model: 'a4_candy_activities.activity', pk: 47, fields: { slug: 'stand', name: 'Infostand am Markt', highlight: 'Samstag 10 Uhr', description: '<p>Am Markt</p>' } },
];
const report = await importAplus(db, { ...writeDump(old), store: config });

test('an old facilitator-activity module comes along with its phase; the activity is counted with no home yet; project and module pages answer', async () => {
  assert.equal(report.models['a4modules.module'].imported, 2);
  assert.equal(report.models['a4_candy_activities.activity'].skipped?.kind, 'no home yet');
  for (const url of ['/stadt/projects/markt/', '/stadt/projects/module/infostand/']) {
    const answer = await app.inject({ method: 'GET', url });
    assert.equal(answer.statusCode, 200, url);
    assert.ok(answer.body.includes('Infostand'), `${url} shows the module`);
  }
});
