import type { FastifyInstance } from 'fastify';
import { commentsPlugin } from './comments/plugin.js';
import { moderationRoutes } from './moderation/routes.js';
import { ratingRoutes } from './ratings/routes.js';
import { reportRoutes } from './reports/routes.js';
import { commentPages } from './threads/pages.js';

/**
 * Participation on any content type: comments and their threads, ratings, reports, moderation.
 * The module types' own routes and pages are not here: the app registers them from the registry.
 */
export async function participationWing(app: FastifyInstance): Promise<void> {
  for (const folder of [commentsPlugin, commentPages, ratingRoutes, reportRoutes, moderationRoutes]) await app.register(folder);
}
