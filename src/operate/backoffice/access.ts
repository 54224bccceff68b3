import type { FastifyReply, FastifyRequest } from 'fastify';
import { permissionDenied } from '../../http/errors.js';
import { pageContext } from '../../web/context.js';
import { loginRedirectUrl } from '../../web/render.js';
import { canUseBackoffice } from './rules.js';

/** A superuser's page context; others: login redirect (null) or 403. Every back-office route starts here. */
export async function operator(request: FastifyRequest, reply: FastifyReply) {
  const page = await pageContext(request, reply);
  if (!page.user) {
    await reply.redirect(loginRedirectUrl(request.url), 302);
    return null;
  }
  if (!canUseBackoffice(page.user)) throw permissionDenied();
  return page;
}
