import type { FastifyInstance } from 'fastify';
import { accountExportRoutes } from './export-pages.js';
import { guestRoutes } from './guest-pages.js';
import { accountRoutes } from './pages.js';
import { accountSettingsRoutes } from './settings-pages.js';

/** The citizen's account pages: sign-up, login, social login, guests, password reset, settings, "Download my data". */
export async function accountsPlugin(app: FastifyInstance): Promise<void> {
  await app.register(accountRoutes);
  await app.register(accountSettingsRoutes);
  await app.register(accountExportRoutes);
  await app.register(guestRoutes);
}
