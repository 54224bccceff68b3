import type { FastifyReply, FastifyRequest } from 'fastify';
import { permissionDenied } from '../../http/errors.js';
import { canUseBackoffice } from '../../core/users/rules.js';
import { userPageContext } from '../../web/context.js';

/** A superuser's page context; others: login redirect (null) or 403. Every back-office route starts here. */
export async function operator(request: FastifyRequest, reply: FastifyReply) {
  const page = await userPageContext(request, reply);
  if (!page) return null;
  if (!canUseBackoffice(page.user)) throw permissionDenied();
  return page;
}
