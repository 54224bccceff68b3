import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asc, eq } from 'drizzle-orm';
import { modules, organisations, phases, projects } from '../../src/db/schema/index.js';
import { Browser } from '../me/accounts/client.js';
import { dashboardApp, signedIn } from './world.js';

test('unpublishing a running project asks first; only the confirmation unpublishes it', async () => {
  const { app, db } = await dashboardApp();
  const initiator = await signedIn(app, 'initiator');
  const asked = await initiator.post('/org/dashboard/projects/project/publish/', { action: 'unpublish' });
  assert.equal(asked.status, 200);
  assert.match(asked.text, /<h1>Unpublish the running project\?<\/h1>/);
  assert.match(asked.text, /Participation in &quot;Project&quot; is running\./);
  assert.match(asked.text, /name="confirmed" value="yes"/);
  assert.match(asked.text, /<a href="\/org\/dashboard\/projects\/project\/basic\/">Cancel<\/a>/);
  assert.equal((await db.select().from(projects).where(eq(projects.id, 1)))[0].isDraft, false, 'still published');
  assert.equal((await initiator.post('/org/dashboard/projects/project/publish/', { action: 'unpublish', confirmed: 'maybe' })).status, 400);
  const done = await initiator.post('/org/dashboard/projects/project/publish/', { action: 'unpublish', confirmed: 'yes' });
  assert.equal(done.location, '/org/dashboard/projects/project/basic/?done=unpublished');
  assert.equal((await db.select().from(projects).where(eq(projects.id, 1)))[0].isDraft, true);
  // A published project without a running phase is unpublished at once, as before.
  await initiator.post('/org/dashboard/projects/project/publish/', { action: 'publish' });
  await db.update(phases).set({ startDate: new Date(Date.now() + 86_400_000), endDate: new Date(Date.now() + 2 * 86_400_000) }).where(eq(phases.moduleId, 1));
  assert.equal((await initiator.post('/org/dashboard/projects/project/publish/', { action: 'unpublish' })).status, 302);
  const german = await signedIn(app, 'coinit');
  await german.post('/org/dashboard/projects/project/publish/', { action: 'publish' });
  await db.update(phases).set({ startDate: new Date(Date.now() - 86_400_000) }).where(eq(phases.moduleId, 1));
  assert.match((await german.post('/org/dashboard/projects/project/publish/', { action: 'unpublish' })).text, /Laufendes Projekt zurückziehen\?/);
});

test('a duplicate is titled "Copy of …" in the organisation\'s language, cut to the name\'s limit', async () => {
  const { app, db } = await dashboardApp();
  await db.update(organisations).set({ language: 'en' }).where(eq(organisations.id, 1));
  await db.update(projects).set({ name: 'P'.repeat(120) }).where(eq(projects.id, 2));
  const coinit = await signedIn(app, 'coinit'); // writes German herself
  const copied = await coinit.post('/org/dashboard/projects/project/duplicate/', {});
  const [copy] = await db.select().from(projects).where(eq(projects.slug, 'project-2'));
  assert.equal(copied.location, '/org/dashboard/projects/project-2/basic/?done=duplicated');
  assert.equal(copy.name, 'Copy of Project');
  await coinit.post('/org/dashboard/projects/draft-plan/duplicate/', {});
  const [long] = await db.select().from(projects).where(eq(projects.slug, 'draft-plan-2'));
  assert.equal(long.name, `Copy of ${'P'.repeat(112)}`);
});

test('blueprint phase names follow the organisation\'s language, not the initiator\'s', async () => {
  const { app, db } = await dashboardApp();
  const english = await signedIn(app, 'initiator'); // her own language is English
  await english.post('/org/dashboard/projects/draft-plan/blueprints/idea-collection/', {});
  const [module] = await db.select().from(modules).where(eq(modules.projectId, 2));
  assert.equal(module.name, 'Ideenwettbewerb', 'the organisation writes German');
  const list = await db.select().from(phases).where(eq(phases.moduleId, module.id)).orderBy(asc(phases.weight));
  assert.deepEqual(list.map((p) => p.name), ['Sammelphase', 'Bewertungsphase']);
  await db.update(organisations).set({ language: 'en' }).where(eq(organisations.id, 1));
  const german = await signedIn(app, 'coinit');
  await german.post('/org/dashboard/projects/draft-plan/blueprints/idea-collection/', {});
  const names = (await db.select().from(modules).where(eq(modules.projectId, 2)).orderBy(asc(modules.id))).map((m) => m.name);
  assert.deepEqual(names, ['Ideenwettbewerb', 'Idea Challenge']);
});

test('a one-module project page shows the module\'s description', async () => {
  const { app, db } = await dashboardApp();
  await db.update(modules).set({ description: 'Where should the new benches go?' }).where(eq(modules.id, 1));
  const page = await new Browser(app).get('/org/projects/project/');
  assert.match(page.text, /<h2 id="participation-heading"><a href="\/org\/projects\/module\/[^"]+\/">Ideas<\/a><\/h2><p class="lead">Where should the new benches go\?<\/p>/);
});
