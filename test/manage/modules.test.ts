import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asc, eq, inArray } from 'drizzle-orm';
import { categories, comments, labels, modules, organisations, phases, projects, ratings, reports } from '../../src/db/schema/index.js';
import { ideas } from '../../src/features/ideas/schema.js';
import { dashboardApp, signedIn } from './world.js';

const BLUEPRINTS = '/org/dashboard/projects/draft-plan/blueprints/';

async function withIdeaChallenge() {
  const t = await dashboardApp();
  // Blueprint names follow the organisation's language: this organisation writes English.
  await t.db.update(organisations).set({ language: 'en' }).where(eq(organisations.id, 1));
  const initiator = await signedIn(t.app, 'initiator');
  const created = await initiator.post(`${BLUEPRINTS}idea-collection/`, {});
  assert.equal(created.status, 302);
  const [module] = await t.db.select().from(modules).where(eq(modules.projectId, 2));
  assert.equal(created.location, `/org/dashboard/modules/${module.slug}/module_basic/?done=module_created`);
  return { ...t, initiator, module, base: `/org/dashboard/modules/${module.slug}` };
}

test('adding a module: a draft of the blueprint with its phases, no dates; unknown blueprints are not found', async () => {
  const { db, initiator, module, base } = await withIdeaChallenge();
  assert.equal(module.isDraft, true);
  assert.equal(module.blueprintType, 'IC');
  assert.equal(module.name, 'Idea Challenge');
  const list = await db.select().from(phases).where(eq(phases.moduleId, module.id)).orderBy(asc(phases.weight));
  assert.deepEqual(list.map((p) => [p.type, p.name, p.startDate]), [['a4_candy_ideas:collect', 'Collect phase', null], ['a4_candy_ideas:rating', 'Rating phase', null]]);
  assert.equal((await initiator.post(`${BLUEPRINTS}nothing/`, {})).status, 404);
  const page = await initiator.get(`${base}/module_basic/?done=module_created`);
  assert.match(page.text, /The module was created./);
  assert.match(page.text, /Not ready to be added to the project./);
  assert.equal((await initiator.get(BLUEPRINTS)).status, 200);
});

test('the module pages: another organisation\'s initiator gets 403, a module slug under another organisation 404', async () => {
  const { app, base, module } = await withIdeaChallenge();
  const other = await signedIn(app, 'other');
  assert.equal((await other.get(`${base}/phases/`)).status, 403);
  assert.equal((await other.get(`/other-org/dashboard/modules/${module.slug}/phases/`)).status, 404);
  assert.equal((await other.post(`${base}/state/`, { action: 'delete' })).status, 403);
  const moderator = await signedIn(app, 'moderator');
  assert.equal((await moderator.get(`${base}/phases/`)).status, 403);
});

test('phases: errors beside the phase or above the form, nothing stored; valid dates are read in the platform time zone', async () => {
  const { db, initiator, module, base } = await withIdeaChallenge();
  const fields = (a: [string, string], b: [string, string]) => ({
    'phase-0-name': 'Collect',
    'phase-0-description': 'Send ideas',
    'phase-0-start': a[0],
    'phase-0-end': a[1],
    'phase-1-name': 'Rate',
    'phase-1-description': 'Rate ideas',
    'phase-1-start': b[0],
    'phase-1-end': b[1],
  });
  const half = await initiator.post(`${base}/phases/`, fields(['2030-01-01T10:00', ''], ['', '']));
  assert.equal(half.status, 400);
  assert.match(half.text, /id="id_phase-0-end_errors"[^>]*><li>Either both or no date has to be set./);
  assert.match(half.text, /value="Collect"/);
  const long = await initiator.post(`${base}/phases/`, { ...fields(['', ''], ['', '']), 'phase-0-name': 'x'.repeat(81), 'phase-1-description': 'y'.repeat(301) });
  assert.equal(long.status, 400);
  assert.match(long.text, /id="id_phase-0-name_errors"[^>]*><li>Ensure this field has no more than 80 characters\./);
  assert.match(long.text, /id="id_phase-1-description_errors"[^>]*><li>Ensure this field has no more than 300 characters\./);
  assert.match(long.text, /name="phase-0-name"[^>]*maxlength="80"/);
  const overlap = await initiator.post(`${base}/phases/`, fields(['2030-01-01T10:00', '2030-01-10T10:00'], ['2030-01-05T10:00', '2030-01-20T10:00']));
  assert.match(overlap.text, /Phases cannot run at the same time and must follow after each other./);
  const order = await initiator.post(`${base}/phases/`, fields(['2030-02-01T10:00', '2030-02-10T10:00'], ['2030-01-01T10:00', '2030-01-10T10:00']));
  assert.match(order.text, /Phases need to be in same order as in form./);
  const bad = await initiator.post(`${base}/phases/`, fields(['2030-13-01T10:00', '2030-01-10T10:00'], ['', '']));
  assert.match(bad.text, /id="id_phase-0-start_errors"[^>]*><li>Enter a valid date and time./);
  assert.deepEqual((await db.select().from(phases).where(eq(phases.moduleId, module.id))).map((p) => p.startDate), [null, null]);
  const ok = await initiator.post(`${base}/phases/`, fields(['2030-01-01T10:00', '2030-01-10'], ['2030-01-10T23:59', '2030-01-20T18:00']));
  assert.equal(ok.status, 302);
  const saved = await db.select().from(phases).where(eq(phases.moduleId, module.id)).orderBy(asc(phases.weight));
  assert.deepEqual(saved.map((p) => [p.name, p.startDate?.toISOString(), p.endDate?.toISOString()]), [
    ['Collect', '2030-01-01T09:00:00.000Z', '2030-01-10T22:59:00.000Z'],
    ['Rate', '2030-01-10T22:59:00.000Z', '2030-01-20T17:00:00.000Z'],
  ]);
  assert.match((await initiator.get(`${base}/phases/`)).text, /value="2030-01-10T23:59"/);
});

