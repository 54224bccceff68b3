import '../../../src/module-types.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { modules, phases } from '../../../src/db/schema/index.js';
import { SHARED_COMPONENTS } from '../../../src/core/modules/registry.js';
import { contentPart, exportFile, type ModuleType, registerModuleTypes } from '../../../src/features/moduletypes/contract.js';
import { ItemThread } from '../../../src/features/threads/items.js';
import { daysFromNow, tokenHeader } from '../../fixtures.js';
import { dashboardApp, dashboardWorld, signedIn } from '../../manage/world.js';
import { h } from 'preact';

/**
 * A tiny module type, declared here and nowhere in src/: one question per module, discussed in
 * comments on the module itself. Registering it is all it takes to get a dashboard component with
 * its publish check, phase rules, a comment thread on its module page and an export.
 */
const questions = new Map<number, string>();

const tiny: ModuleType = {
  blueprintType: 'TT',
  key: 'tiny-type',
  title: { en: 'Tiny question', de: 'Kleine Frage' },
  description: { en: 'One question, discussed.', de: 'Eine Frage, diskutiert.' },
  offered: true,
  phases: [{ type: 'tiny:discuss', content: 'module', features: ['comment'], name: { en: 'Discussion', de: 'Diskussion' }, description: { en: 'Discuss the question.', de: 'Diskutiert die Frage.' } }],
  components: [
    SHARED_COMPONENTS.basic,
    SHARED_COMPONENTS.phases,
    { key: 'question', label: { en: 'Question', de: 'Frage' }, missing: (module) => (module.facts?.question ? [] : [{ field: { en: 'The question', de: 'Die Frage' } }]) },
  ],
  facts: async (_db, ids) => new Map(ids.map((id) => [id, { question: questions.get(id) ?? '' }])),
  tables: [],
  contentTypes: [
    {
      kind: 'module',
      id: 2,
      appLabel: 'a4modules',
      model: 'module',
      commentable: true,
      target: async (db, id) => {
        const [row] = await db.select({ id: modules.id }).from(modules).where(eq(modules.id, id));
        return row ? { moduleId: row.id, creatorId: null } : null;
      },
      inModules: (moduleIds) => sql`select ${modules.id}, ${modules.id}, null::integer from ${modules} where ${modules.id} in (${moduleIds})`,
      onAuthorDeleted: async () => [],
    },
  ],
  dashboardForms: {
    question: {
      values: async (_db, module) => ({ question: questions.get(module.id) ?? '' }),
      Fields: ({ values, errors }) => h('p', null, h('label', { for: 'id_question' }, 'Question'), h('input', { id: 'id_question', name: 'question', value: values.question }), errors.question ? h('span', { class: 'error' }, errors.question[0]) : null),
      save: async (_db, module, body): Promise<{ values: Record<string, string>; errors: Record<string, string[]> }> => {
        const question = String(body.question ?? '').trim();
        if (!question) return { values: { question }, errors: { question: ['Ask something.'] } };
        questions.set(module.id, question);
        return { values: { question }, errors: {} };
      },
    },
  },
  content: contentPart({
    load: async (input) => ({ id: input.module.id, question: questions.get(input.module.id) ?? '' }),
    threads: (data) => [{ type: 'module', id: data.id }],
    View: ({ page, data, threads }) => h('section', { id: 'tiny-question' }, h('h2', null, data.question), h(ItemThread, { page, threads, object: { type: 'module', id: data.id } })),
  }),
  exports: [exportFile({ name: 'questions', heading: 'Questions', sheet: { title: 'Questions', columns: ['Question'], cells: (row: { question: string }) => [row.question] }, batches: async function* (_db, moduleId) { yield [{ question: questions.get(moduleId) ?? '' }]; } })],
};
registerModuleTypes([tiny]);

async function tinyWorld() {
  const world = dashboardWorld();
  const running = { start_date: daysFromNow(-1), end_date: daysFromNow(5) };
  world.modules = [
    ...(world.modules ?? []),
    { id: 20, slug: 'tiny', project: 1, name: 'Tiny', description: 'About one thing', blueprint_type: 'TT', phases: [{ type: 'tiny:discuss', name: 'Talk', description: 'Talk', ...running }] },
    { id: 21, slug: 'tiny-over', project: 1, name: 'Tiny, over', description: 'Over', blueprint_type: 'TT', phases: [{ type: 'tiny:discuss', name: 'Talk', description: 'Talk', start_date: daysFromNow(-5), end_date: daysFromNow(-1) }] },
  ];
  return dashboardApp(world);
}

