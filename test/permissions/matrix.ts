import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { eq } from 'drizzle-orm';
import { administrativeDistricts, comments, offlineEvents, projects } from '../../src/db/schema/index.js';
import { ideas } from '../../src/features/ideas/schema.js';
import { results } from '../../src/features/results/schema.js';
import { customFields } from '../../src/features/customfields/schema.js';
import { load, tokenHeader } from '../fixtures.js';
import { createTestApp } from '../helpers.js';
import { type Access, ACTORS, type Actor, matrixWorld, type Module, MODULES, type Project, PROJECTS, revokeRoles, seedCommentId, seedIdeaId, type SignedIn, USER_ID } from './world.js';

/*
 * The cross-organisation permission matrix: every actor × every resource × every action, asserted
 * through HTTP. The expectations below are written from the behaviour reference (platform-facts §4,
 * participation-facts §A5 and §A7), not by calling the production rules. The table is split over
 * two test files (reading, writing) only so that the test runner can run them side by side.
 */

// ---------------------------------------------------------------------------------------------
// Expectations
// ---------------------------------------------------------------------------------------------

const SIGNED_IN: readonly Actor[] = ACTORS.filter((a) => a !== 'anonymous');
/** Project moderators, initiators of the project's organisation, superusers: everything, everywhere, any time. */
const MODERATING: readonly Actor[] = ['moderator', 'initiator', 'superuser'];

/** Who sees a live (published or archived) project and its published modules. A draft project: MODERATING only. */
const SEES: Record<Access, readonly Actor[]> = {
  public: ACTORS,
  semipublic: ACTORS,
  private: ['participant', 'member', ...MODERATING],
};

/** Who takes part (adds, comments, rates) in a published project while the phase allows it. */
const TAKES_PART: Record<Access, readonly Actor[]> = {
  public: SIGNED_IN,
  semipublic: ['participant', 'member', ...MODERATING],
  private: ['participant', 'member', ...MODERATING],
};

const moderating = (a: Actor) => MODERATING.includes(a);
const seesProject = (a: Actor, p: Project) => (p.status === 'draft' ? moderating(a) : SEES[p.access].includes(a));
/** Draft modules: only MODERATING see them (finding F4). */
const seesModule = (a: Actor, m: Module) => seesProject(a, m.project) && (m.published || moderating(a));
/** Members of a published project take part in a published module while its phase runs. */
const takesPart = (a: Actor, m: Module) => m.project.status === 'published' && m.published && TAKES_PART[m.project.access].includes(a);
const writes = (a: Actor, m: Module) => moderating(a) || (takesPart(a, m) && m.phase === 'active');
/** Authors remove their own comment while they take part, whatever the phase; not once the project is archived. */
const removesOwn = (a: Actor, m: Module) => moderating(a) || takesPart(a, m);
/** The app's project list: public and semi-public, published, not archived (decision D1). */
const inAppProjects = (a: Actor, p: Project) => a !== 'anonymous' && p.access !== 'private' && p.status === 'published';

const PROJECT_EXPECTATIONS: Record<ProjectAction, (a: Actor, p: Project) => boolean> = {
  'list it in app-projects': inAppProjects,
  'read it via app-projects': inAppProjects,
  'read the project page': seesProject,
  follow: (a, p) => a !== 'anonymous' && seesProject(a, p),
  'list comments for moderation (API)': moderating,
  'open the moderation page': moderating,
  // Offline events (issue 34.1): seen as the project; managed in the dashboard by its organisation's initiators and superusers (a+ change_project).
  'read an offline event': seesProject,
  'open the offline events in the dashboard': (a) => a === 'initiator' || a === 'superuser',
  // Results (issue 39): seen as the project (a private project's results are private); edited by its moderators, initiators and superusers.
  'read a result': seesProject,
  'read the results through the app API': seesProject,
  'open the results dashboard': moderating,
  'open a result’s edit page': moderating,
  // A result's discussion (issue 39.3): no module and no phase; whoever takes part in the published project, and MODERATING always.
  'comment on a result': (a, p) => moderating(a) || (p.status === 'published' && TAKES_PART[p.access].includes(a)),
  // Machine summaries (issue 34.9): the published ones as the project; asked for and published in the dashboard by its initiators and superusers.
  'read the published summaries': seesProject,
  'open the summaries in the dashboard': (a) => a === 'initiator' || a === 'superuser',
  // Map presets and districts (issue 34.6): kept by the operator in the back-office (superusers only, whatever the project); a project's
  // district is chosen in its basic settings by its organisation's initiators and superusers (a+ change_project).
  'open the map presets and districts in the back-office': (a) => a === 'superuser',
  'open a district in the back-office': (a) => a === 'superuser',
  'choose the project’s district in the dashboard': (a) => a === 'initiator' || a === 'superuser',
  // Content pages, the start page and the footer (issue 34.7): the operator's, in the back-office (superusers only, whatever the project).
  'open the content pages in the back-office': (a) => a === 'superuser',
};

