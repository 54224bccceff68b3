import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { projectModerators, projects } from '../../src/db/schema/index.js';
import { tokenHeader } from '../fixtures.js';
import { dashboardApp, signedIn } from '../manage/world.js';

test('issue 21 finding 5: removing an initiator ends the moderation of the projects they created, not roles granted otherwise', async () => {
  const { app, db, request } = await dashboardApp();
  // coinit (user 7) creates a project and duplicates it; he is also invited moderator of "project" explicitly.
  const coinit = await signedIn(app, 'coinit');
  const created = await coinit.post('/org/dashboard/projects/create/', { name: 'Hidden plans', description: 'Draft', access: 'PRIVATE' });
  assert.equal(created.status, 302);
  const [own] = await db.select().from(projects).where(eq(projects.name, 'Hidden plans'));
  assert.equal((await coinit.post(`/org/dashboard/projects/${own.slug}/duplicate/`, {})).status, 302);
  await db.insert(projectModerators).values({ projectId: 1, userId: 7 });
  const moderated = async () => (await db.select().from(projectModerators).where(eq(projectModerators.userId, 7))).map((r) => r.projectId).sort();
  assert.equal((await moderated()).length, 3);

  const admin = await signedIn(app, 'admin');
  assert.equal((await admin.post('/backoffice/organisations/org/', { action: 'remove_initiator', user_id: '7' })).status, 302);
  assert.deepEqual(await moderated(), [1], 'only the explicitly granted role stays');
  const headers = await tokenHeader(db, 7);
  assert.equal((await request({ method: 'GET', url: `/api/userdashboard/moderation/${own.id}/comments/`, headers })).status, 403);
  assert.notEqual((await coinit.get(`/org/projects/${own.slug}/`)).status, 200, 'the draft is hidden from him again');
  assert.equal((await coinit.get(`/org/dashboard/projects/${own.slug}/`)).status, 403);
  assert.equal((await request({ method: 'GET', url: '/api/userdashboard/moderation/1/comments/', headers })).status, 200);
});
