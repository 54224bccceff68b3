import type { FastifyInstance } from 'fastify';
import { accountApiRoutes } from './account/routes.js';
import { authRoutes } from './auth/routes.js';
import { contentTypeRoutes } from './contenttypes/routes.js';
import { followRoutes } from './follows/routes.js';
import { healthRoutes } from './health/routes.js';
import { appModuleRoutes } from './modules/routes.js';
import { notificationRoutes } from './notifications/routes.js';
import { profileRoutes } from './profiles/routes.js';
import { appProjectRoutes } from './projects/routes.js';

/** The app API of the floor's concepts (health, login, account, projects, modules, content types, follows, notifications, profiles): one entry per folder. */
export async function apiWing(app: FastifyInstance): Promise<void> {
  for (const folder of [healthRoutes, authRoutes, accountApiRoutes, appProjectRoutes, appModuleRoutes, contentTypeRoutes, followRoutes, notificationRoutes, profileRoutes]) await app.register(folder);
}