const MODULE_EXPECTATIONS: Record<ModuleAction, (a: Actor, m: Module) => boolean> = {
  'list it in app-modules': (a, m) => a !== 'anonymous' && m.published && seesProject(a, m.project),
  'read the module page': seesModule,
  'read ideas': seesModule,
  'read comments': seesModule,
  'read moderator feedback': seesModule,
  'create an idea': writes,
  'edit own idea': writes,
  'delete own idea': writes,
  'edit another’s idea': moderating,
  'delete another’s idea': moderating,
  comment: writes,
  reply: writes,
  'rate an idea': writes,
  report: (a, m) => a !== 'anonymous' && seesModule(a, m),
  'edit own comment': writes,
  'edit own blocked comment': (a) => a === 'superuser',
  'delete own comment': removesOwn,
  'moderate a comment': moderating,
  'give moderator feedback': moderating,
  // Moderator remarks (issue 34.2): only the moderating roles, never the author or the public, in every state.
  'read the moderator remark (API)': moderating,
  'keep a moderator remark (API)': moderating,
  'open the moderator remark’s page': moderating,
  // The module's words for category and label (issue 34.5): its Categories component, like every module component (initiators, superusers).
  'set the module’s words for category and label': (a) => a === 'initiator' || a === 'superuser',
  // Custom fields (issue 34.8): the questions are the module's dashboard (its organisation's initiators, superusers; changing them needs the
  // browser's form token: test/features/customfields/customfields.test.ts); answers go with an idea.
  'open the custom fields in the dashboard': (a) => a === 'initiator' || a === 'superuser',
  'create an idea with an answer': writes,
};

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

export type ProjectAction =
  | 'list it in app-projects'
  | 'read it via app-projects'
  | 'read the project page'
  | 'follow'
  | 'list comments for moderation (API)'
  | 'open the moderation page'
  | 'read an offline event'
  | 'open the offline events in the dashboard'
  | 'read a result'
  | 'read the results through the app API'
  | 'open the results dashboard'
  | 'open a result’s edit page'
  | 'comment on a result'
  | 'read the published summaries'
  | 'open the summaries in the dashboard'
  | 'open the map presets and districts in the back-office'
  | 'open a district in the back-office'
  | 'choose the project’s district in the dashboard'
  | 'open the content pages in the back-office';
export type ModuleAction =
  | 'list it in app-modules'
  | 'read the module page'
  | 'read ideas'
  | 'read comments'
  | 'read moderator feedback'
  | 'create an idea'
  | 'edit own idea'
  | 'delete own idea'
  | 'edit another’s idea'
  | 'delete another’s idea'
  | 'comment'
  | 'reply'
  | 'rate an idea'
  | 'report'
  | 'edit own comment'
  | 'edit own blocked comment'
  | 'delete own comment'
  | 'moderate a comment'
  | 'give moderator feedback'
  | 'read the moderator remark (API)'
  | 'keep a moderator remark (API)'
  | 'open the moderator remark’s page'
  | 'set the module’s words for category and label'
  | 'open the custom fields in the dashboard'
  | 'create an idea with an answer';

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  payload?: Record<string, unknown>;
  /** The status that means allowed. */
  ok: number;
  /** Statuses that mean denied (401 and 403 from the API, 302 to the login page or 404 from pages, 404 where existence is hidden). */
  denied?: number[];
}

const IDEA = 4;
const COMMENT = 8;
const RESULT = 18;
const API_DENIED = [401, 403, 404];
const PAGE_DENIED = [302, 403, 404];
const ideaComments = (ideaId: number, rest = '') => `/api/contenttypes/${IDEA}/objects/${ideaId}/comments/${rest}`;

