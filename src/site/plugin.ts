import type { FastifyInstance } from 'fastify';
import { organisationPages } from './home/pages.js';
import { legalPages } from './legal/pages.js';
import { modulePages } from './module/pages.js';
import { profilePages } from './profiles/pages.js';
import { projectPages } from './project/pages.js';

/** The public site: the start page and organisations, legal texts, projects, modules, profiles. */
export async function siteWing(app: FastifyInstance): Promise<void> {
  for (const folder of [organisationPages, legalPages, projectPages, modulePages, profilePages]) await app.register(folder);
}
