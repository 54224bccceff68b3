import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asc, eq } from 'drizzle-orm';
import { categories, modules, organisations, phases } from '../../../src/db/schema/index.js';
import { liveEventMedia } from '../../../src/features/interactiveevents/schema.js';
import { dashboardApp, signedIn } from '../../manage/world.js';

const BLUEPRINTS = '/org/dashboard/projects/draft-plan/blueprints/';

test('an initiator adds an Interactive Event, sets its affiliations and media; it is published only with an affiliation', async () => {
  const t = await dashboardApp();
  await t.db.update(organisations).set({ language: 'en' }).where(eq(organisations.id, 1));
  const initiator = await signedIn(t.app, 'initiator');
  assert.match((await initiator.get(BLUEPRINTS)).text, /Interactive Event/);
  const created = await initiator.post(`${BLUEPRINTS}interactive-event/`, {});
  assert.equal(created.status, 302);
  const [module] = await t.db.select().from(modules).where(eq(modules.projectId, 2));
  assert.equal(module.blueprintType, 'IE');
  const list = await t.db.select().from(phases).where(eq(phases.moduleId, module.id)).orderBy(asc(phases.weight));
  assert.deepEqual(list.map((p) => [p.type, p.name]), [['a4_candy_interactive_events:issue', 'Issue phase']]);
  const base = `/org/dashboard/modules/${module.slug}`;

  await initiator.post(`${base}/module_basic/`, { name: 'Town hall', description: 'Questions to the mayor' });
  await initiator.post(`${base}/phases/`, { 'phase-0-name': 'Issue phase', 'phase-0-description': 'Ask', 'phase-0-start': '2030-01-01T18:00', 'phase-0-end': '2030-01-01T21:00' });
  const refused = await initiator.post(`${base}/state/`, { action: 'add' });
  assert.equal(refused.status, 400, 'no affiliation yet');
  assert.match((await initiator.get(`${base}/affiliations/`)).text, /At least one affiliation/);

  const tooLong = await initiator.post(`${base}/affiliations/`, { 'new-0': 'x'.repeat(121) });
  assert.equal(tooLong.status, 400);
  assert.equal((await initiator.post(`${base}/affiliations/`, { 'new-0': 'Residents', 'new-1': 'Press' })).status, 302);
  const saved = await t.db.select({ id: categories.id, name: categories.name }).from(categories).where(eq(categories.moduleId, module.id)).orderBy(asc(categories.id));
  assert.deepEqual(saved.map((c) => c.name), ['Residents', 'Press']);
  await initiator.post(`${base}/affiliations/`, { [`affiliation-${saved[0].id}`]: 'Neighbours', [`delete-${saved[1].id}`]: 'on' });
  assert.deepEqual((await t.db.select({ name: categories.name }).from(categories).where(eq(categories.moduleId, module.id))).map((c) => c.name), ['Neighbours']);

  assert.equal((await initiator.post(`${base}/extra_fields/`, { live_stream: 'javascript:alert(1)', event_image: '' })).status, 400);
  assert.equal((await initiator.post(`${base}/extra_fields/`, { live_stream: 'https://stream.example.org/live', event_image: '' })).status, 302);
  assert.equal((await t.db.select().from(liveEventMedia).where(eq(liveEventMedia.moduleId, module.id)))[0].liveStream, 'https://stream.example.org/live');

  assert.equal((await initiator.post(`${base}/state/`, { action: 'add' })).status, 302, 'with an affiliation the module is added');
  assert.equal((await t.db.select().from(modules).where(eq(modules.id, module.id)))[0].isDraft, false);
});