/** Objects made for one actor in one module, so that every write cell has its own target. */
interface Own {
  idea: number;
  ideaToDelete: number;
  othersIdeaToDelete: number;
  comment: number;
  commentToDelete: number;
  blockedComment: number;
  commentForFeedback: number;
  /** The module's question (a text, not required). */
  question: number;
}

/** The result seeded in each project. */
const resultIdOf = (p: Project) => 5000 + p.id;
/** The district seeded for each project (and chosen as its district). */
const districtIdOf = (p: Project) => 6000 + p.id;

const PROJECT_CALLS: Record<Exclude<ProjectAction, 'list it in app-projects'>, (p: Project) => Call> = {
  'read it via app-projects': (p) => ({ method: 'GET', url: `/api/app-projects/${p.slug}/`, ok: 200 }),
  'read the project page': (p) => ({ method: 'GET', url: `/org/projects/${p.slug}/`, ok: 200, denied: PAGE_DENIED }),
  follow: (p) => ({ method: 'PUT', url: `/api/follows/${p.slug}/`, payload: { enabled: true }, ok: 200 }),
  'list comments for moderation (API)': (p) => ({ method: 'GET', url: `/api/userdashboard/moderation/${p.id}/comments/`, ok: 200 }),
  'open the moderation page': (p) => ({ method: 'GET', url: `/userdashboard/moderation/detail/${p.slug}/`, ok: 200, denied: PAGE_DENIED }),
  'read an offline event': (p) => ({ method: 'GET', url: `/org/offlineevents/event-${p.slug}/`, ok: 200, denied: PAGE_DENIED }),
  'open the offline events in the dashboard': (p) => ({ method: 'GET', url: `/org/dashboard/projects/${p.slug}/offlineevents/`, ok: 200, denied: PAGE_DENIED }),
  'read a result': (p) => ({ method: 'GET', url: `/org/results/${resultIdOf(p)}/`, ok: 200, denied: PAGE_DENIED }),
  'read the results through the app API': (p) => ({ method: 'GET', url: `/api/projects/${p.id}/results/`, ok: 200 }),
  'open the results dashboard': (p) => ({ method: 'GET', url: `/org/results/project/${p.slug}/`, ok: 200, denied: PAGE_DENIED }),
  'open a result’s edit page': (p) => ({ method: 'GET', url: `/org/results/${resultIdOf(p)}/update/`, ok: 200, denied: PAGE_DENIED }),
  'comment on a result': (p) => ({ method: 'POST', url: `/api/contenttypes/${RESULT}/objects/${resultIdOf(p)}/comments/`, payload: { comment: 'What about the benches?' }, ok: 201 }),
  'read the published summaries': (p) => ({ method: 'GET', url: `/org/projects/${p.slug}/summary/`, ok: 200, denied: PAGE_DENIED }),
  'open the summaries in the dashboard': (p) => ({ method: 'GET', url: `/org/dashboard/projects/${p.slug}/summary/`, ok: 200, denied: PAGE_DENIED }),
  'open the map presets and districts in the back-office': () => ({ method: 'GET', url: '/backoffice/maps/', ok: 200, denied: PAGE_DENIED }),
  'open a district in the back-office': (p) => ({ method: 'GET', url: `/backoffice/maps/districts/${districtIdOf(p)}/`, ok: 200, denied: PAGE_DENIED }),
  'choose the project’s district in the dashboard': (p) => ({ method: 'GET', url: `/org/dashboard/projects/${p.slug}/basic/`, ok: 200, denied: PAGE_DENIED }),
  'open the content pages in the back-office': () => ({ method: 'GET', url: '/backoffice/content/', ok: 200, denied: PAGE_DENIED }),
};

