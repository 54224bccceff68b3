import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client.js';
import { follows, outbox, projectModerators, projects } from '../../src/db/schema/index.js';
import { Browser } from '../me/accounts/client.js';
import type { Fixture } from '../../src/cli/fixture-schema.js';
import { load } from '../fixtures.js';
import { dashboardApp, dashboardWorld, signedIn } from './world.js';

const LIST = '/org/dashboard/projects/';

test('the project list: login redirect for visitors, 403 for users, moderators and initiators of another organisation', async () => {
  const { app } = await dashboardApp();
  const anonymous = await new Browser(app).get(LIST);
  assert.equal(anonymous.status, 302);
  assert.equal(anonymous.location, '/accounts/login/?next=/org/dashboard/projects/');
  for (const username of ['user', 'moderator', 'member', 'other']) {
    const browser = await signedIn(app, username);
    assert.equal((await browser.get(LIST)).status, 403, username);
    assert.equal((await browser.get('/org/dashboard/projects/project/basic/')).status, 403, username);
    assert.equal((await browser.post('/org/dashboard/projects/create/', { name: 'X', description: 'Y', access: 'PUBLIC' })).status, 403, username);
  }
  assert.equal((await (await signedIn(app, 'other')).get('/other-org/dashboard/projects/')).status, 200);
  assert.equal((await (await signedIn(app, 'admin')).get(LIST)).status, 200);
  assert.equal((await (await signedIn(app, 'initiator')).get('/nowhere/dashboard/projects/')).status, 404);
});

test('an initiator cannot reach a project of another organisation through his own organisation', async () => {
  const { app } = await dashboardApp();
  const initiator = await signedIn(app, 'initiator');
  assert.equal((await initiator.get('/org/dashboard/projects/foreign/basic/')).status, 404);
  assert.equal((await initiator.get('/other-org/dashboard/projects/foreign/basic/')).status, 403);
  assert.equal((await initiator.post('/other-org/dashboard/projects/foreign/delete/', {})).status, 403);
  assert.equal((await initiator.post('/org/dashboard/projects/foreign/delete/', {})).status, 404);
});

test('the list shows drafts, hides archived projects by default, searches name and description, and pages by 12', async () => {
  const { app, db } = await dashboardApp();
  const initiator = await signedIn(app, 'initiator');
  const page = await initiator.get(LIST);
  assert.equal(page.status, 200);
  assert.match(page.text, /Draft plan/);
  assert.match(page.text, /Project/);
  assert.doesNotMatch(page.text, /Old plan/);
  assert.doesNotMatch(page.text, /Foreign project/);
  assert.match((await initiator.get(`${LIST}?is_archived=yes`)).text, /Old plan/);
  const found = await initiator.get(`${LIST}?search=not+yet&is_archived=all`);
  assert.match(found.text, /Draft plan/);
  assert.doesNotMatch(found.text, /Old plan/);
  assert.doesNotMatch((await initiator.get(`${LIST}?search=%25`)).text, /Draft plan/);
  await db.insert(projects).values(Array.from({ length: 12 }, (_, i) => ({ slug: `bulk-${i}`, name: `Bulk ${i}`, organisationId: 1 })));
  const first = await initiator.get(LIST);
  assert.match(first.text, /href="\/org\/dashboard\/projects\/\?is_archived=no&amp;page=2"/);
  const second = await initiator.get(`${LIST}?is_archived=no&page=2`);
  assert.equal(second.status, 200);
  assert.match(second.text, /Project/);
  assert.equal((await initiator.get(`${LIST}?page=3`)).status, 404);
  assert.equal((await initiator.get(`${LIST}?is_archived=maybe`)).status, 400);
});

test('creating a project: errors beside the fields with the values kept, nothing stored', async () => {
  const { app, db } = await dashboardApp();
  const initiator = await signedIn(app, 'initiator');
  const before = await db.select().from(projects);
  const page = await initiator.post('/org/dashboard/projects/create/', { name: 'Park <b>plan</b>', description: '', access: 'NOBODY' });
  assert.equal(page.status, 400);
  assert.match(page.text, /value="Park &lt;b>plan&lt;\/b>"/);
  assert.match(page.text, /id="id_description_errors"[^>]*><li>This field is required.<\/li>/);
  assert.match(page.text, /id="id_access_errors"[^>]*><li>Select a valid choice.<\/li>/);
  // The limits the fields and their help show are the rule's (PROJECT_FIELDS).
  assert.match(page.text, /maxlength="120" required aria-describedby="id_name_help"/);
  assert.match(page.text, /At most 120 characters\./);
  assert.match(page.text, /At most 250 characters; shown on the project tile\./);
  assert.equal((await db.select().from(projects)).length, before.length);
  assert.equal((await initiator.post('/org/dashboard/projects/create/', { name: 'x', description: 'y', access: 'PUBLIC' }, false)).status, 403);
});

