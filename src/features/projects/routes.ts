import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { requireUser } from '../../http/auth.js';
import { notFound } from '../../http/errors.js';
import { requestLanguage } from '../../http/i18n.js';
import { errorResponses, notModified, rejectOtherMethods } from '../../http/responses.js';
import { absoluteUrl } from '../../http/urls.js';
import { loadAppProjects } from './queries.js';
import { AppProject, type SerializeContext, serializeAppProject } from './serialize.js';

/** The project list of the mobile app: GET /api/app-projects/ and /api/app-projects/{slug}/. */
export async function appProjectRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config, db, reads } = app.ctx;

  async function listed(request: FastifyRequest, slug?: string) {
    const user = await requireUser(request);
    const now = new Date();
    const ctx: SerializeContext = {
      lang: requestLanguage(request, user),
      timeZone: config.timeZone,
      now,
      mediaUrl: (path) => absoluteUrl(config.baseUrl, `/media/${path}`),
    };
    // A polling app fleet asks for the same list all the time: requests that overlap share its statement.
    const found = await reads.load(`app-projects/${slug ?? ''}`, () => loadAppProjects(db, now, slug));
    return found.projects.map((project) => serializeAppProject(project, found.modules.get(project.id) ?? [], ctx));
  }

  app.get(
    '/api/app-projects/',
    {
      config: { etag: true },
      schema: {
        tags: ['Projects'],
        summary: 'Projects for the app',
        description:
          'Public and semi-public projects of organisations with geolocation that are not draft or archived and have a phase of a published module ending in the future; newest first.',
        response: { 200: Type.Array(AppProject), ...notModified, ...errorResponses(401) },
      },
    },
    async (request) => listed(request),
  );

  app.get(
    '/api/app-projects/:slug/',
    {
      config: { etag: true },
      schema: {
        tags: ['Projects'],
        summary: 'One project of the app list, by slug',
        params: Type.Object({ slug: Type.String({ maxLength: 512, pattern: '^[-\\w]+$' }) }),
        response: { 200: AppProject, ...notModified, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const [project] = await listed(request, request.params.slug);
      if (!project) throw notFound('No Project matches the given query.');
      return project;
    },
  );

  rejectOtherMethods(app, '/api/app-projects/', ['GET']);
  rejectOtherMethods(app, '/api/app-projects/:slug/', ['GET']);
}
