import { type Lang, t } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { CsrfField, FormErrors, Layout } from '../../web/layout.js';
import { loginRedirectUrl, signupRedirectUrl } from '../../web/render.js';

export interface InviteView {
  role: 'moderator' | 'participant';
  email: string;
  projectName: string;
  organisationName: string;
  path: string;
}

/** The heading of an invitation's pages: "Invitation to moderate / take part in <project>". */
export const inviteTitle = (lang: Lang, role: InviteView['role'], project: string) =>
  t(lang, role === 'moderator' ? 'Invitation to moderate %(project)s' : 'Invitation to take part in %(project)s', { project });

/** An invitation (§A5.5): log in first, then accept or decline. */
export function InvitePage({ page, invite, error }: { page: PageContext; invite: InviteView; error?: string }) {
  const { lang } = page;
  const vars = { project: invite.projectName, organisation: invite.organisationName };
  const title = inviteTitle(lang, invite.role, invite.projectName);
  return (
    <Layout page={page} title={title}>
      <div class="narrow">
        <h1>{title}</h1>
        <p>{t(lang, 'This invitation was sent to %(email)s by %(organisation)s.', { ...vars, email: invite.email })}</p>
        {error && <FormErrors errors={[error]} />}
        {page.user ? (
          <form method="post" action={invite.path}>
            <CsrfField page={page} />
            <button type="submit" name="action" value="accept">
              {t(lang, 'Accept invitation')}
            </button>{' '}
            <button type="submit" name="action" value="reject" class="btn-secondary">
              {t(lang, 'Decline invitation')}
            </button>
          </form>
        ) : (
          <p>
            <a class="btn" href={loginRedirectUrl(invite.path)}>
              {t(lang, 'Login')}
            </a>{' '}
            <a class="btn btn-secondary" href={signupRedirectUrl(invite.path)}>
              {t(lang, 'Register')}
            </a>
          </p>
        )}
      </div>
    </Layout>
  );
}
