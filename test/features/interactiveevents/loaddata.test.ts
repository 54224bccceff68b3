import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { liveQuestions } from '../../../src/features/interactiveevents/schema.js';
import { basicWorldWith, load } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { EVENT, eventWorld } from './world.js';

test('loaddata keeps the ids and flags of live questions and names a refused record', async () => {
  const t = await createTestApp();
  await load(t.db, eventWorld());
  const [hidden] = await t.db.select().from(liveQuestions).where(eq(liveQuestions.id, 2));
  assert.deepEqual([hidden.moduleId, hidden.categoryId, hidden.isHidden, hidden.isLive], [EVENT, 12, true, false]);
  const refused = async (extra: Parameters<typeof basicWorldWith>[0], message: RegExp) => {
    const other = await createTestApp();
    await assert.rejects(load(other.db, basicWorldWith(extra)), message);
  };
  await refused({ live_questions: [{ id: 1, module: 1, text: 'Not an event', affiliation: null }] }, /live_questions\[0\]\.module: module 1 is not an Interactive Event/);
  await refused(
    {
      modules: [{ id: 5, project: 1, name: 'Event', blueprint_type: 'IE', phases: [{ type: 'a4_candy_interactive_events:issue', start_date: null, end_date: null }] }],
      live_questions: [{ id: 1, module: 5, text: 'Wrong affiliation', affiliation: 1 }],
    },
    /live_questions\[0\]\.affiliation: no affiliation 1 in module 5/,
  );
  await refused({ affiliations: [{ id: 9, module: 99, name: 'Nowhere' }] }, /affiliations\[0\]\.module: no module 99/);
});
