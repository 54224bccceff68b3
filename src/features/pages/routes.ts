import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { notFound, permissionDenied } from '../../http/errors.js';
import { renderContext } from '../../http/render.js';
import { t } from '../../i18n/index.js';
import { stripTags } from '../../text/html.js';
import { type PageContext, pageContext } from '../../web/context.js';
import { checkCsrf, field, FormBody, pageRoute } from '../../web/forms.js';
import { pagerLinks, pastTheEnd } from '../../web/pager.js';
import { loginRedirectUrl, sendPage } from '../../web/render.js';
import { extrasFor } from '../comments/routes.js';
import { loadThreadPage, loadThreads, type ObjectRef } from '../comments/queries.js';
import { canAddComment } from '../comments/rules.js';
import { serializeComment } from '../comments/serialize.js';
import { createComment } from '../comments/services.js';
import { byParticipation } from '../dashboard/rules.js';
import { listedProjects } from '../dashboard/queries.js';
import { setFollow } from '../follows/services.js';
import { loadIdeaModule, loadIdeas } from '../ideas/queries.js';
import { canViewIdeas } from '../ideas/rules.js';
import { moduleSpan } from '../modules/timeline.js';
import { loadProjectContext, loadProjectContexts } from '../projects/queries.js';
import { canModerate, canView } from '../projects/rules.js';
import { participationTimeDisplay } from '../projects/serialize.js';
import { commentPath, ideaPath, ideaReferenceNumber, projectPath } from '../urls.js';
import { CommentThread, HomePage, IdeaPage, ModulePage, OrganisationPage, ProjectPage } from './pages.js';
import { ideaPage, isFollowing, loadIdeaRef, loadModulePage, loadOrganisation, loadProjectModules, loadProjectPage, moduleItems, newestIdeas } from './queries.js';

/** How many ideas per module the project page shows; the module page pages through all of them. */
export const PROJECT_IDEAS = 5;
export const MODULE_PAGE_SIZE = 20;
/** The idea page shows the whole thread (so that every `?comment=` link lands). */
const THREAD_LIMIT = 10000;

const Slug = Type.String({ minLength: 1, maxLength: 512, pattern: '^[-\\w]+$' });
const OrgParams = Type.Object({ org: Slug });
const ProjectParams = Type.Object({ org: Slug, slug: Slug });
const IdeaParams = Type.Object({ org: Slug, ref: Type.String({ pattern: '^\\d{4}-\\d{1,10}$' }) });
const PageQuery = Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000000 })), comment: Type.Optional(Type.String({ maxLength: 20 })) });
const IdeaQuery = Type.Object({ comment: Type.Optional(Type.String({ maxLength: 20 })) });

const contextUser = (page: PageContext) => (page.user ? { id: page.user.id, isSuperuser: page.user.isSuperuser } : null);

