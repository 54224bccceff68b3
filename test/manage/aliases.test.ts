import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { categories, modules } from '../../src/db/schema/index.js';
import { dashboardApp, dashboardWorld, signedIn } from './world.js';

/** Module 1 of organisation 1 (Brainstorming, collecting now) with an idea in category "Traffic", label "Urgent". */
async function aliasApp() {
  const world = dashboardWorld();
  const t = await dashboardApp({ ...world, ideas: [{ id: 1, module: 1, creator: 5, name: 'Bike lanes', description: 'x', category: 1, labels: [1] }] });
  const [module] = await t.db.select().from(modules).where(eq(modules.id, 1));
  const initiator = await signedIn(t.app, 'initiator');
  return { ...t, initiator, module, base: `/org/dashboard/modules/${module.slug}` };
}

test('a module’s own words for category and label: set on the dashboard, used in the idea list’s filters and badges, the idea form with its help texts, the idea page and the export', async () => {
  const { db, app, initiator, module, base } = await aliasApp();
  const form = await initiator.get(`${base}/categories/`);
  assert.match(form.text, /Word for “Category”/);
  const saved = await initiator.post(`${base}/categories/`, { alias: ' District ', alias_help: 'Where in town is it?', 'term-1': 'Traffic', 'term-2': 'Parks' });
  assert.equal(saved.status, 302);
  assert.equal((await initiator.post(`${base}/labels/`, { alias: 'Topic', alias_help: '', 'term-1': 'Urgent' })).status, 302);
  const [stored] = await db.select().from(modules).where(eq(modules.id, 1));
  assert.deepEqual([stored.categoryAlias, stored.categoryAliasHelp, stored.labelAlias, stored.labelAliasHelp], ['District', 'Where in town is it?', 'Topic', '']);
  assert.match((await initiator.get(`${base}/categories/`)).text, /name="alias"[^>]*value="District"|value="District"[^>]*name="alias"/);

  const user = await signedIn(app, 'user');
  const list = await user.get(`/org/projects/module/${module.slug}/`);
  assert.match(list.text, /<label for="id_category">District<\/label>/);
  assert.match(list.text, /<label for="id_label">Topic<\/label>/);
  assert.match(list.text, /<span class="visually-hidden">District: <\/span>Traffic/);
  assert.doesNotMatch(list.text, /<label for="id_category">Category<\/label>/);

  const create = await user.get(`/org/ideas/create/module/${module.slug}/`);
  assert.equal(create.status, 200);
  assert.match(create.text, /<label for="id_category">District<\/label><p class="help" id="id_category_help">Where in town is it\?<\/p>/);
  assert.match(create.text, /<legend>Topic<\/legend>/);

  const ideaPath = /href="(\/org\/ideas\/\d{4}-\d{5}\/)"/.exec(list.text)?.[1];
  assert.ok(ideaPath);
  const idea = await user.get(ideaPath);
  assert.match(idea.text, /<span class="visually-hidden">District: <\/span>Traffic/);
  assert.match(idea.text, /<span class="visually-hidden">Topic: <\/span>Urgent/);
  const csv = (await initiator.download(`${base}/export/ideas.csv`)).body.toString('utf8');
  assert.match(csv, /^\uFEFFReference No\.,Link,Title,Description,District,Topic,Creator/);

  // A German reader sees the module's own word as it is; without one, the catalogue's.
  const german = await signedIn(app, 'coinit');
  assert.match((await german.get(`/org/projects/module/${module.slug}/`)).text, /<label for="id_category">District<\/label>/);
  assert.equal((await initiator.post(`${base}/categories/`, { alias: '', alias_help: '', 'term-1': 'Traffic', 'term-2': 'Parks' })).status, 302);
  assert.match((await german.get(`/org/projects/module/${module.slug}/`)).text, /<label for="id_category">Kategorie<\/label>/);
});

test('a word too long is refused beside its field and nothing of the form is saved; another organisation’s initiator cannot set it', async () => {
  const { db, app, initiator, base } = await aliasApp();
  const refused = await initiator.post(`${base}/categories/`, { alias: 'x'.repeat(26), alias_help: 'y'.repeat(301), 'term-1': 'Cars', 'term-2': 'Parks' });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /id="id_alias_errors"[^>]*>[\s\S]*?25/);
  assert.match(refused.text, /id="id_alias_help_errors"[^>]*>[\s\S]*?300/);
  assert.match(refused.text, /value="xxxxxxxxxxxxxxxxxxxxxxxxxx"/, 'the value is kept in the form');
  const [stored] = await db.select().from(modules).where(eq(modules.id, 1));
  assert.equal(stored.categoryAlias, '');
  assert.deepEqual((await db.select().from(categories).where(eq(categories.moduleId, 1))).map((c) => c.name).sort(), ['Parks', 'Traffic'], 'the rename in the same form is not saved either');
  const other = await signedIn(app, 'other');
  assert.equal((await other.post(`${base}/categories/`, { alias: 'District' })).status, 403);
  assert.equal((await db.select().from(modules).where(eq(modules.id, 1)))[0].categoryAlias, '');
});

test('loaddata takes a module’s own words (a4 CategoryAlias, LabelAlias)', async () => {
  const world = dashboardWorld();
  const [first, ...rest] = world.modules ?? [];
  const t = await dashboardApp({ ...world, modules: [{ ...first, category_alias: 'District', label_alias_help: 'Pick what fits' }, ...rest] });
  const [stored] = await t.db.select().from(modules).where(eq(modules.id, 1));
  assert.deepEqual([stored.categoryAlias, stored.categoryAliasHelp, stored.labelAlias, stored.labelAliasHelp], ['District', '', '', 'Pick what fits']);
});
