import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Slug } from '../../http/responses.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { InviteRole } from '../../db/schema/index.js';
import type { FieldErrors } from '../../http/errors.js';
import { notFound } from '../../http/errors.js';
import { takeRateLimited } from '../../http/throttle.js';
import { t, tn } from '../../i18n/index.js';
import { checkCsrf, FormBody, pageRoute } from '../../web/forms.js';
import { sendPage } from '../../web/render.js';
import { frameData, managedProject } from './access.js';
import { MembersPage } from './member-views.js';
import { addParticipants, findUsers, inviteMembers, parseAddresses, removeInvite, removeMember } from './members.js';
import { projectComponentPath, withDone } from '../../web/paths.js';
import { projectMembers } from './queries.js';
import { INVITE_LIMITS, tooManyInvitations } from './rules.js';

const ProjectParams = Type.Object({ org: Slug, slug: Slug });
const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });

const roleOf = (component: 'moderators' | 'participants'): InviteRole => (component === 'moderators' ? 'moderator' : 'participant');

export async function memberDashboardRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;

  async function load(request: FastifyRequest, reply: Parameters<typeof managedProject>[1], params: { org: string; slug: string; component: 'moderators' | 'participants' }) {
    const managed = await managedProject(request, reply, params);
    if (!managed) return null;
    // Participants exist only for projects that are not public (§B8).
    if (params.component === 'participants' && managed.project.access === 'PUBLIC') throw notFound();
    return managed;
  }

  async function render(request: FastifyRequest, reply: Parameters<typeof managedProject>[1], managed: NonNullable<Awaited<ReturnType<typeof load>>>, role: InviteRole, form: { values?: Record<string, string>; errors?: FieldErrors; notices?: string[]; status?: number } = {}) {
    const data = await frameData(request, managed.project, role === 'moderator' ? 'moderators' : 'participants', form.status ? { done: null } : {});
    const members = await projectMembers(db, managed.project.id, role);
    const view = MembersPage({ page: managed.page, data, role, members, values: form.values ?? {}, errors: form.errors ?? {}, notices: form.notices ?? [] });
    return sendPage(reply, view, form.status ?? 200);
  }

  for (const component of ['moderators', 'participants'] as const) {
    app.get(`/:org/dashboard/projects/:slug/${component}/`, pageRoute({ params: ProjectParams, querystring: DoneQuery }), async (request, reply) => {
      const managed = await load(request, reply, { ...request.params, component });
      if (!managed) return reply;
      return render(request, reply, managed, roleOf(component));
    });

    app.post(`/:org/dashboard/projects/:slug/${component}/`, pageRoute({ params: ProjectParams, body: FormBody }), async (request, reply) => {
      checkCsrf(request);
      const managed = await load(request, reply, { ...request.params, component });
      if (!managed) return reply;
      const { page, project, actor } = managed;
      const { lang } = page;
      const role = roleOf(component);
      const body = request.body;
      const back = projectComponentPath(project.organisationSlug, project.slug, component);
      const id = Number(body.user_id ?? body.invite_id);
      switch (body.action) {
        case 'remove_member':
        case 'remove_invite':
          if (!Number.isInteger(id) || id < 1 || id > 2147483647) return render(request, reply, managed, role, { status: 400, errors: { add_users: [t(lang, 'Select a valid choice.')] } });
          await db.transaction((tx) => (body.action === 'remove_member' ? removeMember(tx, project.id, role, id) : removeInvite(tx, project.id, role, id)));
          return reply.redirect(withDone(back, 'removed'), 302);
        case 'invite': {
          const values = { add_users: body.add_users ?? '' };
          const { emails, invalid } = parseAddresses(values.add_users);
          if (invalid.length || !emails.length) {
            const message = emails.length || invalid.length ? t(lang, 'Please enter correct email addresses, separated by commas.') : t(lang, 'Please enter email addresses.');
            return render(request, reply, managed, role, { status: 400, values, errors: { add_users: [message] } });
          }
          if (tooManyInvitations(emails.length)) {
            const message = t(lang, 'Please enter at most %(max)s addresses at a time.', { max: INVITE_LIMITS.perPost });
            return render(request, reply, managed, role, { status: 400, values, errors: { add_users: [message] } });
          }
          await takeRateLimited(app.ctx, `invites:${project.organisationSlug}`, INVITE_LIMITS.perOrganisationPerDay, 24 * 3600, emails.length);
          const result = await db.transaction((tx) => inviteMembers(tx, { ...project }, role, emails, actor));
          const notices = [
            ...(result.invited.length ? [tn(lang, '%(count)s invitation sent.', '%(count)s invitations sent.', result.invited.length)] : []),
            ...(result.alreadyMembers.length ? [t(lang, 'Already members: %(emails)s', { emails: result.alreadyMembers.join(', ') })] : []),
            ...(result.alreadyInvited.length ? [t(lang, 'Already invited: %(emails)s', { emails: result.alreadyInvited.join(', ') })] : []),
          ];
          return render(request, reply, managed, role, { notices });
        }
        case 'add': {
          if (role !== 'participant') throw notFound();
          const values = { add_existing: body.add_existing ?? '' };
          const names = [...new Set(values.add_existing.split(/[\s,;]+/).filter(Boolean))];
          const { found, unknown } = await findUsers(db, names);
          if (!names.length || unknown.length) {
            const message = unknown.length ? t(lang, 'No user with the name or address: %(names)s', { names: unknown.join(', ') }) : t(lang, 'This field is required.');
            return render(request, reply, managed, role, { status: 400, values, errors: { add_existing: [message] } });
          }
          await db.transaction((tx) => addParticipants(tx, project, found.map((u) => u.id), actor));
          return reply.redirect(withDone(back, 'added'), 302);
        }
        default:
          return render(request, reply, managed, role, { status: 400, errors: { add_users: [t(lang, 'Select a valid choice.')] } });
      }
    });
  }
}
