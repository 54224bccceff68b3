import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { denied } from '../../http/auth.js';
import { notFound } from '../../http/errors.js';
import { Slug } from '../../http/responses.js';
import { pageContext } from '../../web/context.js';
import { pageRoute } from '../../web/forms.js';
import { contextUser } from '../../web/guards.js';
import { projectComponentPath } from '../../web/paths.js';
import { sendPage } from '../../web/render.js';
import { loadProjectContext } from '../../core/projects/queries.js';
import { findOfflineEvent } from './queries.js';
import { canManageOfflineEvents, canViewOfflineEvent } from './rules.js';
import { OfflineEventPage } from './views.js';

const EventParams = Type.Object({ org: Slug, slug: Slug });

/** The event page at a+'s address, `/<org>/offlineevents/<slug>/`: whoever may see the project sees its events. */
export async function offlineEventPages(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;

  app.get('/:org/offlineevents/:slug/', pageRoute({ params: EventParams }), async (request, reply) => {
    const page = await pageContext(request, reply);
    const event = await findOfflineEvent(db, request.params.org, request.params.slug);
    if (!event) throw notFound();
    const context = await loadProjectContext(db, event.projectId, contextUser(page));
    if (!context) throw notFound();
    if (!canViewOfflineEvent(context)) throw denied(page.user);
    const manage = canManageOfflineEvents(context) ? projectComponentPath(request.params.org, event.projectSlug, 'offlineevents') : null;
    return sendPage(reply, <OfflineEventPage page={page} data={{ orgSlug: request.params.org, event, manage }} />);
  });
}
