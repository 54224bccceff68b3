import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Slug } from '../../http/responses.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { badRequest, notFound } from '../../http/errors.js';
import { checkCsrf, FORM_FIELD_MAX_LENGTH, FormBody, pageRoute } from '../../web/forms.js';
import { sendPage } from '../../web/render.js';
import { moduleComponents, moduleTypeByKey } from '../../core/modules/registry.js';
import { closedForAll } from '../../core/modules/phases.js';
import { appModuleType, type DashboardFormResult } from '../../features/moduletypes/contract.js';
import { BlueprintsPage, ModuleComponentPage } from './module-views.js';
import { organisationLanguage } from '../../core/organisations/rules.js';
import { aliasFormValues, phaseFormValues, readModuleBasic, readPhases, readTerms } from './module-input.js';
import { moduleComponentPath, projectComponentPath, withDone } from '../../web/paths.js';
import { moduleTerms } from './queries.js';
import { frameData, managedModule, managedProject } from './access.js';
import { addModule, changeModule, saveTerms, savePhases, updateModule } from './services.js';
import { readMultipartFiles } from '../../http/bodies.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The files of a module component's multipart form (a type's `uploads`). */
    moduleUploads: Record<string, Buffer> | null;
  }
}

const ProjectParams = Type.Object({ org: Slug, slug: Slug });
const BlueprintParams = Type.Object({ org: Slug, slug: Slug, blueprint: Slug });
const ModuleParams = Type.Object({ org: Slug, module: Slug, component: Slug });
const ModuleStateParams = Type.Object({ org: Slug, module: Slug });
const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });
const StateBody = Type.Object({ csrfmiddlewaretoken: Type.Optional(Type.String()), action: Type.Union([Type.Literal('add'), Type.Literal('hide'), Type.Literal('delete')]) });

/** A component's form: a module type's editor (a poll's questions and choices) has more fields than the shared forms' 100. */
const ComponentFormBody = Type.Record(Type.String(), Type.String({ maxLength: FORM_FIELD_MAX_LENGTH }), { maxProperties: 2000 });

