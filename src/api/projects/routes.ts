import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { dataVersion } from '../../db/versions.js';
import { requireUser } from '../../http/auth.js';
import { sendTagged, serialized } from '../../http/conditional.js';
import { notFound } from '../../http/errors.js';
import { requestLanguage } from '../../http/i18n.js';
import { type KeptAnswer, KeptAnswers } from '../../http/kept-answers.js';
import { errorResponses, notModified, rejectOtherMethods } from '../../http/responses.js';
import { absoluteUrl } from '../../http/urls.js';
import { loadAppProjects } from '../../core/projects/queries.js';
import { AppProject, type SerializeContext, serializeAppProject } from './serialize.js';

/** What the app list is made of: a write to any of these tables changes the list's data version. */
const APP_LIST_TABLES = ['organisations', 'projects', 'modules', 'phases'] as const;

/** The project list of the mobile app: GET /api/app-projects/ and /api/app-projects/{slug}/. */
export async function appProjectRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config, db, reads } = app.ctx;
  // The list depends on the language, the time and the rows of APP_LIST_TABLES only, not on the user.
  const answers = app.ctx.memory.keep(new KeptAnswers());

  /** The serialised list (or the project of that slug, null when it is not listed) and its tag. */
  async function listed(request: FastifyRequest, reply: FastifyReply, slug?: string) {
    const user = await requireUser(request);
    const lang = requestLanguage(request, user);
    // A polling app fleet asks all the time: overlapping requests share the version check and the load.
    const version = await reads.load('data-version/app-projects', () => dataVersion(db, APP_LIST_TABLES));
    return answers.get(`${slug ?? ''}/${lang}`, version, new Date(), async (now) => {
      const ctx: SerializeContext = { lang, timeZone: config.timeZone, now, mediaUrl: (path) => absoluteUrl(config.baseUrl, `/media/${path}`) };
      const found = await reads.load(`app-projects/${slug ?? ''}/${now.getTime()}`, () => loadAppProjects(db, now, slug));
      const list = found.projects.map((project) => serializeAppProject(project, found.modules.get(project.id) ?? [], ctx));
      if (slug === undefined) return serialized(reply, list);
      return list[0] ? serialized(reply, list[0]) : null;
    });
  }

  function send(reply: FastifyReply, { body, tag, coded }: KeptAnswer) {
    if (body === null) throw notFound('No Project matches the given query.');
    return sendTagged(reply, { body, tag, coded });
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
    async (request, reply) => send(reply, await listed(request, reply)),
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
    async (request, reply) => send(reply, await listed(request, reply, request.params.slug)),
  );

  rejectOtherMethods(app, '/api/app-projects/', ['GET']);
  rejectOtherMethods(app, '/api/app-projects/:slug/', ['GET']);
}
