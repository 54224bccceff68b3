import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Slug } from '../../http/responses.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { readMultipartFiles } from '../../http/bodies.js';
import { loadProjectInsights } from '../../core/insights/queries.js';
import { checkCsrf, FormBody, pageRoute, RepeatedFormBody } from '../../web/forms.js';
import { checkPageInRange, pageLinks, PageParam, pageNumber } from '../../http/pagination.js';
import { sendPage } from '../../web/render.js';
import { managedOrganisation } from '../../web/guards.js';
import { frameData, managedProject } from './access.js';
import { manageResultsPath } from '../../features/results/queries.js';
import { listDistricts } from '../../features/places/queries.js';
import { ProjectComponentPage } from './component-views.js';
import type { PublishCheck } from './completeness.js';
import { ingestProjectImages, projectImageChange, writeProjectImages } from './images.js';
import { PROJECT_IMAGES, type ProjectForm, projectFormValues, projectImageErrors, projectPatch, readProjectForm } from './input.js';
import { memberDashboardRoutes } from './member-pages.js';
import { moduleDashboardRoutes } from './module-pages.js';
import { offlineEventDashboardRoutes } from './offlineevent-pages.js';
import { summaryDashboardRoutes } from './summary-pages.js';
import { DeleteProjectPage, ProjectCreatePage, ProjectListPage, UnpublishConfirmPage } from './views.js';
import { doneMessage, projectComponentPath, projectListPath, withDone } from '../../web/paths.js';
import { type ArchivedFilter, dashboardProjects, loadModules } from './queries.js';
import { unpublishNeedsConfirmation } from './rules.js';
import { createProject, deleteProject, duplicateProject, publishProject, setProjectState, updateProject } from './services.js';

const DASHBOARD_PAGE_SIZE = 12;

declare module 'fastify' {
  interface FastifyRequest {
    /** The header and tile image uploads of the basic settings (multipart). */
    projectImages: Record<string, Buffer> | null;
  }
}

const OrgParams = Type.Object({ org: Slug });
const ProjectParams = Type.Object({ org: Slug, slug: Slug });
const ComponentParams = Type.Object({ org: Slug, slug: Slug, component: Type.Union([Type.Literal('basic'), Type.Literal('information'), Type.Literal('result'), Type.Literal('location')]) });
const ListQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 200 })),
  is_archived: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('no'), Type.Literal('yes')])),
  page: PageParam,
  done: Type.Optional(Type.String({ maxLength: 40 })),
});
const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });
const StateBody = Type.Object({
  csrfmiddlewaretoken: Type.Optional(Type.String()),
  action: Type.Union([Type.Literal('publish'), Type.Literal('unpublish'), Type.Literal('archive'), Type.Literal('unarchive')]),
  /** Unpublishing a running project: sent by the confirmation page. */
  confirmed: Type.Optional(Type.Literal('yes')),
});

