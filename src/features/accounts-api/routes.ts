import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { requireUser } from '../../http/auth.js';
import { errorResponses } from '../../http/responses.js';
import { absoluteUrl } from '../../http/urls.js';
import { serializeAccount } from './serialize.js';

const Account = Type.Object({
  pk: Type.Integer(),
  username: Type.String(),
  user_image: Type.Union([Type.String(), Type.Null()]),
  user_image_fallback: Type.String(),
  language: Type.String(),
});

export async function accountApiRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/api/account/',
    {
      schema: {
        summary: 'The signed-in user',
        tags: ['account'],
        response: { 200: Account, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return serializeAccount(user, (path) => absoluteUrl(request, app.ctx.config.baseUrl, path));
    },
  );
}