export async function moduleDashboardRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.ctx;

  app.get('/:org/dashboard/projects/:slug/blueprints/', pageRoute({ params: ProjectParams }), async (request, reply) => {
    const managed = await managedProject(request, reply, request.params);
    if (!managed) return reply;
    return sendPage(reply, BlueprintsPage({ page: managed.page, data: await frameData(request, managed.project, 'blueprints') }));
  });

  app.post('/:org/dashboard/projects/:slug/blueprints/:blueprint/', pageRoute({ params: BlueprintParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const managed = await managedProject(request, reply, request.params);
    if (!managed) return reply;
    const blueprint = moduleTypeByKey(request.params.blueprint);
    if (!blueprint?.offered) throw notFound();
    const module = await db.transaction((tx) => addModule(tx, managed.project.id, blueprint, organisationLanguage(managed.organisation)));
    return reply.redirect(withDone(moduleComponentPath(request.params.org, module.slug, 'module_basic'), 'module_created'), 302);
  });

  /** The module's component of that key, with the form its type brings for it (none for the shared components); 404 for a key the module does not have. */
  function componentOf(module: { blueprintType: string }, key: string) {
    const component = moduleComponents(module.blueprintType).find((c) => c.key === key);
    if (!component) throw notFound();
    const type = appModuleType(module.blueprintType);
    return { component, form: type?.dashboardForms?.[key] ?? null, panel: type?.dashboardPanels?.[key] ?? null };
  }

  async function render(request: FastifyRequest, reply: FastifyReply, loaded: NonNullable<Awaited<ReturnType<typeof managedModule>>>, key: string, form?: { values: Record<string, string>; errors: Record<string, string[]> }) {
    const { page, project, module } = loaded;
    const { component, form: typeForm, panel } = componentOf(module, key);
    const data = await frameData(request, project, `${module.slug}/${key}`, form ? { done: null } : {});
    const now = new Date();
    const timing = { now, closed: !project.isDraft && !module.isDraft ? closedForAll(module.phases, now) : null };
    if (panel) {
      const loadedPanel = { part: panel, data: await panel.load(db, module, data.organisation.slug) };
      return sendPage(reply, ModuleComponentPage({ page, data, module, component, typeForm: null, values: {}, errors: {}, panel: loadedPanel, timing }));
    }
    const termKind: 'categories' | 'labels' | null = key === 'categories' ? 'categories' : key === 'labels' ? 'labels' : null;
    const termsOf = termKind ? await moduleTerms(db, module.id) : null;
    const terms = termKind && termsOf ? termsOf[termKind] : [];
    const stored: Record<string, string> = typeForm
      ? await typeForm.values(db, module)
      : key === 'module_basic'
        ? { name: module.name, description: module.description ?? '' }
        : key === 'phases'
          ? phaseFormValues(module, config.timeZone)
          : termKind && termsOf
            ? aliasFormValues(termKind, termsOf.aliases)
            : {};
    const view = ModuleComponentPage({ page, data, module, component, typeForm, values: form?.values ?? stored, errors: form?.errors ?? {}, terms, timing });
    return sendPage(reply, view, form ? 400 : 200);
  }

  app.get('/:org/dashboard/modules/:module/:component/', pageRoute({ params: ModuleParams, querystring: DoneQuery }), async (request, reply) => {
    const loaded = await managedModule(request, reply, request.params.org, request.params.module);
    if (!loaded) return reply;
    return render(request, reply, loaded, request.params.component);
  });

  app.decorateRequest('moduleUploads', null);
  /** A type's form with file fields comes as multipart: its files wait on the request for its `save` (the contract's `uploads`). */
  async function readUploads(request: FastifyRequest) {
    if (request.isMultipart()) request.moduleUploads = await readMultipartFiles(request, () => true);
  }

  app.post('/:org/dashboard/modules/:module/:component/', { ...pageRoute({ params: ModuleParams, body: ComponentFormBody }), preValidation: readUploads }, async (request, reply) => {
    checkCsrf(request);
    const loaded = await managedModule(request, reply, request.params.org, request.params.module);
    if (!loaded) return reply;
    const { page, module } = loaded;
    const { component } = request.params;
    const { form: typeForm, panel } = componentOf(module, component);
    if (panel) throw notFound();
    const live = !module.isDraft;
    const body = request.body;
    let result: DashboardFormResult;
    if (Object.keys(request.moduleUploads ?? {}).length && !typeForm?.uploads) throw badRequest('This form takes no files.');
    if (typeForm) {
      const site = { secretKey: config.secretKey, origin: `${request.protocol}://${request.host}`, orgSlug: request.params.org, uploads: request.moduleUploads ?? {}, media: app.ctx.media };
      result = await typeForm.save(db, module, body, page.lang, page.user.id, site);
    } else if (component === 'module_basic') {
      const basic = (result = readModuleBasic(body, live, page.lang)).parsed;
      if (!Object.keys(result.errors).length) await db.transaction((tx) => updateModule(tx, module.id, basic));
    } else if (component === 'phases') {
      const phases = (result = readPhases(body, module, live, config.timeZone, page.lang, new Date())).parsed;
      if (!Object.keys(result.errors).length) await db.transaction((tx) => savePhases(tx, module.id, phases));
    } else if (component === 'categories' || component === 'labels') {
      const existing = (await moduleTerms(db, module.id))[component];
      const change = (result = readTerms(body, existing, page.lang)).parsed;
      if (!Object.keys(result.errors).length) await db.transaction((tx) => saveTerms(tx, component, module.id, change));
    } else {
      throw notFound();
    }
    if (Object.keys(result.errors).length) return render(request, reply, loaded, component, result);
    if (result.file) {
      const { filename, contentType, body: content, attachment } = result.file;
      return reply.header('cache-control', 'no-store').header('content-disposition', `${attachment ? 'attachment' : 'inline'}; filename="${filename}"`).type(contentType).send(content);
    }
    return reply.redirect(withDone(moduleComponentPath(request.params.org, module.slug, component), 'saved'), 302);
  });

  /** §B15.2–4: add to the project, hide from it, delete. */
  app.post('/:org/dashboard/modules/:module/state/', pageRoute({ params: ModuleStateParams, body: StateBody }), async (request, reply) => {
    checkCsrf(request);
    const loaded = await managedModule(request, reply, request.params.org, request.params.module);
    if (!loaded) return reply;
    const { page, project, module } = loaded;
    const { action } = request.body;
    const outcome = await db.transaction((tx) => changeModule(tx, module, action));
    if (!outcome.ok) {
      const data = await frameData(request, project, `${module.slug}/module_basic`, { error: outcome.reason, done: null });
      const view = ModuleComponentPage({ page, data, module, component: componentOf(module, 'module_basic').component, typeForm: null, values: { name: module.name, description: module.description ?? '' }, errors: {}, timing: { now: new Date(), closed: null } });
      return sendPage(reply, view, 400);
    }
    if (outcome.files?.length) await app.ctx.media.remove(...outcome.files);
    if (action === 'delete') return reply.redirect(withDone(projectComponentPath(request.params.org, project.slug, 'basic'), 'module_deleted'), 302);
    return reply.redirect(withDone(moduleComponentPath(request.params.org, module.slug, 'module_basic'), action === 'add' ? 'module_added' : 'module_hidden'), 302);
  });
}