test('categories and labels: add, rename, delete (ideas lose the category), too long names refused', async () => {
  const { db, initiator, module, base } = await withIdeaChallenge();
  assert.equal((await initiator.post(`${base}/categories/`, { 'new-0': 'Traffic', 'new-1': 'Parks', 'new-2': '' })).status, 302);
  const cats = await db.select().from(categories).where(eq(categories.moduleId, module.id)).orderBy(asc(categories.id));
  assert.deepEqual(cats.map((c) => c.name), ['Traffic', 'Parks']);
  await db.insert(ideas).values({ moduleId: module.id, creatorId: 5, name: 'Idea', description: 'x', categoryId: cats[0].id });
  const long = await initiator.post(`${base}/categories/`, { [`term-${cats[0].id}`]: 'x'.repeat(121) });
  assert.equal(long.status, 400);
  assert.match(long.text, new RegExp(`id="id_term-${cats[0].id}_errors"`));
  assert.equal((await initiator.post(`${base}/categories/`, { [`term-${cats[0].id}`]: 'Cars', [`delete-${cats[1].id}`]: 'on', [`term-${cats[1].id}`]: 'Parks' })).status, 302);
  assert.deepEqual((await db.select().from(categories).where(eq(categories.moduleId, module.id))).map((c) => c.name), ['Cars']);
  assert.equal((await initiator.post(`${base}/categories/`, { [`delete-${cats[0].id}`]: 'on' })).status, 302);
  assert.equal((await db.select().from(ideas).where(eq(ideas.moduleId, module.id)))[0].categoryId, null);
  assert.equal((await initiator.post(`${base}/labels/`, { 'new-0': 'Urgent' })).status, 302);
  assert.deepEqual((await db.select().from(labels).where(eq(labels.moduleId, module.id))).map((l) => l.name), ['Urgent']);
});