const MODULE_CALLS: Record<Exclude<ModuleAction, 'list it in app-modules'>, (m: Module, own: Own) => Call> = {
  'read the module page': (m) => ({ method: 'GET', url: `/org/projects/module/${m.slug}/`, ok: 200, denied: PAGE_DENIED }),
  'read ideas': (m) => ({ method: 'GET', url: `/api/modules/${m.id}/ideas/`, ok: 200 }),
  'read comments': (m) => ({ method: 'GET', url: ideaComments(seedIdeaId(m)), ok: 200 }),
  'read moderator feedback': (m) => ({ method: 'GET', url: `/api/comments/${seedCommentId(m)}/moderatorfeedback/`, ok: 200 }),
  'create an idea': (m) => ({ method: 'POST', url: `/api/modules/${m.id}/ideas/`, payload: { name: 'New idea', description: 'text' }, ok: 201 }),
  'edit own idea': (m, own) => ({ method: 'PATCH', url: `/api/modules/${m.id}/ideas/${own.idea}/`, payload: { name: 'Edited' }, ok: 200 }),
  'delete own idea': (m, own) => ({ method: 'DELETE', url: `/api/modules/${m.id}/ideas/${own.ideaToDelete}/`, ok: 204 }),
  'edit another’s idea': (m) => ({ method: 'PATCH', url: `/api/modules/${m.id}/ideas/${seedIdeaId(m)}/`, payload: { name: 'Taken over' }, ok: 200 }),
  'delete another’s idea': (m, own) => ({ method: 'DELETE', url: `/api/modules/${m.id}/ideas/${own.othersIdeaToDelete}/`, ok: 204 }),
  comment: (m) => ({ method: 'POST', url: ideaComments(seedIdeaId(m)), payload: { comment: 'A new comment' }, ok: 201 }),
  reply: (m) => ({ method: 'POST', url: `/api/contenttypes/${COMMENT}/objects/${seedCommentId(m)}/comments/`, payload: { comment: 'A reply' }, ok: 201 }),
  'rate an idea': (m) => ({ method: 'POST', url: `/api/contenttypes/${IDEA}/objects/${seedIdeaId(m)}/ratings/`, payload: { value: 1 }, ok: 201 }),
  report: (m) => ({ method: 'POST', url: '/api/reports/', payload: { content_type: IDEA, object_pk: seedIdeaId(m), description: 'Spam' }, ok: 201, denied: [400, 401] }),
  'edit own comment': (m, own) => ({ method: 'PATCH', url: ideaComments(seedIdeaId(m), `${own.comment}/`), payload: { comment: 'Edited' }, ok: 200 }),
  'edit own blocked comment': (m, own) => ({ method: 'PATCH', url: ideaComments(seedIdeaId(m), `${own.blockedComment}/`), payload: { comment: 'Edited' }, ok: 200 }),
  'delete own comment': (m, own) => ({ method: 'DELETE', url: ideaComments(seedIdeaId(m), `${own.commentToDelete}/`), ok: 200 }),
  'moderate a comment': (m) => ({ method: 'POST', url: `/api/userdashboard/moderation/${m.project.id}/comments/${seedCommentId(m)}/mark_read/`, ok: 200 }),
  'give moderator feedback': (m, own) => ({ method: 'POST', url: `/api/comments/${own.commentForFeedback}/moderatorfeedback/`, payload: { feedback_text: 'Thanks' }, ok: 201 }),
  'read the moderator remark (API)': (m) => ({ method: 'GET', url: `/api/contenttypes/${IDEA}/objects/${seedIdeaId(m)}/moderatorremarks/`, ok: 200 }),
  'keep a moderator remark (API)': (m) => ({ method: 'POST', url: `/api/contenttypes/${IDEA}/objects/${seedIdeaId(m)}/moderatorremarks/`, payload: { remark: 'Internal' }, ok: 201 }),
  'open the moderator remark’s page': (m) => ({ method: 'GET', url: `/moderatorremarks/${IDEA}/${seedIdeaId(m)}/`, ok: 200, denied: PAGE_DENIED }),
  'set the module’s words for category and label': (m) => ({ method: 'GET', url: `/org/dashboard/modules/${m.slug}/categories/`, ok: 200, denied: PAGE_DENIED }),
  'open the custom fields in the dashboard': (m) => ({ method: 'GET', url: `/org/dashboard/modules/${m.slug}/custom_fields/`, ok: 200, denied: PAGE_DENIED }),
  'create an idea with an answer': (m, own) => ({ method: 'POST', url: `/api/modules/${m.id}/ideas/`, payload: { name: 'Answered', description: 'text', [`custom_${own.question}`]: 'Main street' }, ok: 201 }),
};

/** Runs `work` over `items` with a few requests in flight (PostgreSQL answers them in parallel). */
async function inParallel<T>(items: T[], work: (item: T) => Promise<void>, width = 4): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/** Every action of the table, for the two test files to split. */
export const PROJECT_ACTIONS = Object.keys(PROJECT_EXPECTATIONS) as ProjectAction[];
export const MODULE_ACTIONS = Object.keys(MODULE_EXPECTATIONS) as ModuleAction[];

