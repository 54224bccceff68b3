import type { FieldErrors } from '../../http/errors.js';
import type { InviteRole } from '../../db/schema/index.js';
import { t } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { CsrfField, Notice } from '../../web/layout.js';
import { TextArea } from './controls.js';
import { DashboardForm, type FrameData, ProjectFrame } from './pages.js';
import { projectComponentPath } from './paths.js';

export interface MembersData {
  members: { id: number; username: string; email: string }[];
  invites: { id: number; email: string }[];
}

function RemoveButton({ page, action, field, id, label }: { page: PageContext; action: string; field: string; id: number; label: string }) {
  return (
    <form method="post" action={action} class="inline-form">
      <CsrfField page={page} />
      <input type="hidden" name="action" value={field === 'user_id' ? 'remove_member' : 'remove_invite'} />
      <input type="hidden" name={field} value={String(id)} />
      <button type="submit" aria-label={label}>
        {t(page.lang, 'Remove')}
      </button>
    </form>
  );
}

/** §B14: the members of a role with remove buttons, pending invitations, the invitation form (and, for participants, adding existing users). */
export function MembersPage(props: { page: PageContext; data: FrameData; role: InviteRole; members: MembersData; values: Record<string, string>; errors: FieldErrors; notices: string[] }) {
  const { page, data, role, members, values, errors } = props;
  const { lang } = page;
  const component = role === 'moderator' ? 'moderators' : 'participants';
  const action = projectComponentPath(data.organisation.slug, data.project.slug, component);
  return (
    <ProjectFrame page={page} data={data} title={t(lang, role === 'moderator' ? 'Moderators' : 'Participants')}>
      {props.notices.map((n) => (
        <Notice>{n}</Notice>
      ))}
      <h2>{t(lang, role === 'moderator' ? 'Current moderators' : 'Current participants')}</h2>
      {members.members.length ? (
        <table class="data-table">
          <thead>
            <tr>
              <th scope="col">{t(lang, 'Username')}</th>
              <th scope="col">{t(lang, 'E-mail address')}</th>
              <th scope="col">{t(lang, 'Action')}</th>
            </tr>
          </thead>
          <tbody>
            {members.members.map((m) => (
              <tr>
                <td>{m.username}</td>
                <td>{m.email}</td>
                <td>
                  <RemoveButton page={page} action={action} field="user_id" id={m.id} label={`${t(lang, 'Remove')}: ${m.username}`} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>{t(lang, 'Nobody yet.')}</p>
      )}
      <h2>{t(lang, 'Pending invitations')}</h2>
      {members.invites.length ? (
        <ul>
          {members.invites.map((i) => (
            <li>
              {i.email} <RemoveButton page={page} action={action} field="invite_id" id={i.id} label={`${t(lang, 'Remove invitation')}: ${i.email}`} />
            </li>
          ))}
        </ul>
      ) : (
        <p>{t(lang, 'No pending invitations.')}</p>
      )}
      <h2>{t(lang, 'Invite by e-mail')}</h2>
      <DashboardForm page={page} action={action} button="Invite">
        <input type="hidden" name="action" value="invite" />
        <TextArea name="add_users" label={t(lang, 'E-mail addresses')} value={values.add_users} rows={3} errors={errors.add_users} help={t(lang, 'Separate several addresses with commas.')} />
      </DashboardForm>
      {role === 'participant' && (
        <>
          <h2>{t(lang, 'Add registered users')}</h2>
          <DashboardForm page={page} action={action} button="Add">
            <input type="hidden" name="action" value="add" />
            <TextArea name="add_existing" label={t(lang, 'Usernames or e-mail addresses')} value={values.add_existing} rows={2} errors={errors.add_existing} help={t(lang, 'They become participants at once and get a welcome e-mail.')} />
          </DashboardForm>
        </>
      )}
    </ProjectFrame>
  );
}