test('a module is added only when complete, hidden only in a draft project, deleted only as a draft; publishing lists what is missing', async () => {
  const { db, initiator, module, base } = await withIdeaChallenge();
  const refused = await initiator.post(`${base}/state/`, { action: 'add' });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /Module cannot be added. Required fields are missing./);
  const publish = await initiator.post('/org/dashboard/projects/draft-plan/publish/', { action: 'publish' });
  assert.equal(publish.status, 400);
  assert.match(publish.text, /Project cannot be published./);
  assert.match(publish.text, /No module is added./);
  assert.match(publish.text, /<a href="\/org\/dashboard\/projects\/draft-plan\/information\/">Description of your project<\/a>/);

  await initiator.post(`${base}/module_basic/`, { name: 'Ideas for the park', description: 'Tell us' });
  await initiator.post(`${base}/phases/`, {
    'phase-0-name': 'Collect', 'phase-0-description': 'Send', 'phase-0-start': '2030-01-01T10:00', 'phase-0-end': '2030-01-10T10:00',
    'phase-1-name': 'Rate', 'phase-1-description': '', 'phase-1-start': '2030-01-10T10:00', 'phase-1-end': '2030-01-20T10:00',
  });
  assert.match((await initiator.post(`${base}/state/`, { action: 'add' })).text, /Module cannot be added/);
  const stillMissing = await initiator.post('/org/dashboard/projects/draft-plan/publish/', { action: 'publish' });
  assert.doesNotMatch(stillMissing.text, /Phase 2: description/, 'draft modules do not count');
  assert.match((await initiator.get(`${base}/phases/`)).text, /Phase 2: description/);

  await initiator.post(`${base}/phases/`, {
    'phase-0-name': 'Collect', 'phase-0-description': 'Send', 'phase-0-start': '2030-01-01T10:00', 'phase-0-end': '2030-01-10T10:00',
    'phase-1-name': 'Rate', 'phase-1-description': 'Rate them', 'phase-1-start': '2030-01-10T10:00', 'phase-1-end': '2030-01-20T10:00',
  });
  assert.equal((await initiator.post(`${base}/state/`, { action: 'add' })).location, `${base}/module_basic/?done=module_added`);
  assert.match((await initiator.post(`${base}/state/`, { action: 'delete' })).text, /Module cannot be deleted. It has to be removed from the project first./);
  const noInfo = await initiator.post('/org/dashboard/projects/draft-plan/publish/', { action: 'publish' });
  assert.match(noInfo.text, /Required fields are missing:/);
  assert.doesNotMatch(noInfo.text, /No module is added/);
  await initiator.post('/org/dashboard/projects/draft-plan/information/', { information: '<p>All about the park</p>' });
  assert.equal((await initiator.post('/org/dashboard/projects/draft-plan/publish/', { action: 'publish' })).location, '/org/dashboard/projects/draft-plan/basic/?done=published');
  assert.equal((await db.select().from(projects).where(eq(projects.id, 2)))[0].isDraft, false);
  assert.match((await initiator.post(`${base}/state/`, { action: 'hide' })).text, /Module cannot be removed from a published project./);
  assert.equal((await initiator.post(`${base}/phases/`, { 'phase-0-name': '', 'phase-0-description': 'x', 'phase-1-name': 'R', 'phase-1-description': 'y' })).status, 400, 'an added module keeps its required fields');
  const archive = await initiator.post('/org/dashboard/projects/draft-plan/publish/', { action: 'archive' });
  assert.match(archive.text, /A project can only be archived when its last phase has ended./);
  await db.update(phases).set({ startDate: new Date('2020-01-01T00:00Z'), endDate: new Date('2020-01-02T00:00Z') }).where(eq(phases.moduleId, module.id));
  assert.equal((await initiator.post('/org/dashboard/projects/draft-plan/publish/', { action: 'archive' })).status, 302);
  assert.equal((await db.select().from(projects).where(eq(projects.id, 2)))[0].isArchived, true);
  await initiator.post('/org/dashboard/projects/draft-plan/publish/', { action: 'unpublish' });
  assert.equal((await initiator.post(`${base}/state/`, { action: 'hide' })).status, 302);
  assert.equal((await initiator.post(`${base}/state/`, { action: 'delete' })).status, 302);
  assert.equal((await db.select().from(modules).where(eq(modules.id, module.id))).length, 0);
});

