import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { organisationInitiators, organisations, projects, users } from '../../src/db/schema/index.js';
import { Browser } from '../me/accounts/client.js';
import { dashboardApp, signedIn } from '../manage/world.js';

test('the back-office is for superusers only', async () => {
  const { app } = await dashboardApp();
  assert.equal((await new Browser(app).get('/backoffice/organisations/')).location, '/accounts/login/?next=/backoffice/organisations/');
  for (const username of ['initiator', 'moderator', 'user']) {
    const browser = await signedIn(app, username);
    for (const path of ['/backoffice/organisations/', '/backoffice/users/', '/backoffice/projects/', '/backoffice/organisations/org/']) assert.equal((await browser.get(path)).status, 403, `${username} ${path}`);
    assert.equal((await browser.post('/backoffice/organisations/', { name: 'Mine' })).status, 403);
  }
});

test('the page header links the back-office for superusers only', async () => {
  const { app } = await dashboardApp();
  const link = /<a href="\/backoffice\/">Back-office<\/a>/;
  assert.match((await (await signedIn(app, 'admin')).get('/userdashboard/overview/')).text, link);
  for (const username of ['initiator', 'user']) assert.doesNotMatch((await (await signedIn(app, username)).get('/userdashboard/overview/')).text, link);
  assert.doesNotMatch((await new Browser(app).get('/')).text, /\/backoffice\//);
});

test('an operator creates an organisation, appoints an initiator who then opens its dashboard, and switches geolocation', async () => {
  const { app, db } = await dashboardApp();
  const admin = await signedIn(app, 'admin');
  const empty = await admin.post('/backoffice/organisations/', { name: '' });
  assert.equal(empty.status, 400);
  assert.match(empty.text, /id="id_name_errors"/);
  const created = await admin.post('/backoffice/organisations/', { name: 'Stadt Grünau' });
  assert.equal(created.location, '/backoffice/organisations/stadt-grunau/?done=created');
  const [org] = await db.select().from(organisations).where(eq(organisations.slug, 'stadt-grunau'));
  const unknown = await admin.post('/backoffice/organisations/stadt-grunau/', { action: 'add_initiator', initiator_name: 'ghost' });
  assert.equal(unknown.status, 400);
  assert.match(unknown.text, /No user with this username or e-mail address./);
  assert.equal((await admin.post('/backoffice/organisations/stadt-grunau/', { action: 'add_initiator', initiator_name: 'USER@example.org' })).status, 302);
  assert.equal((await db.select().from(organisationInitiators).where(and(eq(organisationInitiators.organisationId, org.id), eq(organisationInitiators.userId, 5)))).length, 1);
  const user = await signedIn(app, 'user');
  assert.equal((await user.get('/stadt-grunau/dashboard/projects/')).status, 200);
  assert.equal((await user.get('/org/dashboard/projects/')).status, 403);
  await admin.post('/backoffice/organisations/stadt-grunau/', { action: 'settings', name: 'Stadt Grünau', language: 'en', enable_geolocation: 'on' });
  const [changed] = await db.select().from(organisations).where(eq(organisations.id, org.id));
  assert.deepEqual([changed.enableGeolocation, changed.language], [true, 'en']);
  await admin.post('/backoffice/organisations/stadt-grunau/', { action: 'remove_initiator', user_id: '5' });
  assert.equal((await user.get('/stadt-grunau/dashboard/projects/')).status, 403);
});

test('an operator finds users, deactivates (signing them out) and makes staff; archives projects', async () => {
  const { app, db } = await dashboardApp();
  const admin = await signedIn(app, 'admin');
  const user = await signedIn(app, 'user');
  const found = await admin.get('/backoffice/users/?search=use');
  assert.match(found.text, /user@example.org/);
  assert.doesNotMatch(found.text, /coinit@example.org/);
  assert.equal((await admin.post('/backoffice/users/', { action: 'deactivate', user_id: '5' })).status, 302);
  assert.equal((await db.select().from(users).where(eq(users.id, 5)))[0].isActive, false);
  assert.equal((await user.get('/account/')).status, 302, 'the deactivated user is signed out');
  assert.equal((await admin.post('/backoffice/users/', { action: 'deactivate', user_id: '1' })).status, 400);
  await admin.post('/backoffice/users/', { action: 'staff', user_id: '6' });
  assert.equal((await db.select().from(users).where(eq(users.id, 6)))[0].isStaff, true);
  const listed = (await admin.get('/backoffice/projects/')).text;
  assert.match(listed, /<a href="\/org\/dashboard\/projects\/[\w-]+\/basic\/" aria-label="Edit [^"]+ in the dashboard">Dashboard<\/a>/);
  assert.equal((await admin.post('/backoffice/projects/', { action: 'archive', project_id: '1' })).status, 302);
  assert.equal((await db.select().from(projects).where(eq(projects.id, 1)))[0].isArchived, true);
  assert.equal((await admin.post('/backoffice/projects/', { action: 'archive', project_id: 'x' })).status, 400);
});