/** Builds the world once and asserts every cell of the given actions (each action a subtest listing its wrong cells). */
export async function runMatrix(t: TestContext, only: { project: ProjectAction[]; module: ModuleAction[] }): Promise<void> {
  // Every actor reports in every module: far more than a person's report limit allows.
  const { db, request } = await createTestApp({ reportLimit: 10_000 });
  await load(db, matrixWorld());
  await revokeRoles(db);
  const headers = new Map<Actor, Record<string, string>>([['anonymous', {}]]);
  for (const actor of SIGNED_IN) headers.set(actor, await tokenHeader(db, USER_ID[actor as SignedIn]));

  // One statement per kind of object: each signed-in actor's own ideas and comments in every module.
  const pairs = SIGNED_IN.flatMap((actor) => MODULES.map((module) => ({ actor, module })));
  const ideaRows = (creator: (actor: Actor) => number, name: string) =>
    pairs.map(({ actor, module }) => ({ moduleId: module.id, creatorId: creator(actor), name, description: 'text' }));
  const commentRows = (isBlocked: boolean) =>
    pairs.map(({ actor, module }) => ({
      creatorId: USER_ID[actor as SignedIn],
      contentType: 'idea' as const,
      objectPk: seedIdeaId(module),
      comment: 'Mine',
      isBlocked,
      projectId: module.project.id,
    }));
  const ids = async (rows: Promise<{ id: number }[]>) => (await rows).map((r) => r.id);
  const ownId = (actor: Actor) => USER_ID[actor as SignedIn];
  const authorId = () => USER_ID.author;
  const made = {
    idea: await ids(db.insert(ideas).values(ideaRows(ownId, 'Mine')).returning({ id: ideas.id })),
    ideaToDelete: await ids(db.insert(ideas).values(ideaRows(ownId, 'Mine to delete')).returning({ id: ideas.id })),
    othersIdeaToDelete: await ids(db.insert(ideas).values(ideaRows(authorId, 'Theirs')).returning({ id: ideas.id })),
    comment: await ids(db.insert(comments).values(commentRows(false)).returning({ id: comments.id })),
    commentToDelete: await ids(db.insert(comments).values(commentRows(false)).returning({ id: comments.id })),
    blockedComment: await ids(db.insert(comments).values(commentRows(true)).returning({ id: comments.id })),
    commentForFeedback: await ids(db.insert(comments).values(commentRows(false)).returning({ id: comments.id })),
  };
  // A question in every module (issue 34.8).
  const questions = await db.insert(customFields).values(MODULES.map((m) => ({ moduleId: m.id, label: 'Your street', kind: 'text' as const }))).returning({ id: customFields.id, moduleId: customFields.moduleId });
  const questionOf = new Map(questions.map((q) => [q.moduleId, q.id]));
  // An offline event in every project (issue 34.1).
  await db.insert(offlineEvents).values(PROJECTS.map((p) => ({ projectId: p.id, slug: `event-${p.slug}`, name: 'Event', eventType: 'Meeting', date: new Date(Date.UTC(2030, 0, 1)), description: '<p>At the town hall.</p>' })));
  // A district for every project, chosen as its district (issue 34.6).
  await db.insert(administrativeDistricts).values(PROJECTS.map((p) => ({ id: districtIdOf(p), name: `District ${p.slug}` })));
  for (const p of PROJECTS) await db.update(projects).set({ administrativeDistrictId: districtIdOf(p) }).where(eq(projects.id, p.id));
  // A result in every project (issue 39).
  await db.insert(results).values(PROJECTS.map((p) => ({ id: resultIdOf(p), projectId: p.id, title: 'Result' })));
  const ownObjects = new Map<string, Own>();
  pairs.forEach(({ actor, module }, i) => ownObjects.set(`${actor}:${module.id}`, { ...Object.fromEntries(Object.entries(made).map(([k, v]) => [k, v[i]])), question: questionOf.get(module.id) } as unknown as Own));
  // The anonymous actor has nothing of its own: it tries the participant's objects.
  const ownOf = (actor: Actor, module: Module) => ownObjects.get(`${actor === 'anonymous' ? 'participant' : actor}:${module.id}`) as Own;

  let wrong: string[] = [];
  let cells = 0;
  /** Asserts the cells one subtest collected, listing every wrong one. */
  const noWrongCells = () => {
    const found = wrong;
    wrong = [];
    assert.deepEqual(found, [], `${found.length} wrong cells:\n${found.join('\n')}`);
  };
  const check = (action: string, actor: Actor, resource: string, expected: boolean, status: number, call: Call | null, text: string) => {
    cells++;
    const denied = call?.denied ?? API_DENIED;
    const got = call === null ? status === 1 : status === call.ok ? true : denied.includes(status) ? false : null;
    if (got !== expected) wrong.push(`${action} | ${actor} | ${resource}: expected ${expected ? 'allowed' : 'denied'}, got ${call ? status : got ? 'listed' : 'not listed'} ${text.slice(0, 160)}`);
  };
  const send = async (actor: Actor, call: Call) => request({ method: call.method, url: call.url, headers: headers.get(actor), payload: call.payload });

  const listings = only.project.includes('list it in app-projects') || only.module.includes('list it in app-modules');
  if (listings) await t.test('listings: app-projects and app-modules show exactly what each actor may see', async () => {
    for (const actor of ACTORS) {
      const projects = await request({ method: 'GET', url: '/api/app-projects/', headers: headers.get(actor) });
      const modules = await request({ method: 'GET', url: '/api/app-modules/', headers: headers.get(actor) });
      assert.equal(projects.status, actor === 'anonymous' ? 401 : 200, projects.text);
      assert.equal(modules.status, actor === 'anonymous' ? 401 : 200, modules.text);
      const listedProjects = new Set(actor === 'anonymous' ? [] : (projects.body as { slug: string }[]).map((p) => p.slug));
      const listedModules = new Set(actor === 'anonymous' ? [] : (modules.body as { pk: number }[]).map((m) => m.pk));
      if (only.project.includes('list it in app-projects')) for (const p of PROJECTS) check('list it in app-projects', actor, p.slug, PROJECT_EXPECTATIONS['list it in app-projects'](actor, p), listedProjects.has(p.slug) ? 1 : 0, null, '');
      if (only.module.includes('list it in app-modules')) for (const m of MODULES) check('list it in app-modules', actor, m.slug, MODULE_EXPECTATIONS['list it in app-modules'](actor, m), listedModules.has(m.id) ? 1 : 0, null, '');
    }
    noWrongCells();
  });

  for (const [action, call] of (Object.entries(PROJECT_CALLS) as [Exclude<ProjectAction, 'list it in app-projects'>, (p: Project) => Call][]).filter(([a]) => only.project.includes(a))) {
    await t.test(`project: ${action}`, async () => {
      const cases = ACTORS.flatMap((actor) => PROJECTS.map((project) => ({ actor, project })));
      await inParallel(cases, async ({ actor, project }) => {
        const c = call(project);
        const response = await send(actor, c);
        check(action, actor, project.slug, PROJECT_EXPECTATIONS[action](actor, project), response.status, c, response.text);
      });
      noWrongCells();
    });
  }

  for (const [action, call] of (Object.entries(MODULE_CALLS) as [Exclude<ModuleAction, 'list it in app-modules'>, (m: Module, own: Own) => Call][]).filter(([a]) => only.module.includes(a))) {
    await t.test(`module: ${action}`, async () => {
      const cases = ACTORS.flatMap((actor) => MODULES.map((module) => ({ actor, module })));
      await inParallel(cases, async ({ actor, module }) => {
        const c = call(module, ownOf(actor, module));
        const response = await send(actor, c);
        check(action, actor, module.slug, MODULE_EXPECTATIONS[action](actor, module), response.status, c, response.text);
      });
      noWrongCells();
    });
  }

  await t.test('every cell was asserted: no cell skipped', () => {
    const projectCells = only.project.length * ACTORS.length * PROJECTS.length;
    const moduleCells = only.module.length * ACTORS.length * MODULES.length;
    assert.equal(cells, projectCells + moduleCells);
  });
}

/** The matrix runs as two test files (so that the runner can run them side by side): idea writes, and everything else. */
export const IDEA_WRITES: ModuleAction[] = ['create an idea', 'create an idea with an answer', 'open the custom fields in the dashboard', 'edit own idea', 'delete own idea', 'edit another’s idea', 'delete another’s idea'];
