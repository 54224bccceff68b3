import type { FieldErrors } from '../../http/errors.js';
import type { InviteRole } from '../../db/schema/index.js';
import { t } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { DataTable, PostButton } from '../../web/components.js';
import { Notice } from '../../web/layout.js';
import { TextArea } from '../../web/controls.js';
import { DashboardForm, type FrameData, ProjectFrame } from './views.js';
import { projectComponentPath } from '../../web/paths.js';

interface MembersData {
  members: { id: number; username: string; email: string }[];
  invites: { id: number; email: string }[];
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
        <DataTable headers={[t(lang, 'Username'), t(lang, 'E-mail address'), t(lang, 'Action')]}>
          {members.members.map((m) => (
            <tr>
              <td>{m.username}</td>
              <td>{m.email}</td>
              <td>
                <PostButton page={page} action={action} fields={{ action: 'remove_member', user_id: String(m.id) }} label={t(lang, 'Remove')} aria={`${t(lang, 'Remove')}: ${m.username}`} />
              </td>
            </tr>
          ))}
        </DataTable>
      ) : (
        <p>{t(lang, 'Nobody yet.')}</p>
      )}
      <h2>{t(lang, 'Pending invitations')}</h2>
      {members.invites.length ? (
        <ul>
          {members.invites.map((i) => (
            <li>
              {i.email} <PostButton page={page} action={action} fields={{ action: 'remove_invite', invite_id: String(i.id) }} label={t(lang, 'Remove')} aria={`${t(lang, 'Remove invitation')}: ${i.email}`} />
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
