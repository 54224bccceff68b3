import type { FastifyInstance } from 'fastify';
import { moderatorFeedbackRoutes } from './feedback-routes.js';
import { commentRoutes } from './routes.js';

/** The comments' API: comments on any content type, and moderator feedback on them. */
export async function commentsPlugin(app: FastifyInstance): Promise<void> {
  await app.register(commentRoutes);
  await app.register(moderatorFeedbackRoutes);
}
