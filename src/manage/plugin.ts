import type { FastifyInstance } from 'fastify';
import { exportRoutes } from './exports/pages.js';
import { inviteRoutes } from './invites/pages.js';
import { newsletterRoutes } from './newsletters/pages.js';
import { projectDashboardRoutes } from './projects/pages.js';
import { organisationSettingsRoutes } from './settings/pages.js';

/** The initiator's dashboard: projects and modules, exports, invitations, newsletters, organisation settings. */
export async function manageWing(app: FastifyInstance): Promise<void> {
  for (const folder of [projectDashboardRoutes, exportRoutes, inviteRoutes, newsletterRoutes, organisationSettingsRoutes]) await app.register(folder);
}
