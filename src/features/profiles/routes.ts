import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { pageContext } from '../../web/context.js';
import { pageRoute } from '../../web/forms.js';
import { sendPage } from '../../web/render.js';
import { NotFoundPage, ProfilePage } from './pages.js';
import { loadProfile } from './queries.js';

const ProfileParams = Type.Object({ username: Type.String({ minLength: 1, maxLength: 60, pattern: '^[^/]+$' }) });

export async function profileRoutes(app: FastifyInstance): Promise<void> {
  app.get('/profile/:username/', pageRoute({ params: ProfileParams }), async (request, reply) => {
    const page = await pageContext(request, reply);
    const profile = await loadProfile(app.ctx.db, (request.params as { username: string }).username);
    if (!profile) return sendPage(reply, NotFoundPage({ page }), 404);
    return sendPage(reply, ProfilePage({ page, profile }));
  });
}
