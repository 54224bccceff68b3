import type { FastifyInstance } from 'fastify';
import { ideaPages } from './pages.js';
import { ideaRoutes } from './routes.js';

/** The ideas' pages and API (Brainstorming and Idea Challenge modules). */
export async function ideasPlugin(app: FastifyInstance): Promise<void> {
  await app.register(ideaPages);
  await app.register(ideaRoutes);
}
