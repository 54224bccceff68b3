import { t } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { PostButton } from '../../web/components.js';
import { CsrfField } from '../../web/layout.js';
import { EMAIL_MAX_LENGTH } from '../../core/users/rules.js';
import { Input } from '../../web/controls.js';
import { Frame } from './views.js';
import { type AccountCare, isDeletedPlaceholder, UNCONFIRMED_SUPERUSER, userCarePath } from './rules.js';
import type { loadCareTarget } from './services.js';

type Target = NonNullable<Awaited<ReturnType<typeof loadCareTarget>>>;

/** One account in the back-office: what operators do on request (issue 22, item 7). */
export function UserCarePage(props: { page: PageContext; target: Target; care: AccountCare; email?: string; errors?: string[]; notice: string | null }) {
  const { page, target, care } = props;
  const { lang } = page;
  const action = userCarePath(target.id);
  const status = [
    t(lang, target.isActive ? 'active' : 'deactivated'),
    t(lang, target.emailVerified ? 'e-mail address confirmed' : 'e-mail address not confirmed'),
    ...(target.isStaff ? [t(lang, 'staff')] : []),
    ...(target.isSuperuser ? [t(lang, 'superuser')] : []),
  ].join(', ');
  return (
    <Frame page={page} title={target.username} current="users" notice={props.notice}>
      <p>
        <a href="/backoffice/users/">{t(lang, 'All users')}</a>
      </p>
      <dl>
        <dt>{t(lang, 'E-mail address')}</dt>
        <dd>{target.email}</dd>
        <dt>{t(lang, 'Status')}</dt>
        <dd>{status}</dd>
      </dl>
      {isDeletedPlaceholder(target) && <p>{t(lang, 'This account holds the content of deleted accounts. It cannot be changed.')}</p>}
      {page.user?.id === target.id && <p>{t(lang, 'This is your own account: you cannot delete or deactivate it here, nor take away its superuser status.')}</p>}
      {care.correctEmail && (
        <section aria-labelledby="correct-email">
          <h2 id="correct-email">{t(lang, 'Correct the e-mail address')}</h2>
          <form method="post" action={action} noValidate>
            <CsrfField page={page} />
            <input type="hidden" name="action" value="correct_email" />
            <Input name="email" type="email" label={t(lang, 'New e-mail address')} value={props.email ?? target.email} maxLength={EMAIL_MAX_LENGTH} required errors={props.errors} help={t(lang, 'The new address must be confirmed: a confirmation e-mail goes to it.')} />
            <button type="submit">{t(lang, 'Save the address')}</button>
          </form>
        </section>
      )}
      <ul class="actions">
        {care.resendConfirmation && (
          <li>
            <PostButton page={page} action={action} fields={{ action: 'resend_confirmation' }} label={t(lang, 'Send the confirmation e-mail again')} />
          </li>
        )}
        {care.grantSuperuser && (
          <li>
            <PostButton page={page} action={action} fields={{ action: 'grant_superuser' }} label={t(lang, 'Make superuser')} />
          </li>
        )}
        {care.grantSuperuserAfterConfirmation && (
          <li>
            <PostButton page={page} action={action} fields={{ action: 'grant_superuser' }} label={t(lang, 'Make superuser')} aria={`${t(lang, 'Make superuser')}: ${t(lang, UNCONFIRMED_SUPERUSER)}`} disabled />
            <p class="help">{t(lang, UNCONFIRMED_SUPERUSER)}</p>
          </li>
        )}
        {care.revokeSuperuser && (
          <li>
            <PostButton page={page} action={action} fields={{ action: 'revoke_superuser' }} label={t(lang, 'Remove superuser status')} />
          </li>
        )}
        {care.delete && (
          <li>
            <a class="btn btn-danger" href={`${action}delete/`}>
              {t(lang, 'Delete the account')}
            </a>
          </li>
        )}
      </ul>
    </Frame>
  );
}

/** Asks once more before an account is deleted, and says what stays. */
export function UserDeletePage({ page, target }: { page: PageContext; target: Target }) {
  const { lang } = page;
  return (
    <Frame page={page} title={t(lang, 'Delete the account of %(username)s', { username: target.username })} current="users">
      <p>{t(lang, 'This deletes the account as its owner can: the profile, ratings, follows and unsent e-mails go; comments stay as deleted so that replies stay; ideas others took part in stay without the name. This cannot be undone.')}</p>
      <PostButton page={page} action={`${userCarePath(target.id)}delete/`} fields={{ confirm: 'yes' }} label={t(lang, 'Delete the account')} aria={`${t(lang, 'Delete the account')}: ${target.username}`} />{' '}
      <a href={userCarePath(target.id)}>{t(lang, 'Cancel')}</a>
    </Frame>
  );
}
