import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { modules, projects } from '../../src/db/schema/index.js';
import { daysFromNow } from '../fixtures.js';
import { dashboardApp, dashboardWorld, signedIn } from '../manage/world.js';

const ROUNDS = 8;

/** The draft project "draft-plan" (2) complete but for its one module, which is complete and added. */
function world() {
  const base = dashboardWorld();
  return {
    ...base,
    projects: (base.projects ?? []).map((p) => (p.id === 2 ? { ...p, information: '<p>All about it</p>' } : p)),
    modules: [
      ...(base.modules ?? []),
      { id: 20, slug: 'race-module', project: 2, name: 'Race', description: 'Complete', phases: [{ type: 'a4_candy_ideas:collect', name: 'Collect', description: 'Send ideas', start_date: daysFromNow(1), end_date: daysFromNow(9) }] },
    ],
  };
}

test('issue 21 finding 16: Publish and Hide module sent together never leave a published project without an added module', async () => {
  const { app, db } = await dashboardApp(world());
  const initiator = await signedIn(app, 'initiator');
  const [publisher, hider] = [initiator, await signedIn(app, 'coinit')];
  for (let round = 0; round < ROUNDS; round++) {
    await db.update(projects).set({ isDraft: true }).where(eq(projects.id, 2));
    await db.update(modules).set({ isDraft: false }).where(eq(modules.id, 20));
    const [published, hidden] = await Promise.all([
      publisher.post('/org/dashboard/projects/draft-plan/publish/', { action: 'publish' }),
      hider.post('/org/dashboard/modules/race-module/state/', { action: 'hide' }),
    ]);
    const [project] = await db.select({ isDraft: projects.isDraft }).from(projects).where(eq(projects.id, 2));
    const added = await db.select().from(modules).where(and(eq(modules.projectId, 2), eq(modules.isDraft, false)));
    assert.ok(project.isDraft || added.length > 0, `round ${round}: published without an added module (publish ${published.status}, hide ${hidden.status})`);
    assert.ok(published.status === 302 || hidden.status === 302, `round ${round}: one of them went through`);
  }
});
