import type { FastifyInstance } from 'fastify';
import { pollPages } from './pages.js';
import { pollRoutes } from './routes.js';

/** The poll's API and pages (Poll modules). */
export async function pollsPlugin(app: FastifyInstance): Promise<void> {
  await app.register(pollPages);
  await app.register(pollRoutes);
}
