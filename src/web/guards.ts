import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound, permissionDenied } from '../http/errors.js';
import { renderContext } from '../http/render.js';
import { type PageContext, userPageContext } from './context.js';
import { loadOrganisationContext } from '../core/organisations/queries.js';
import { type Actor, canManageOrganisation } from '../core/organisations/rules.js';

/** Who may open which dashboard page: every dashboard route starts here (the organisation guard), and asks the rules. */
export const contextUser = (page: PageContext) => (page.user ? { id: page.user.id, isSuperuser: page.user.isSuperuser } : null);

/** The signed-in initiator's (or superuser's) view of an organisation; anonymous visitors go to the login page (null), others get 403, unknown slugs 404. */
export async function managedOrganisation(request: FastifyRequest, reply: FastifyReply, orgSlug: string) {
  const page = await userPageContext(request, reply);
  if (!page) return null;
  const loaded = await loadOrganisationContext(request.server.ctx.db, orgSlug, contextUser(page));
  if (!loaded) throw notFound();
  if (!canManageOrganisation(loaded.context)) throw permissionDenied();
  const actor: Actor = { id: page.user.id, username: page.user.username, origin: renderContext(request, page.user, request.server.ctx.config).origin };
  return { page, organisation: loaded.organisation, actor, user: { id: page.user.id, isSuperuser: page.user.isSuperuser } };
}
