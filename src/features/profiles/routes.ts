import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { notFound } from '../../http/errors.js';
import { pageContext } from '../../web/context.js';
import { pageRoute } from '../../web/forms.js';
import { sendPage } from '../../web/render.js';
import { ProfilePage } from './pages.js';
import { loadProfile } from './queries.js';

const ProfileParams = Type.Object({ username: Type.String({ minLength: 1, maxLength: 60, pattern: '^[^/]+$' }) });

export async function profileRoutes(app: FastifyInstance): Promise<void> {
  app.get('/profile/:username/', pageRoute({ params: ProfileParams }), async (request, reply) => {
    const page = await pageContext(request, reply);
    const profile = await loadProfile(app.ctx.db, (request.params as { username: string }).username);
    if (!profile) throw notFound();
    return sendPage(reply, ProfilePage({ page, profile }));
  });
}