test('a created project is a draft, its creator moderates and follows it, the other initiators are told', async () => {
  const { app, db } = await dashboardApp();
  const initiator = await signedIn(app, 'initiator');
  const created = await initiator.post('/org/dashboard/projects/create/', { name: 'Grüne Höfe', description: 'More green in the yards', access: 'PRIVATE' });
  assert.equal(created.status, 302);
  assert.equal(created.location, '/org/dashboard/projects/grune-hofe/basic/?done=created');
  const [project] = await db.select().from(projects).where(eq(projects.slug, 'grune-hofe'));
  assert.equal(project.isDraft, true);
  assert.equal(project.access, 'PRIVATE');
  assert.equal(project.organisationId, 1);
  assert.equal((await db.select().from(projectModerators).where(and(eq(projectModerators.projectId, project.id), eq(projectModerators.userId, 2)))).length, 1);
  assert.equal((await db.select().from(follows).where(and(eq(follows.projectId, project.id), eq(follows.creatorId, 2))))[0]?.enabled, true);
  const mails = await db.select().from(outbox).where(eq(outbox.kind, 'new_project'));
  assert.deepEqual(mails.map((m) => m.recipient), ['coinit@example.org']);
  assert.match(mails[0].subject, /Neues Projekt Grüne Höfe/);
  assert.match(mails[0].body, /http:\/\/[^/]+\/org\/dashboard\/projects\/grune-hofe\//);
  const page = await initiator.get(created.location ?? '');
  assert.match(page.text, /Project was created./);
  // A second project of the same name gets its own address.
  const again = await initiator.post('/org/dashboard/projects/create/', { name: 'Grüne Höfe', description: 'Again', access: 'PUBLIC' });
  assert.equal(again.location, '/org/dashboard/projects/grune-hofe-2/basic/?done=created');
});

test('duplicate copies the project as a draft with moderators, modules and phases; delete asks first and tells the initiators', async () => {
  const { app, db } = await dashboardApp();
  const initiator = await signedIn(app, 'initiator');
  const copied = await initiator.post('/org/dashboard/projects/project/duplicate/', {});
  assert.equal(copied.location, '/org/dashboard/projects/project-2/basic/?done=duplicated');
  const [copy] = await db.select().from(projects).where(eq(projects.slug, 'project-2'));
  assert.equal(copy.isDraft, true);
  assert.equal(copy.name, 'Kopie von Project', 'titled "Copy of …" in the organisation\'s language (German)');
  const page = await initiator.get('/org/dashboard/projects/project-2/basic/');
  assert.match(page.text, /Ideas/);
  assert.deepEqual((await db.select().from(projectModerators).where(eq(projectModerators.projectId, copy.id))).map((m) => m.userId), [3]);

  const confirm = await initiator.get('/org/dashboard/projects/project-2/delete/');
  assert.equal(confirm.status, 200);
  assert.match(confirm.text, /Do you really want to delete the project/);
  assert.equal((await db.select().from(projects).where(eq(projects.id, copy.id))).length, 1);
  const deleted = await initiator.post('/org/dashboard/projects/project-2/delete/', {});
  assert.equal(deleted.location, '/org/dashboard/projects/?done=deleted');
  assert.equal((await db.select().from(projects).where(eq(projects.id, copy.id))).length, 0);
  const mails = await db.select().from(outbox).where(eq(outbox.kind, 'project_deleted'));
  assert.deepEqual(mails.map((m) => m.recipient).sort(), ['coinit@example.org', 'initiator@example.org']);
});

/** The tables that point at content by kind and id (a generic relation): no foreign key takes their rows along. */
const GENERIC_RELATIONS = ['comments', 'moderator_remarks', 'ratings', 'reports', 'result_links'];

const rows = async <T>(db: Db, query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

test('deleting a project deletes the comments, replies, ratings, reports and remarks on its content, and nothing of another project', async () => {
  const world = dashboardWorld();
  const { app, db } = await dashboardApp({
    ...world,
    modules: [...(world.modules ?? []), { id: 2, project: 3, name: 'Old ideas', phases: [{ type: 'a4_candy_ideas:collect', start_date: '2024-01-01T00:00:00Z', end_date: '2024-02-01T00:00:00Z' }] }],
    ideas: [
      { id: 1, module: 1, creator: 5, name: 'Bench', description: 'x' },
      { id: 2, module: 2, creator: 5, name: 'Old bench', description: 'x' },
    ],
    comments: [
      { id: 1, creator: 5, target: { type: 'idea', id: 1 }, comment: 'On the idea' },
      { id: 2, creator: 6, target: { type: 'comment', id: 1 }, comment: 'A reply' },
      { id: 3, creator: 5, target: { type: 'idea', id: 2 }, comment: 'On the other project' },
    ],
    ratings: [
      { creator: 6, target: { type: 'idea', id: 1 }, value: 1 },
      { creator: 6, target: { type: 'comment', id: 1 }, value: 1 },
      { creator: 6, target: { type: 'idea', id: 2 }, value: 1 },
    ],
    reports: [
      { creator: 6, target: { type: 'idea', id: 1 } },
      { creator: 5, target: { type: 'comment', id: 2 } },
      { creator: 6, target: { type: 'comment', id: 3 } },
    ],
    comment_feedback: [{ comment: 1, creator: 3, feedback_text: 'Noted' }],
    moderator_remarks: [{ target: { type: 'idea', id: 1 }, remark: 'Check the site' }],
  });
  const tables = (await rows<{ table_name: string }>(db, sql`SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name IN ('content_type', 'object_pk') GROUP BY table_name HAVING count(*) = 2 ORDER BY table_name`)).map((row) => row.table_name);
  assert.deepEqual(tables, GENERIC_RELATIONS, 'every generic relation is counted here (and deleted with the project: manage/projects/services.ts)');
  const counts = async () => {
    const found: Record<string, { all: number; ofProject: number }> = {};
    for (const table of GENERIC_RELATIONS) {
      const ofProject = table === 'comments' ? sql`project_id = 1` : sql`page_project_of(content_type, object_pk) = 1`;
      const [row] = await rows<{ all: number; of_project: number }>(db, sql`SELECT count(*)::int AS all, (count(*) FILTER (WHERE ${ofProject}))::int AS of_project FROM ${sql.identifier(table)}`);
      found[table] = { all: row.all, ofProject: row.of_project };
    }
    return found;
  };
  const before = await counts();
  assert.deepEqual(
    Object.fromEntries(Object.entries(before).map(([table, n]) => [table, n.ofProject])),
    { comments: 2, moderator_remarks: 1, ratings: 2, reports: 2, result_links: 0 },
    'the project has a comment with its reply, and ratings, reports and a remark on its idea and comments',
  );
  const initiator = await signedIn(app, 'initiator');
  assert.equal((await initiator.post('/org/dashboard/projects/project/delete/', {})).location, '/org/dashboard/projects/?done=deleted');
  const after = await counts();
  for (const table of GENERIC_RELATIONS) assert.equal(after[table].all, before[table].all - before[table].ofProject, `${table}: the project's rows are gone, the other project's stay`);
  const [{ n: orphans }] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM comments WHERE project_id IS NULL`);
  assert.equal(orphans, 0, 'no comment is left without its project');
  assert.equal((await initiator.get('/org/projects/old-plan/')).status, 200);
});

test('project components keep the values and show the errors beside the fields; rich text is cleaned', async () => {
  const { app, db } = await dashboardApp();
  const initiator = await signedIn(app, 'initiator');
  const bad = await initiator.post('/org/dashboard/projects/draft-plan/information/', { information: '<p>Hi</p>', contact_phone: 'call me', contact_email: 'nope', contact_url: 'javascript:alert(1)' });
  assert.equal(bad.status, 400);
  assert.match(bad.text, /id="id_contact_phone_errors"[^>]*><li>Enter a phone number of 8 to 20 digits, spaces and \+ \( \) -\./);
  assert.match(bad.text, /name="contact_phone"[^>]*maxlength="20"|maxlength="20"[^>]*name="contact_phone"/, 'the field takes its limit from the rule');
  assert.match(bad.text, /id="id_contact_email_errors"[^>]*><li>Enter a valid email address./);
  assert.match(bad.text, /id="id_contact_url_errors"/);
  assert.match(bad.text, /value="call me"/);
  const [unchanged] = await db.select().from(projects).where(eq(projects.slug, 'draft-plan'));
  assert.equal(unchanged.information, '');
  const noAlt = await initiator.post('/org/dashboard/projects/draft-plan/information/', { information: '<p>Map</p><img src="/media/projects/a.png">' });
  assert.match(noAlt.text, /Please add an alternative text for all images./);
  const ok = await initiator.post('/org/dashboard/projects/draft-plan/information/', { information: '<p>Plan <script>alert(1)</script><strong>now</strong></p>', contact_phone: '+49 (30) 123-45' });
  assert.equal(ok.location, '/org/dashboard/projects/draft-plan/information/?done=saved');
  const [saved] = await db.select().from(projects).where(eq(projects.slug, 'draft-plan'));
  assert.equal(saved.information, '<p>Plan <strong>now</strong></p>');
  assert.equal(saved.contactPhone, '+49 (30) 123-45');
  const location = await initiator.post('/org/dashboard/projects/draft-plan/location/', { point_lat: '52.5', point_lng: '' });
  assert.equal(location.status, 400);
  assert.match(location.text, /Give both latitude and longitude, or neither./);
  assert.equal((await initiator.post('/org/dashboard/projects/draft-plan/location/', { point_lat: '52.5', point_lng: '13.4', zip_code: '10115' })).status, 302);
  const [located] = await db.select().from(projects).where(eq(projects.slug, 'draft-plan'));
  assert.deepEqual([located.pointLat, located.pointLng, located.zipCode], [52.5, 13.4, '10115']);
  assert.equal((await initiator.get('/org/dashboard/projects/draft-plan/unknown/')).status, 404);
});

test('a published project keeps the fields counted for completeness', async () => {
  const { app } = await dashboardApp();
  const initiator = await signedIn(app, 'initiator');
  const page = await initiator.post('/org/dashboard/projects/project/information/', { information: '' });
  assert.equal(page.status, 400);
  assert.match(page.text, /id="id_information_errors"[^>]*><li>This field is required./);
});

test('topics: at most two from the fixed list, checkboxes on the basic settings, shown on the project page and its tile in en and de', async () => {
  const world = dashboardWorld();
  const { app, db } = await dashboardApp({ ...world, projects: world.projects?.map((p) => (p.slug === 'project' ? { ...p, topics: ['TRA' as const] } : p)) });
  const initiator = await signedIn(app, 'initiator');
  const BASIC = '/org/dashboard/projects/draft-plan/basic/';
  const form = await initiator.get(BASIC);
  assert.match(form.text, /<legend>Topics<\/legend>/);
  assert.match(form.text, /name="topics" value="EDU"/);
  const base = { name: 'Draft plan', description: 'Not yet out', access: 'PUBLIC' };
  const tooMany = await initiator.post(BASIC, { ...base, topics: ['EDU', 'TRA', 'ENV'] });
  assert.equal(tooMany.status, 400);
  assert.match(tooMany.text, /id="id_topics_errors"[^>]*><li>Choose at most 2 topics.<\/li>/);
  assert.match(tooMany.text, /name="topics" value="ENV" checked/);
  const unknown = await initiator.post(BASIC, { ...base, topics: ['XYZ'] });
  assert.equal(unknown.status, 400);
  assert.match(unknown.text, /id="id_topics_errors"[^>]*><li>Select a valid choice.<\/li>/);
  const stored = async (slug: string) => (await db.select({ topics: projects.topics }).from(projects).where(eq(projects.slug, slug)))[0].topics;
  assert.deepEqual(await stored('draft-plan'), []);
  const saved = await initiator.post(BASIC, { ...base, topics: ['TRA', 'EDU'] });
  assert.equal(saved.location, `${BASIC}?done=saved`);
  assert.deepEqual(await stored('draft-plan'), ['EDU', 'TRA']);
  assert.match((await initiator.get(BASIC)).text, /name="topics" value="TRA" checked/);
  const page = await initiator.get('/org/projects/draft-plan/');
  assert.match(page.text, /<ul class="topics" aria-label="Topics"><li class="badge">Education &amp; research<\/li><li class="badge">Traffic<\/li><\/ul>/);
  assert.equal((await initiator.post(BASIC, base)).status, 302);
  assert.deepEqual(await stored('draft-plan'), [], 'no checkbox ticked clears the topics');
  const german = await new Browser(app, { 'accept-language': 'de' }).get('/org/projects/project/');
  assert.match(german.text, /<li class="badge">Verkehr<\/li>/);
  const tiles = await new Browser(app).get('/org/');
  assert.match(tiles.text, /<li class="tile">[\s\S]*?<ul class="topics" aria-label="Topics"><li class="badge">Traffic<\/li><\/ul>/, 'the tile on the organisation page');
  await assert.rejects(load(db, { projects: [{ id: 9, slug: 'bad', name: 'Bad', organisation: 1, topics: ['EDU', 'TRA', 'ENV'] }] } as Fixture));
});
