import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { requireUser } from '../../http/auth.js';
import { notFound } from '../../http/errors.js';
import { errorResponses, PathId, rejectOtherMethods } from '../../http/responses.js';
import { absoluteUrl } from '../../http/urls.js';
import { loadPublicUsers } from '../../core/users/profiles.js';
import { PublicUser, serializePublicUser } from './serialize.js';

/** The users API (the app's profile screen); the profile page is in pages.tsx. */
export async function profileRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.ctx;

  /** The reference's UserViewSet: any signed-in user reads the public face of users (the app's profile screen). */
  const show = async (request: FastifyRequest, id?: number) => {
    const viewer = await requireUser(request);
    const rows = await loadPublicUsers(db, id);
    return rows.map((row) => serializePublicUser(row, viewer.id, (path) => absoluteUrl(config.baseUrl, path)));
  };
  const responses = errorResponses(401, 404);

  app.get('/api/users/', { schema: { summary: 'Active users, by pk', tags: ['users'], response: { 200: Type.Array(PublicUser), ...responses } } }, (request) =>
    show(request),
  );
  app.get(
    '/api/users/:pk/',
    { schema: { summary: 'One user (the app\'s profile screen)', tags: ['users'], params: Type.Object({ pk: PathId }), response: { 200: PublicUser, ...responses } } },
    async (request) => {
      const [user] = await show(request, request.params.pk);
      if (!user) throw notFound();
      return user;
    },
  );
  rejectOtherMethods(app, '/api/users/', ['GET']);
  rejectOtherMethods(app, '/api/users/:pk/', ['GET']);
}
