import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { FixtureError, loadFixture } from '../../src/cli/loaddata.js';
import * as s from '../../src/db/schema/index.js';
import { basicWorldWith } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

const options = { baseDir: process.cwd() };

/** The adhocracy+ sample's offline event and remark, as the import writes them. */
const sample = () =>
  basicWorldWith({
    ideas: [{ id: 4, module: 1, creator: 5, name: 'Bänke', description: '<p>Mehr Bänke</p>' }],
    offline_events: [{ id: 1, project: 1, creator: 2, slug: 'burgerversammlung-im-rathaus', name: 'Bürgerversammlung im Rathaus', event_type: 'Versammlung', date: '2026-12-07T01:54:04.307Z', description: '<p>Wir stellen die Ideen vor.</p><script>x</script>', created: '2026-12-02T01:54:14.093Z' }],
    moderator_remarks: [{ target: { type: 'idea', id: 4 }, creator: 3, remark: 'Doppelt? Mit Idee 1 vergleichen.', created: '2026-12-02T01:54:10.981Z' }],
  });

test('loaddata places offline events (id, a+ slug, date, cleaned description, "add" action) and moderator remarks', async () => {
  const { db, request } = await createTestApp();
  const loaded = await loadFixture(db, sample(), options);
  assert.equal(loaded.offline_events, 1);
  assert.equal(loaded.moderator_remarks, 1);
  const [event] = await db.select().from(s.offlineEvents);
  assert.deepEqual({ id: event.id, slug: event.slug, date: event.date.toISOString(), description: event.description }, { id: 1, slug: 'burgerversammlung-im-rathaus', date: '2026-12-07T01:54:04.307Z', description: '<p>Wir stellen die Ideen vor.</p>' });
  const [action] = await db.select().from(s.actions).where(eq(s.actions.objType, 'offlineevent'));
  assert.equal(action.timestamp.toISOString(), '2026-12-02T01:54:14.093Z');
  const [remark] = await db.select().from(s.moderatorRemarks);
  assert.deepEqual({ kind: remark.contentType, pk: remark.objectPk, creator: remark.creatorId, remark: remark.remark }, { kind: 'idea', pk: 4, creator: 3, remark: 'Doppelt? Mit Idee 1 vergleichen.' });
  // The old address answers.
  assert.equal((await request({ method: 'GET', url: '/org/offlineevents/burgerversammlung-im-rathaus/' })).status, 200);
});

test('a remark on what takes none, or an event of no project, stores nothing and names the record', async () => {
  const { db } = await createTestApp();
  const cases: [(f: ReturnType<typeof sample>) => void, string][] = [
    [(f) => ((f.comments = [{ id: 1, creator: 5, target: { type: 'idea', id: 4 }, comment: 'c' }]), (f.moderator_remarks = [{ target: { type: 'comment', id: 1 }, remark: 'x' }])), 'moderator_remarks[0].target.type: a comment takes no moderator remark'],
    [(f) => (f.offline_events = [{ project: 9, name: 'E', event_type: 'T', date: '2026-12-07T00:00:00Z', description: '' }]), 'offline_events[0].project: no project 9'],
  ];
  for (const [spoil, message] of cases) {
    const fixture = sample();
    spoil(fixture);
    await assert.rejects(loadFixture(db, fixture, options), (error: unknown) => error instanceof FixtureError && error.message.startsWith(message));
    assert.equal((await db.select().from(s.offlineEvents)).length, 0);
    assert.equal((await db.select().from(s.moderatorRemarks)).length, 0);
  }
});
