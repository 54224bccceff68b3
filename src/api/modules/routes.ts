import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { requireUser } from '../../http/auth.js';
import { notFound } from '../../http/errors.js';
import { requestLanguage } from '../../http/i18n.js';
import { errorResponses, PathId, rejectOtherMethods } from '../../http/responses.js';
import { loadModuleContexts } from '../../core/projects/context.js';
import { loadAppModules } from '../../core/modules/queries.js';
import { canViewModule } from '../../core/modules/rules.js';
import { appAddedContentType } from '../../core/modules/registry.js';
import { AppModule, serializeAppModule } from '../../core/modules/serialize.js';

/** The modules of the mobile app: GET /api/app-modules/ and /api/app-modules/{pk}/. */
export async function appModuleRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config, db } = app.ctx;

  async function listed(request: FastifyRequest, moduleId?: number) {
    const user = await requireUser(request);
    const now = new Date();
    const ctx = { lang: requestLanguage(request, user), timeZone: config.timeZone, now };
    const modules = await loadAppModules(db, moduleId);
    const contexts = await loadModuleContexts(
      db,
      modules.map((m) => m.id),
      user,
      now,
    );
    // The kind the app adds answers whether the caller may add, for every module (adhocracy+ asks add_idea of each).
    const canAdd = appAddedContentType()?.appCanAdd ?? (() => false);
    // Only modules the caller may see: not those of private or draft projects they have no role in (F5).
    return modules.flatMap((module) => {
      const context = contexts.get(module.id);
      return context && canViewModule(context) ? [serializeAppModule(module, canAdd(context), ctx)] : [];
    });
  }

  app.get(
    '/api/app-modules/',
    {
      schema: {
        tags: ['Modules'],
        summary: 'Modules for the app',
        description: 'Published modules of app-accessible projects that the caller may see, with their phases, labels, categories and whether the caller may add ideas.',
        response: { 200: Type.Array(AppModule), ...errorResponses(401) },
      },
    },
    async (request) => listed(request),
  );

  app.get(
    '/api/app-modules/:pk/',
    {
      schema: {
        tags: ['Modules'],
        summary: 'One module of the app list',
        params: Type.Object({ pk: PathId }),
        response: { 200: AppModule, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const [module] = await listed(request, request.params.pk);
      if (!module) throw notFound();
      return module;
    },
  );

  rejectOtherMethods(app, '/api/app-modules/', ['GET']);
  rejectOtherMethods(app, '/api/app-modules/:pk/', ['GET']);
}
