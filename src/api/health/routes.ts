import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../http/errors.js';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/healthz',
    {
      schema: {
        hide: true,
        response: { 200: Type.Object({ status: Type.Literal('ok') }), 503: Type.Object({ status: Type.Literal('unavailable') }) },
      },
    },
    async (_request, reply) => {
      const ok = await app.ctx.database.ping();
      if (ok) return { status: 'ok' as const };
      return reply.status(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send({ status: 'unavailable' as const });
    },
  );
}