export async function publicPageRoutes(app: FastifyInstance): Promise<void> {
  const { db, config } = app.ctx;

  app.get('/', pageRoute(), async (request, reply) => {
    const page = await pageContext(request, reply);
    const now = new Date();
    const projects = byParticipation(await listedProjects(db, { publicOnly: true }), now);
    return sendPage(reply, HomePage({ page, projects, now }));
  });

  app.get('/:org/', pageRoute({ params: OrgParams }), async (request, reply) => {
    const { org } = request.params as { org: string };
    const page = await pageContext(request, reply);
    const organisation = await loadOrganisation(db, org);
    if (!organisation) throw notFound();
    const now = new Date();
    const listed = await listedProjects(db, { organisationId: organisation.id });
    const contexts = await loadProjectContexts(db, listed.map((p) => p.id), contextUser(page));
    const visible = listed.filter((p) => {
      const context = contexts.get(p.id);
      return context !== undefined && canView(context);
    });
    return sendPage(reply, OrganisationPage({ page, organisation, projects: byParticipation(visible, now), now }));
  });

  /** A project its viewer may see, with the viewer's context; 404 otherwise (private and draft projects stay hidden). */
  async function visibleProject(page: PageContext, params: { org: string; slug: string }) {
    const project = await loadProjectPage(db, params.org, params.slug);
    const context = project && (await loadProjectContext(db, project.id, contextUser(page)));
    if (!project || !context || !canView(context)) throw notFound();
    return { project, context };
  }

  app.get('/:org/projects/:slug/', pageRoute({ params: ProjectParams }), async (request, reply) => {
    const page = await pageContext(request, reply);
    const { project } = await visibleProject(page, request.params as { org: string; slug: string });
    const now = new Date();
    const modules = await loadProjectModules(db, project.id, false);
    const spans = modules.map((m) => ({ id: m.id, blueprintType: m.blueprintType, span: moduleSpan(m.phases) }));
    const data = {
      project,
      timeDisplay: participationTimeDisplay(spans, { lang: page.lang, timeZone: page.timeZone, now }),
      modules,
      ideas: await newestIdeas(db, modules.map((m) => m.id), PROJECT_IDEAS),
      following: page.user ? await isFollowing(db, page.user.id, project.id) : false,
      now,
    };
    return sendPage(reply, ProjectPage({ page, data }));
  });

  app.post('/:org/projects/:slug/follow/', pageRoute({ params: ProjectParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const params = request.params as { org: string; slug: string };
    const page = await pageContext(request, reply);
    if (!page.user) return reply.redirect(loginRedirectUrl(projectPath(params.org, params.slug)), 302);
    const { project } = await visibleProject(page, params);
    const enabled = field(request.body as FormBody, 'follow') !== 'false';
    const userId = page.user.id;
    await db.transaction((tx) => setFollow(tx, userId, project.id, enabled));
    return reply.redirect(projectPath(project.organisationSlug, project.slug), 302);
  });

  app.get('/:org/projects/module/:slug/', pageRoute({ params: ProjectParams, querystring: PageQuery }), async (request, reply) => {
    const params = request.params as { org: string; slug: string };
    const number = (request.query as { page?: number }).page ?? 1;
    const page = await pageContext(request, reply);
    const module = await loadModulePage(db, params.org, params.slug);
    const context = module && (await loadProjectContext(db, module.projectId, contextUser(page)));
    if (!module || !context || !canView(context) || (module.isDraft && !canModerate(context))) throw notFound();
    const ideas = await ideaPage(db, module.id, number, MODULE_PAGE_SIZE);
    if (pastTheEnd(number, MODULE_PAGE_SIZE, ideas.count)) throw notFound();
    const items = await moduleItems(db, module.id);
    const data = {
      orgSlug: params.org,
      organisationName: module.organisationName,
      module,
      ideas: ideas.ideas,
      pager: pagerLinks(request.url.split('?')[0], number, MODULE_PAGE_SIZE, ideas.count),
      ...items,
      threads: await itemThreads(request, page, module.projectId, items),
      selected: Number((request.query as { comment?: string }).comment ?? '') || null,
      now: new Date(),
    };
    return sendPage(reply, ModulePage({ page, data }));
  });

  /** The serialised comment threads of a module's polls, chapters and paragraphs, by "<kind>:<id>". */
  async function itemThreads(request: FastifyRequest, page: PageContext, projectId: number, items: Awaited<ReturnType<typeof moduleItems>>) {
    const refs: ObjectRef[] = [
      ...items.polls.map((p) => ({ type: 'poll' as const, id: p.id })),
      ...items.chapters.flatMap((c) => [{ type: 'chapter' as const, id: c.id }, ...c.paragraphs.map((p) => ({ type: 'paragraph' as const, id: p.id }))]),
    ];
    const threads = await loadThreads(db, refs);
    const extras = await extrasFor(db, [...threads.comments.values()].flat(), threads.replies, projectId, page.user?.id ?? null);
    const ctx = renderContext(request, page.user, config);
    return new Map([...threads.comments].map(([k, rows]) => [k, rows.map((row) => serializeComment(row, extras, ctx))]));
  }

  /** An idea its viewer may see, from `/<org>/ideas/<yyyy>-<pk>/`; 404 for a wrong year, organisation or visibility. */
  async function visibleIdea(page: PageContext, params: { org: string; ref: string }) {
    const [year, pk] = params.ref.split('-').map(Number);
    if (!(pk >= 1 && pk <= 2147483647)) throw notFound();
    const ref = await loadIdeaRef(db, params.org, pk);
    if (!ref || ideaReferenceNumber(ref.created, ref.id) !== `${year}-${String(pk).padStart(5, '0')}`) throw notFound();
    const target = await loadIdeaModule(db, ref.moduleId, contextUser(page));
    if (!target || !canViewIdeas(target.rules) || (ref.moduleIsDraft && !canModerate(target.rules.project))) throw notFound();
    const [idea] = await loadIdeas(db, { moduleId: ref.moduleId, ideaId: ref.id }, page.user?.id ?? null);
    if (!idea) throw notFound();
    const commenting = { project: target.rules.project, phases: target.module.phases, root: { type: 'idea' as const } };
    return { ref, idea, target, mayComment: page.user !== null && canAddComment(commenting, new Date()) };
  }

  async function sendIdeaPage(request: FastifyRequest, reply: FastifyReply, page: PageContext, loaded: Awaited<ReturnType<typeof visibleIdea>>, form = { value: '', errors: [] as string[] }, status = 200) {
    const { ref, idea, target, mayComment } = loaded;
    const params = request.params as { org: string };
    const thread = await loadThreadPage(db, { type: 'idea', id: idea.id }, 1, THREAD_LIMIT);
    const extras = await extrasFor(db, thread.comments, thread.replies, target.module.projectId, page.user?.id ?? null);
    const ctx = renderContext(request, page.user, config);
    const comments = thread.comments.map((row) => serializeComment(row, extras, ctx));
    const selected = Number((request.query as { comment?: string }).comment ?? '') || null;
    const path = ideaPath(params.org, idea.created, idea.id);
    const threadView = CommentThread({ page, comments, commentCount: thread.commentCount, selected, form: mayComment ? { action: path, ...form } : null });
    const data = {
      orgSlug: params.org,
      organisationName: ref.organisationName,
      projectSlug: ref.projectSlug,
      projectName: ref.projectName,
      moduleSlug: ref.moduleSlug,
      moduleName: ref.moduleName,
      idea,
      moderatorStatus: ref.moderatorStatus,
      moderatorFeedback: ref.moderatorFeedbackText,
      thread: threadView,
    };
    return sendPage(reply, IdeaPage({ page, data }), status);
  }

  app.get('/:org/ideas/:ref/', pageRoute({ params: IdeaParams, querystring: IdeaQuery }), async (request, reply) => {
    const page = await pageContext(request, reply);
    return sendIdeaPage(request, reply, page, await visibleIdea(page, request.params as { org: string; ref: string }));
  });

  /** A comment from the idea page's form: the API's rules and service. */
  app.post('/:org/ideas/:ref/', pageRoute({ params: IdeaParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await pageContext(request, reply);
    if (!page.user) return reply.redirect(loginRedirectUrl(request.url), 302);
    const loaded = await visibleIdea(page, request.params as { org: string; ref: string });
    if (!loaded.mayComment) throw permissionDenied();
    const text = field(request.body as FormBody, 'comment', false);
    if (!stripTags(text).trim()) return sendIdeaPage(request, reply, page, loaded, { value: text, errors: [t(page.lang, 'This field is required.')] }, 400);
    if (text.length > 4000) return sendIdeaPage(request, reply, page, loaded, { value: text, errors: [t(page.lang, 'Ensure this field has no more than 4000 characters.')] }, 400);
    const creatorId = page.user.id;
    const origin = renderContext(request, page.user, config).origin;
    const created = await db.transaction((tx) => createComment(tx, { creatorId, target: { type: 'idea', id: loaded.idea.id }, comment: text }, { origin }));
    const path = ideaPath((request.params as { org: string }).org, loaded.idea.created, loaded.idea.id);
    return reply.redirect(`${commentPath(path, created.id)}#comment-${created.id}`, 302);
  });
}
