import type { FastifyInstance } from 'fastify';
import { accountsPlugin } from './accounts/plugin.js';
import { dashboardPages } from './dashboard/pages.js';

/** The citizen's own: accounts and the user dashboard (with the moderation queue). */
export async function meWing(app: FastifyInstance): Promise<void> {
  for (const folder of [accountsPlugin, dashboardPages]) await app.register(folder);
}
