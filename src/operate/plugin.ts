import type { FastifyInstance } from 'fastify';
import { backofficeRoutes } from './backoffice/pages.js';
import { setupRoutes } from './setup/pages.js';

/** The operator's back-office and the setup of an empty installation. */
export async function operateWing(app: FastifyInstance): Promise<void> {
  for (const folder of [backofficeRoutes, setupRoutes]) await app.register(folder);
}
