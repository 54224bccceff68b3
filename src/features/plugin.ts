import type { FastifyInstance } from 'fastify';
import { commentsPlugin } from './comments/plugin.js';
import { moderationRoutes } from './moderation/routes.js';
import { moderatorRemarkPages } from './moderatorremarks/pages.js';
import { moderatorRemarkRoutes } from './moderatorremarks/routes.js';
import { offlineEventPages } from './offlineevents/pages.js';
import { ratingRoutes } from './ratings/routes.js';
import { reportRoutes } from './reports/routes.js';
import { resultPages } from './results/pages.js';
import { resultRoutes } from './results/routes.js';
import { commentPages } from './threads/pages.js';

/**
 * Participation on any content type: comments and their threads, ratings, reports, moderation,
 * moderators' remarks; and a project's offline events and results.
 * The module types' own routes and pages are not here: the app registers them from the registry.
 */
export async function participationWing(app: FastifyInstance): Promise<void> {
  for (const folder of [commentsPlugin, commentPages, ratingRoutes, reportRoutes, moderationRoutes, moderatorRemarkRoutes, moderatorRemarkPages, offlineEventPages, resultPages, resultRoutes]) await app.register(folder);
}