test('a module type of its own: the dashboard offers it, adds it with its phases, and shows its component', async () => {
  const { app, db } = await tinyWorld();
  const initiator = await signedIn(app, 'initiator');
  const offered = await initiator.get('/org/dashboard/projects/draft-plan/blueprints/');
  assert.match(offered.text, /Tiny question/);
  assert.equal((await initiator.post('/org/dashboard/projects/draft-plan/blueprints/tiny-type/', {})).status, 302);
  const [module] = await db.select().from(modules).where(eq(modules.projectId, 2));
  assert.equal(module.blueprintType, 'TT');
  assert.deepEqual((await db.select().from(phases).where(eq(phases.moduleId, module.id))).map((p) => [p.type, p.name]), [['tiny:discuss', 'Diskussion']], "named in the organisation's language");
  const page = await initiator.get(`/org/dashboard/modules/${module.slug}/question/`);
  assert.equal(page.status, 200);
  assert.match(page.text, /<input id="id_question" name="question" value\/>/);
});

test('a module type of its own: its component adds to the publish check, and its form saves or comes back with the error', async () => {
  const { app, db } = await tinyWorld();
  const initiator = await signedIn(app, 'initiator');
  await initiator.post('/org/dashboard/projects/draft-plan/blueprints/tiny-type/', {});
  const [module] = await db.select().from(modules).where(eq(modules.projectId, 2));
  const base = `/org/dashboard/modules/${module.slug}`;
  const before = await initiator.get(`${base}/module_basic/`);
  assert.match(before.text, new RegExp(`href="${base}/question/">[^<]*The question`));
  const refused = await initiator.post(`${base}/question/`, { question: '  ' });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /Ask something\./);
  const saved = await initiator.post(`${base}/question/`, { question: 'Where should the bench go?' });
  assert.equal(saved.status, 302);
  const after = await initiator.get(`${base}/module_basic/`);
  assert.doesNotMatch(after.text, /The question/);
  assert.equal((await initiator.get(`${base}/nothing/`)).status, 404);
});

test('a module type of its own: its phase rules let participants comment on its content while the phase runs, and not after', async () => {
  const { db, request } = await tinyWorld();
  const member = await tokenHeader(db, 4);
  const open = await request({ method: 'POST', url: '/api/contenttypes/2/objects/20/comments/', headers: member, payload: { comment: 'Near the fountain' } });
  assert.equal(open.status, 201);
  const over = await request({ method: 'POST', url: '/api/contenttypes/2/objects/21/comments/', headers: member, payload: { comment: 'Too late' } });
  assert.equal(over.status, 403);
  const onIdeas = await request({ method: 'POST', url: '/api/contenttypes/2/objects/1/comments/', headers: member, payload: { comment: 'Not a tiny module' } });
  assert.equal(onIdeas.status, 403);
});

test('a module type of its own: its module page shows its part with the comment thread, and its export downloads', async () => {
  const { app, db, request } = await tinyWorld();
  questions.set(20, 'Where should the bench go?');
  await request({ method: 'POST', url: '/api/contenttypes/2/objects/20/comments/', headers: await tokenHeader(db, 4), payload: { comment: 'Near the fountain' } });
  const initiator = await signedIn(app, 'initiator');
  const page = await initiator.get('/org/projects/module/tiny/');
  assert.equal(page.status, 200);
  assert.match(page.text, /<section id="tiny-question"><h2>Where should the bench go\?<\/h2>/);
  assert.match(page.text, /Near the fountain/);
  const csv = await initiator.download('/org/dashboard/modules/tiny/export/questions.csv');
  assert.equal(csv.status, 200);
  assert.match(csv.body.toString('utf8'), /Question\r?\nWhere should the bench go\?/);
  assert.equal((await initiator.download('/org/dashboard/modules/tiny/export/ideas.csv')).status, 404);
});

test('a module type registers once: a second type with the same blueprint type or key is refused', () => {
  assert.throws(() => registerModuleTypes([{ ...tiny }]), /registered twice/);
  assert.doesNotThrow(() => registerModuleTypes([tiny]));
});
