import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';

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
      return ok ? { status: 'ok' as const } : reply.status(503).send({ status: 'unavailable' as const });
    },
  );
}