test('deleting a draft module takes along what hangs on its content: comments with their replies, ratings and reports; another module\'s stay', async () => {
  const { db, initiator, module, base } = await withIdeaChallenge();
  const other = await initiator.post(`${BLUEPRINTS}idea-collection/`, {});
  assert.equal(other.status, 302);
  const [kept] = (await db.select().from(modules).where(eq(modules.projectId, 2))).filter((m) => m.id !== module.id);
  const [gone, stays] = await db.insert(ideas).values([module, kept].map((m) => ({ moduleId: m.id, creatorId: 2, name: 'An idea', description: 'text' }))).returning({ id: ideas.id });
  const commentOn = (ideaId: number) => ({ creatorId: 2, contentType: 'idea' as const, objectPk: ideaId, comment: 'On it', projectId: 2 });
  const [topGone, topStays] = await db.insert(comments).values([commentOn(gone.id), commentOn(stays.id)]).returning({ id: comments.id });
  const [replyGone] = await db.insert(comments).values({ creatorId: 2, contentType: 'comment', objectPk: topGone.id, comment: 'A reply', projectId: 2 }).returning({ id: comments.id });
  await db.insert(ratings).values([
    { creatorId: 2, contentType: 'idea', objectPk: gone.id, value: 1 },
    { creatorId: 2, contentType: 'comment', objectPk: replyGone.id, value: -1 },
    { creatorId: 2, contentType: 'idea', objectPk: stays.id, value: 1 },
  ]);
  await db.insert(reports).values([
    { creatorId: 2, contentType: 'comment', objectPk: topGone.id, description: 'Spam' },
    { creatorId: 2, contentType: 'comment', objectPk: topStays.id, description: 'Spam' },
  ]);

  assert.equal((await initiator.post(`${base}/state/`, { action: 'delete' })).status, 302);
  assert.equal((await db.select().from(modules).where(eq(modules.id, module.id))).length, 0);
  const ids = async (rows: Promise<{ id: number }[]>) => (await rows).map((r) => r.id).sort((a, b) => a - b);
  assert.deepEqual(await ids(db.select({ id: comments.id }).from(comments).where(inArray(comments.id, [topGone.id, replyGone.id, topStays.id]))), [topStays.id], 'the deleted module\'s comment and its reply went; the other module\'s stayed');
  assert.deepEqual((await db.select({ kind: ratings.contentType, pk: ratings.objectPk }).from(ratings).where(eq(ratings.creatorId, 2))).filter((r) => [gone.id, stays.id, replyGone.id].includes(r.pk)), [{ kind: 'idea', pk: stays.id }]);
  assert.deepEqual((await db.select({ pk: reports.objectPk }).from(reports).where(inArray(reports.objectPk, [topGone.id, topStays.id]))).map((r) => r.pk), [topStays.id]);
});

test('the phase form says what the dates mean and what "now" is, starts a phase now, and warns when a published module is closed for everyone', async (t) => {
  t.mock.timers.enable({ apis: ['Date'], now: Date.parse('2030-01-05T09:30:00Z') });
  const { db, initiator, module, base } = await withIdeaChallenge();
  const form = (await initiator.get(`${base}/phases/`)).text;
  assert.match(form, /Participation is open from the start of a phase until its end/);
  assert.match(form, /in the time zone Europe\/Berlin\. A date without a time means 23:59\. It is now [^<]*10:30[^<]* there\./);
  assert.match(form, /<button type="submit" name="start_now" value="0" class="secondary">Starts now \(save\)<\/button>/);
  assert.doesNotMatch(form, /No one can take part now/);
  const fields = { 'phase-0-name': 'Collect', 'phase-0-description': 'Send ideas', 'phase-0-start': '', 'phase-0-end': '2030-01-10T10:00', 'phase-1-name': 'Rate', 'phase-1-description': 'Rate ideas', 'phase-1-start': '', 'phase-1-end': '' };
  const started = await initiator.post(`${base}/phases/`, { ...fields, start_now: '0' });
  assert.equal(started.status, 302);
  const [first] = await db.select().from(phases).where(eq(phases.moduleId, module.id)).orderBy(asc(phases.weight));
  assert.equal(first.startDate?.toISOString(), '2030-01-05T09:30:00.000Z');

  // Published project and module: a warning when every phase is over or none has begun.
  await db.update(projects).set({ isDraft: false }).where(eq(projects.id, module.projectId));
  await db.update(modules).set({ isDraft: false }).where(eq(modules.id, module.id));
  assert.doesNotMatch((await initiator.get(`${base}/phases/`)).text, /No one can take part now/);
  const dated = (year: number) => ({ ...fields, 'phase-0-start': `${year}-01-01T10:00`, 'phase-0-end': `${year}-01-10T10:00`, 'phase-1-start': `${year}-01-10T10:00`, 'phase-1-end': `${year}-01-20T10:00` });
  assert.equal((await initiator.post(`${base}/phases/`, dated(2031))).status, 302);
  assert.match((await initiator.get(`${base}/phases/`)).text, /role="alert">No one can take part now: no phase of this published module has begun yet\./);
  assert.equal((await initiator.post(`${base}/phases/`, dated(2029))).status, 302);
  assert.match((await initiator.get(`${base}/phases/`)).text, /role="alert">No one can take part now: every phase of this published module is over\./);
  await initiator.post('/i18n/setlang/', { language: 'de', next: `${base}/phases/` });
  const german = (await initiator.get(`${base}/phases/`)).text;
  assert.match(german, /Niemand kann sich jetzt beteiligen: Alle Phasen dieses veröffentlichten Moduls sind vorbei\./);
  assert.match(german, /Beginnt jetzt \(speichern\)/);
});
