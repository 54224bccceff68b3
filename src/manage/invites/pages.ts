import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { notFound } from '../../http/errors.js';
import { renderContext } from '../../http/render.js';
import { t } from '../../i18n/index.js';
import { pageContext } from '../../web/context.js';
import { checkCsrf, FormBody, pageRoute } from '../../web/forms.js';
import { loginRedirectUrl, sendPage } from '../../web/render.js';
import { answerInvite, invitePath, loadInvite } from '../projects/members.js';
import { loadDashboardProject } from '../projects/queries.js';
import { projectPath } from '../../core/urls.js';
import { MessagePage } from '../../web/layout.js';
import { InvitePage, inviteTitle, type InviteView } from './views.js';

const Params = Type.Object({ org: Type.String({ minLength: 1, maxLength: 512, pattern: '^[-\\w]+$' }), token: Type.String({ minLength: 1, maxLength: 64 }) });

/** The pages behind the links in moderator and participant invitations (§A5.5, §A5.6). */
export async function inviteRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.ctx;

  for (const role of ['moderator', 'participant'] as const) {
    const load = async (org: string, token: string) => {
      const invite = await loadInvite(db, role, token);
      const project = invite && (await loadDashboardProject(db, { id: invite.projectId }));
      if (!invite || !project || project.organisationSlug !== org) throw notFound();
      const view: InviteView = { role, email: invite.email, projectName: project.name, organisationName: project.organisationName, path: invitePath(org, role, token) };
      return { invite, project, view };
    };

    app.get(`/:org/projects/${role}-invites/:token/`, pageRoute({ params: Params }), async (request, reply) => {
      const page = await pageContext(request, reply);
      const { view } = await load(request.params.org, request.params.token);
      return sendPage(reply, InvitePage({ page, invite: view }));
    });

    // a+ answered on `…/<token>/accept/`; that address now leads to the invitation page and its form.
    app.get(`/:org/projects/${role}-invites/:token/accept/`, pageRoute({ params: Params }), async (request, reply) => {
      const { view } = await load(request.params.org, request.params.token);
      return reply.redirect(view.path, 301);
    });

    app.post(`/:org/projects/${role}-invites/:token/`, pageRoute({ params: Params, body: FormBody }), async (request, reply) => {
      checkCsrf(request);
      const page = await pageContext(request, reply);
      if (!page.user) return reply.redirect(loginRedirectUrl(request.url), 302);
      const { invite, project, view } = await load(request.params.org, request.params.token);
      const action = request.body.action;
      if (action !== 'accept' && action !== 'reject') return sendPage(reply, InvitePage({ page, invite: view, error: t(page.lang, 'Please accept or decline the invitation.') }), 400);
      const user = page.user;
      const actor = { id: user.id, username: user.username, origin: renderContext(request, user, config).origin };
      const answer = await db.transaction((tx) => answerInvite(tx, invite, user, action === 'accept', project, actor));
      if (answer === 'wrong_user') {
        return sendPage(reply, InvitePage({ page, invite: view, error: t(page.lang, 'This invitation was sent to another e-mail address. Log in with the account of %(email)s.', { email: invite.email }) }), 403);
      }
      const title = inviteTitle(page.lang, role, project.name);
      if (answer === 'rejected') return sendPage(reply, MessagePage({ page, title, message: t(page.lang, 'You declined the invitation.') }));
      const message = t(page.lang, role === 'moderator' ? 'You are now a moderator of %(project)s.' : 'You are now a participant of %(project)s.', { project: project.name });
      const later = project.isDraft ? ` ${t(page.lang, 'The project can be seen once it is published.')}` : '';
      return sendPage(reply, MessagePage({ page, title, message: `${message}${later}`, link: { href: projectPath(project.organisationSlug, project.slug), text: t(page.lang, 'Go to the project') } }));
    });
  }
}
