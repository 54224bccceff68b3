import type { FastifyInstance } from 'fastify';
import { ideaPagesOf } from '../idealike/pages.js';
import { IDEA_KIND } from './idea-kind.js';
import { ideaRoutes } from './routes.js';

/** The ideas' pages and API (Brainstorming and Idea Challenge modules). */
export async function ideasPlugin(app: FastifyInstance): Promise<void> {
  // The idea pages (§A9, §A13, §A14): detail, create, edit, delete, moderate, and the rating and report forms.
  await app.register(ideaPagesOf(IDEA_KIND));
  await app.register(ideaRoutes);
}