export async function projectDashboardRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;
  const { media } = app.ctx;
  await fastify.register(moduleDashboardRoutes);
  await fastify.register(memberDashboardRoutes);
  await fastify.register(offlineEventDashboardRoutes);
  await fastify.register(summaryDashboardRoutes);

  /** The Result page shows the project's statistics (§B10.3, §B17.3). */
  const resultInsights = async (form: string, projectId: number) => (form === 'result' ? loadProjectInsights(db, projectId) : undefined);

  app.get('/:org/dashboard/projects/', pageRoute({ params: OrgParams, querystring: ListQuery }), async (request, reply) => {
    const managed = await managedOrganisation(request, reply, request.params.org);
    if (!managed) return reply;
    const { organisation, page } = managed;
    const search = (request.query.search ?? '').trim();
    const archived: ArchivedFilter = request.query.is_archived ?? 'no';
    const number = pageNumber(request.query.page);
    const list = await dashboardProjects(db, organisation.id, { search, archived, page: number, size: DASHBOARD_PAGE_SIZE });
    checkPageInRange(number, DASHBOARD_PAGE_SIZE, list.count);
    const query = new URLSearchParams({ ...(search ? { search } : {}), is_archived: archived }).toString();
    const pager = pageLinks(`${projectListPath(organisation.slug)}?${query}`, number, DASHBOARD_PAGE_SIZE, list.count);
    const data = { organisation, ...list, search, archived, pager, done: doneMessage(request.query.done) };
    return sendPage(reply, ProjectListPage({ page, data }));
  });

  app.get('/:org/dashboard/projects/create/', pageRoute({ params: OrgParams }), async (request, reply) => {
    const managed = await managedOrganisation(request, reply, request.params.org);
    if (!managed) return reply;
    return sendPage(reply, ProjectCreatePage({ page: managed.page, organisation: managed.organisation, values: { access: 'PUBLIC' }, errors: {} }));
  });

  app.post('/:org/dashboard/projects/create/', pageRoute({ params: OrgParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const managed = await managedOrganisation(request, reply, request.params.org);
    if (!managed) return reply;
    const { page, organisation, actor } = managed;
    const { values, errors } = readProjectForm('create', request.body, false, page.lang);
    if (Object.keys(errors).length) return sendPage(reply, ProjectCreatePage({ page, organisation, values, errors }), 400);
    const patch = projectPatch('create', values) as { name: string; description: string; access: 'PUBLIC' };
    const created = await db.transaction((tx) => createProject(tx, organisation, patch, actor));
    return reply.redirect(withDone(projectComponentPath(organisation.slug, created.slug, 'basic'), 'created'), 302);
  });

  app.get('/:org/dashboard/projects/:slug/', pageRoute({ params: ProjectParams }), async (request, reply) => {
    const managed = await managedProject(request, reply, request.params);
    if (!managed) return reply;
    return reply.redirect(projectComponentPath(managed.organisation.slug, managed.project.slug, 'basic'), 302);
  });

  // The project's results are managed on their own pages (features/results), which its moderators reach too.
  app.get('/:org/dashboard/projects/:slug/results/', pageRoute({ params: ProjectParams }), async (request, reply) => {
    const managed = await managedProject(request, reply, request.params);
    if (!managed) return reply;
    return reply.redirect(manageResultsPath(managed.organisation.slug, managed.project.slug), 302);
  });

  app.get('/:org/dashboard/projects/:slug/:component/', pageRoute({ params: ComponentParams, querystring: DoneQuery }), async (request, reply) => {
    const managed = await managedProject(request, reply, request.params);
    if (!managed) return reply;
    const { component } = request.params;
    const data = await frameData(request, managed.project, component);
    const insights = await resultInsights(component, managed.project.id);
    return sendPage(reply, ProjectComponentPage({ page: managed.page, data, form: component, values: projectFormValues(managed.project), errors: {}, insights }));
  });

  app.decorateRequest('projectImages', null);
  /** The basic settings come as multipart (with the header and tile images): the files wait on the request. */
  async function readImages(request: FastifyRequest) {
    if (request.isMultipart()) request.projectImages = await readMultipartFiles(request, Object.keys(PROJECT_IMAGES));
  }

  app.post('/:org/dashboard/projects/:slug/:component/', { ...pageRoute({ params: ComponentParams, body: RepeatedFormBody }), preValidation: readImages }, async (request, reply) => {
    checkCsrf(request);
    const managed = await managedProject(request, reply, request.params);
    if (!managed) return reply;
    const { page, project } = managed;
    const form: Exclude<ProjectForm, 'create'> = request.params.component;
    const uploads = form === 'basic' ? (request.projectImages ?? {}) : {};
    const districtIds = form === 'basic' ? (await listDistricts(db)).map((d) => String(d.id)) : [];
    const { values, errors } = readProjectForm(form, request.body, !project.isDraft, page.lang, districtIds);
    let images: Awaited<ReturnType<typeof ingestProjectImages>>['images'] = {};
    if (form === 'basic') {
      // An upload wins over "remove".
      if (uploads.image) values.image_clear = '';
      if (uploads.tile_image) values.tile_image_clear = '';
      const present = { image: Boolean(uploads.image || (project.image && !values.image_clear)), tile_image: Boolean(uploads.tile_image || (project.tileImage && !values.tile_image_clear)) };
      const ingested = await ingestProjectImages(uploads, page.lang);
      Object.assign(errors, projectImageErrors(values, present, page.lang), ingested.errors);
      images = ingested.images;
    }
    if (Object.keys(errors).length) {
      const data = await frameData(request, project, form);
      const insights = await resultInsights(form, project.id);
      return sendPage(reply, ProjectComponentPage({ page, data, form, values: { ...projectFormValues(project), ...values }, errors, insights }), 400);
    }
    const written = await writeProjectImages(media, images);
    const change = projectImageChange(project, written, values);
    try {
      await db.transaction((tx) => updateProject(tx, project.id, { ...projectPatch(form, values), ...(form === 'basic' ? change.patch : {}) }));
    } catch (error) {
      await media.remove(...Object.values(written));
      throw error;
    }
    if (form === 'basic') await media.remove(...change.obsolete);
    return reply.redirect(withDone(projectComponentPath(project.organisationSlug, project.slug, form), 'saved'), 302);
  });

  /** §B15: publish (refused with every missing field listed), unpublish, archive, unarchive. */
  app.post('/:org/dashboard/projects/:slug/publish/', pageRoute({ params: ProjectParams, body: StateBody }), async (request, reply) => {
    checkCsrf(request);
    const managed = await managedProject(request, reply, request.params);
    if (!managed) return reply;
    const { page, project } = managed;
    const { action } = request.body;
    const back = projectComponentPath(project.organisationSlug, project.slug, 'basic');
    if (action === 'publish') {
      const check: PublishCheck = await db.transaction((tx) => publishProject(tx, project.id));
      if (check.ok) return reply.redirect(withDone(back, 'published'), 302);
      const data = await frameData(request, project, 'basic', { refused: check, done: null });
      return sendPage(reply, ProjectComponentPage({ page, data, form: 'basic', values: projectFormValues(project), errors: {} }), 400);
    }
    if (action === 'unpublish' && request.body.confirmed !== 'yes' && unpublishNeedsConfirmation(await loadModules(db, { projectId: project.id }), new Date())) {
      return sendPage(reply, UnpublishConfirmPage({ page, project }));
    }
    const outcome = await db.transaction((tx) => setProjectState(tx, project.id, action));
    if (outcome.ok) return reply.redirect(withDone(back, action === 'unpublish' ? 'unpublished' : action === 'archive' ? 'archived' : 'unarchived'), 302);
    const data = await frameData(request, project, 'basic', { error: outcome.reason, done: null });
    return sendPage(reply, ProjectComponentPage({ page, data, form: 'basic', values: projectFormValues(project), errors: {} }), 400);
  });

  app.post('/:org/dashboard/projects/:slug/duplicate/', pageRoute({ params: ProjectParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const managed = await managedProject(request, reply, request.params);
    if (!managed) return reply;
    const { organisation, project, actor } = managed;
    const copy = await db.transaction((tx) => duplicateProject(tx, organisation, project.id, actor));
    return reply.redirect(withDone(projectComponentPath(organisation.slug, copy.slug, 'basic'), 'duplicated'), 302);
  });

  app.get('/:org/dashboard/projects/:slug/delete/', pageRoute({ params: ProjectParams }), async (request, reply) => {
    const managed = await managedProject(request, reply, request.params);
    if (!managed) return reply;
    return sendPage(reply, DeleteProjectPage({ page: managed.page, organisation: managed.organisation, project: managed.project }));
  });

  app.post('/:org/dashboard/projects/:slug/delete/', pageRoute({ params: ProjectParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const managed = await managedProject(request, reply, request.params);
    if (!managed) return reply;
    const { organisation, project, actor } = managed;
    const files = await db.transaction((tx) => deleteProject(tx, organisation, project, actor));
    await media.remove(...files);
    return reply.redirect(withDone(projectListPath(organisation.slug), 'deleted'), 302);
  });
}
