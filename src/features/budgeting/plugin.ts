import type { FastifyInstance } from 'fastify';
import { ideaPagesOf } from '../idealike/pages.js';
import { proposalHooks } from './place.js';
import { PROPOSAL_KIND } from './queries.js';

/** The proposals' pages (`/<org>/budgeting/…`): the idea pages with a place, a budget and the archive. */
export async function proposalPages(app: FastifyInstance): Promise<void> {
  await app.register(ideaPagesOf(PROPOSAL_KIND, proposalHooks(app.ctx.config.maps)));
}
