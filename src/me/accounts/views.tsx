import type { ComponentChildren } from 'preact';
import type { FieldErrors } from '../../http/errors.js';
import { LANGUAGES, t } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { CsrfField, Field, FieldErrors as ErrorList, FormErrors, Layout, MessagePage, Notice } from '../../web/layout.js';
import type { ChallengeQuestion } from '../../http/challenge.js';
import { ChallengeField } from '../../web/challenge.js';
import { formatDate } from '../../i18n/dates.js';
import { interpolate } from '../../web/interpolate.js';
import { platformPagePath } from '../../core/legal/texts.js';
import { keepingNext } from '../../core/users/urls.js';
import type { MailSettings } from './queries.js';
import { BIO_MAX_LENGTH, type ConsentText, EMAIL_MAX_LENGTH, GUEST_CONVERT_PATH, GUEST_PATH, PROFILE_LINK_MAX_LENGTH, USERNAME_MAX_LENGTH } from '../../core/users/rules.js';

type FormValues = Record<string, string>;


interface FormPageProps {
  page: PageContext;
  values?: FormValues;
  errors?: FieldErrors;
}

export function LoginPage({ page, values = {}, errors = {}, next }: FormPageProps & { next: string }) {
  const { lang } = page;
  return (
    <Layout page={page} title={t(lang, 'Login')}>
      <div class="narrow">
        <h1>{t(lang, 'Login')}</h1>
        <FormErrors errors={errors.non_field_errors} />
        <form method="post" action="/accounts/login/">
          <CsrfField page={page} />
          <input type="hidden" name="next" value={next} />
          <Field name="login" label={t(lang, 'Username or e-mail address')} value={values.login} autocomplete="username" required errors={errors.login} />
          <Field name="password" type="password" label={t(lang, 'Password')} autocomplete="current-password" required errors={errors.password} />
          <button type="submit">{t(lang, 'Login')}</button>
        </form>
        <p>
          <a href="/accounts/password/reset/">{t(lang, 'Forgot your password?')}</a>
        </p>
        <p>
          {t(lang, 'No account yet?')} <a href={keepingNext('/accounts/signup/', next)}>{t(lang, 'Register')}</a>
        </p>
        <SocialLogin page={page} next={next} />
      </div>
    </Layout>
  );
}

/** Links to the OpenID Connect providers configured in the environment. */
function SocialLogin({ page, next }: { page: PageContext; next: string }) {
  const providers = page.socialProviders ?? [];
  if (!providers.length) return null;
  return (
    <section aria-labelledby="social-login">
      <h2 id="social-login">{t(page.lang, 'Or log in with')}</h2>
      <ul>
        {providers.map((p) => (
          <li>
            <a class="btn btn-secondary" href={keepingNext(`/accounts/oidc/${p.id}/login/`, next)}>
              {p.name}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The sign-up form, and the same form for a guest who registers (issue 34.4: `question` absent): the
 * guest passed the spam check when becoming one and keeps what they wrote.
 */
export function SignupPage({ page, values = {}, errors = {}, next, consent, question }: FormPageProps & { next: string; consent: ConsentText[]; question?: ChallengeQuestion }) {
  const { lang } = page;
  return (
    <Layout page={page} title={t(lang, 'Register')}>
      <div class="narrow">
        <h1>{t(lang, 'Register')}</h1>
        {!question && <p>{t(lang, 'You take part as a guest. Create an account to keep what you wrote and to log in from anywhere.')}</p>}
        <FormErrors errors={errors.non_field_errors} />
        <form method="post" action={question ? '/accounts/signup/' : GUEST_CONVERT_PATH}>
          <CsrfField page={page} />
          <input type="hidden" name="next" value={next} />
          <Field name="username" label={t(lang, 'Username')} value={values.username} autocomplete="username" required maxLength={USERNAME_MAX_LENGTH} errors={errors.username} />
          <Field name="email" type="email" label={t(lang, 'E-mail address')} value={values.email} autocomplete="email" required maxLength={EMAIL_MAX_LENGTH} errors={errors.email} />
          <Field
            name="password1"
            type="password"
            label={t(lang, 'Password')}
            autocomplete="new-password"
            required
            help={t(lang, 'At least 8 characters, not only digits.')}
            errors={errors.password1}
          />
          <Field name="password2" type="password" label={t(lang, 'Password (again)')} autocomplete="new-password" required errors={errors.password2} />
          {consent.length > 0 && <Checkbox name="terms_of_use" label={consentLabel(lang, consent)} checked={values.terms_of_use === 'on'} errors={errors.terms_of_use} required />}
          <Checkbox name="get_newsletters" label={t(lang, 'Send me newsletters.')} checked={values.get_newsletters === 'on'} />
          {question && <ChallengeField page={page} question={question} errors={errors.challenge} />}
          <button type="submit">{t(lang, 'Register')}</button>
        </form>
        {question && (
          <>
            <p>
              {t(lang, 'Already have an account?')} <a href={keepingNext('/accounts/login/', next)}>{t(lang, 'Login')}</a>
            </p>
            <SocialLogin page={page} next={next} />
          </>
        )}
      </div>
    </Layout>
  );
}

/** "Take part as a guest" (issue 34.4, a+ `GuestCreateView`): what a guest is, the terms, the spam check. */
export function GuestPage({ page, values = {}, errors = {}, next, consent, question }: FormPageProps & { next: string; consent: ConsentText[]; question: ChallengeQuestion }) {
  const { lang } = page;
  const title = t(lang, 'Take part as a guest');
  return (
    <Layout page={page} title={title}>
      <div class="narrow">
        <h1>{title}</h1>
        <p>{t(lang, 'As a guest you take part without an account in projects that allow guests. This browser keeps your guest identity; you can create an account later and keep what you wrote.')}</p>
        <FormErrors errors={errors.non_field_errors} />
        <form method="post" action={GUEST_PATH}>
          <CsrfField page={page} />
          <input type="hidden" name="next" value={next} />
          {consent.length > 0 && <Checkbox name="terms_of_use" label={consentLabel(lang, consent)} checked={values.terms_of_use === 'on'} errors={errors.terms_of_use} required />}
          <ChallengeField page={page} question={question} errors={errors.challenge} />
          <button type="submit">{t(lang, 'Continue as a guest')}</button>
        </form>
        <p>
          {t(lang, 'Already have an account?')} <a href={keepingNext('/accounts/login/', next)}>{t(lang, 'Login')}</a>
        </p>
      </div>
    </Layout>
  );
}

/** "I accept the terms of use and the data protection policy", naming only the texts that are written. */
function consentLabel(lang: PageContext['lang'], consent: ConsentText[]) {
  const links = {
    terms: <a href={platformPagePath('terms')}>{t(lang, 'terms of use')}</a>,
    privacy: <a href={platformPagePath('privacy')}>{t(lang, 'data protection policy')}</a>,
  };
  if (consent.length === 2) return interpolate(t(lang, 'I accept the %(terms)s and the %(privacy)s.'), links);
  return consent.includes('terms') ? interpolate(t(lang, 'I accept the %(terms)s.'), links) : interpolate(t(lang, 'I accept the %(privacy)s.'), links);
}

function Checkbox({ name, label, checked, errors, required }: { name: string; label: ComponentChildren; checked: boolean; errors?: string[]; required?: boolean }) {
  const id = `id_${name}`;
  return (
    <div class={`field check${errors?.length ? ' has-error' : ''}`}>
      <input type="checkbox" id={id} name={name} checked={checked} required={required} aria-describedby={errors?.length ? `${id}_errors` : undefined} />{' '}
      <label for={id}>{label}</label>
      <ErrorList id={`${id}_errors`} errors={errors} />
    </div>
  );
}

export function ConfirmEmailPage({ page, token, valid, next }: { page: PageContext; token: string; valid: boolean; next: string }) {
  const { lang } = page;
  const title = t(lang, 'Confirm e-mail address');
  if (!valid) {
    return (
      <MessagePage
        page={page}
        title={title}
        message={t(lang, 'This confirmation link has expired or is invalid.')}
        link={{ href: '/accounts/login/', text: t(lang, 'Login') }}
      />
    );
  }
  return (
    <Layout page={page} title={title}>
      <div class="narrow">
        <h1>{title}</h1>
        <p>{t(lang, 'Please confirm that this is your e-mail address.')}</p>
        <form method="post" action={`/accounts/confirm-email/${token}/`}>
          <CsrfField page={page} />
          <input type="hidden" name="next" value={next} />
          <button type="submit">{t(lang, 'Confirm')}</button>
        </form>
      </div>
    </Layout>
  );
}

export function LogoutPage({ page }: { page: PageContext }) {
  const { lang } = page;
  return (
    <Layout page={page} title={t(lang, 'Logout')}>
      <div class="narrow">
        <h1>{t(lang, 'Logout')}</h1>
        <p>{t(lang, 'Are you sure you want to log out?')}</p>
        <form method="post" action="/accounts/logout/">
          <CsrfField page={page} />
          <button type="submit">{t(lang, 'Logout')}</button>
        </form>
      </div>
    </Layout>
  );
}

export function PasswordResetPage({ page, values = {}, errors = {} }: FormPageProps) {
  const { lang } = page;
  return (
    <Layout page={page} title={t(lang, 'Password reset')}>
      <div class="narrow">
        <h1>{t(lang, 'Password reset')}</h1>
        <p>{t(lang, 'Enter your e-mail address and we will send you a link to choose a new password.')}</p>
        <form method="post" action="/accounts/password/reset/">
          <CsrfField page={page} />
          <Field name="email" type="email" label={t(lang, 'E-mail address')} value={values.email} autocomplete="email" required errors={errors.email} />
          <button type="submit">{t(lang, 'Reset my password')}</button>
        </form>
      </div>
    </Layout>
  );
}

function NewPasswordForm({ page, action, errors = {}, withOld }: { page: PageContext; action: string; errors?: FieldErrors; withOld?: boolean }) {
  const { lang } = page;
  return (
    <form method="post" action={action}>
      <CsrfField page={page} />
      <FormErrors errors={errors.non_field_errors} />
      {withOld && <Field name="oldpassword" type="password" label={t(lang, 'Current password')} autocomplete="current-password" required errors={errors.oldpassword} />}
      <Field name="password1" type="password" label={t(lang, 'New password')} autocomplete="new-password" required errors={errors.password1} />
      <Field name="password2" type="password" label={t(lang, 'New password (again)')} autocomplete="new-password" required errors={errors.password2} />
      <button type="submit">{t(lang, 'Change password')}</button>
    </form>
  );
}

export function PasswordFormPage({ page, title, action, errors, withOld }: { page: PageContext; title: string; action: string; errors?: FieldErrors; withOld?: boolean }) {
  return (
    <Layout page={page} title={title}>
      <div class="narrow">
        <h1>{title}</h1>
        <NewPasswordForm page={page} action={action} errors={errors} withOld={withOld} />
      </div>
    </Layout>
  );
}

export interface SettingsView {
  username: string;
  email: string;
  emailVerified: boolean;
  pendingEmail: string | null;
  language: string;
  bio: string;
  homepage: string;
  twitter_handle: string;
  facebook_handle: string;
  avatarUrl: string;
  hasAvatar: boolean;
}

/** `mailNote`: where the confirmation link is on an install that sends no e-mails (pages.ts mailNote). */
export function AccountSettingsPage({ page, account, errors = {}, saved, mailNote }: { page: PageContext; account: SettingsView; errors?: FieldErrors; saved?: boolean; mailNote?: string }) {
  const { lang } = page;
  return (
    <Layout page={page} title={t(lang, 'Account Settings')}>
      <div class="narrow">
        <h1>{t(lang, 'Account Settings')}</h1>
        {saved && (
          <Notice>
            <p>{t(lang, 'Your changes have been saved.')}</p>
          </Notice>
        )}
        {!account.emailVerified && (
          <Notice>
            <p>{t(lang, 'Your e-mail address is not confirmed yet. We have sent you a confirmation link.')}</p>
            {mailNote && <p>{mailNote}</p>}
          </Notice>
        )}
        {account.pendingEmail && (
          <Notice>
            <p>{t(lang, 'We have sent a confirmation link to %(email)s. Your e-mail address changes once you open it.', { email: account.pendingEmail })}</p>
            {mailNote && <p>{mailNote}</p>}
          </Notice>
        )}
        <FormErrors errors={errors.non_field_errors} />
        <form method="post" action="/account/" enctype="multipart/form-data">
          <CsrfField page={page} />
          <Field name="username" label={t(lang, 'Username')} value={account.username} required maxLength={USERNAME_MAX_LENGTH} autocomplete="username" errors={errors.username} />
          <Field name="email" type="email" label={t(lang, 'E-mail address')} value={account.email} required maxLength={EMAIL_MAX_LENGTH} autocomplete="email" errors={errors.email} />
          <Field name="current_password" type="password" label={t(lang, 'Current password (needed to change the e-mail address)')} value="" autocomplete="current-password" errors={errors.current_password} />
          <div class={`field${errors.language?.length ? ' has-error' : ''}`}>
            <label for="id_language">{t(lang, 'Your preferred language')}</label>
            <select id="id_language" name="language">
              {LANGUAGES.map((code) => (
                <option value={code} selected={code === account.language}>
                  {code === 'de' ? 'Deutsch' : 'English'}
                </option>
              ))}
            </select>
            <ErrorList errors={errors.language} />
          </div>
          <div class={`field${errors.bio?.length ? ' has-error' : ''}`}>
            <label for="id_bio">{t(lang, 'Biography')}</label>
            <textarea id="id_bio" name="bio" maxLength={BIO_MAX_LENGTH} rows={4} aria-describedby="id_bio_help">
              {account.bio}
            </textarea>
            <p class="help" id="id_bio_help">
              {t(lang, 'Tell us about yourself in %(max)s characters!', { max: BIO_MAX_LENGTH })}
            </p>
            <ErrorList errors={errors.bio} />
          </div>
          <Field name="homepage" label={t(lang, 'Homepage')} value={account.homepage} maxLength={PROFILE_LINK_MAX_LENGTH.homepage} autocomplete="url" errors={errors.homepage} />
          <Field name="twitter_handle" label={t(lang, 'Twitter name')} value={account.twitter_handle} maxLength={PROFILE_LINK_MAX_LENGTH.handle} errors={errors.twitter_handle} />
          <Field name="facebook_handle" label={t(lang, 'Facebook name')} value={account.facebook_handle} maxLength={PROFILE_LINK_MAX_LENGTH.handle} errors={errors.facebook_handle} />
          <div class={`field${errors.avatar?.length ? ' has-error' : ''}`}>
            <p>
              <img class="avatar" src={account.avatarUrl} alt={t(lang, 'Your current avatar')} width={100} height={100} />
            </p>
            <label for="id_avatar">{t(lang, 'Avatar picture')}</label>
            <input id="id_avatar" type="file" name="avatar" accept="image/png,image/jpeg,image/gif" aria-describedby="id_avatar_help" />
            <p class="help" id="id_avatar_help">
              {t(lang, 'PNG, JPEG or GIF, at least 200×200 pixels, at most 5 MB.')}
            </p>
            <ErrorList errors={errors.avatar} />
            {account.hasAvatar && (
              <p class="check">
                <input type="checkbox" id="id_avatar_clear" name="avatar_clear" /> <label for="id_avatar_clear">{t(lang, 'Remove the avatar picture')}</label>
              </p>
            )}
          </div>
          <button type="submit">{t(lang, 'Save changes')}</button>
        </form>
        <h2>{t(lang, 'More')}</h2>
        <ul>
          <li>
            <a href="/accounts/password/change/">{t(lang, 'Change password')}</a>
          </li>
          <li>
            <a href="/account/notifications/">{t(lang, 'E-mail notifications and newsletters')}</a>
          </li>
          <li>
            <a href="/account/agreements/">{t(lang, 'User agreements')}</a>
          </li>
          <li>
            <a href="/account/account_deletion/">{t(lang, 'Delete account')}</a>
          </li>
        </ul>
        <h2>{t(lang, 'Your data')}</h2>
        <p>{t(lang, 'Download everything you have stored here as one zip archive: your account, ideas, comments, ratings, follows, reports and uploaded pictures.')}</p>
        <form method="post" action="/account/export/">
          <CsrfField page={page} />
          <button type="submit">{t(lang, 'Download my data')}</button>
        </form>
      </div>
    </Layout>
  );
}

/** One organisation whose terms of use the user agreed to. */
interface TermsAgreementView {
  organisationId: number;
  name: string;
  termsPath: string;
  created: Date;
}

/** The user's agreements to organisations' terms of use (a+ `/account/agreements/`): untick to withdraw one. */
export function AgreementsPage({ page, agreements }: { page: PageContext; agreements: TermsAgreementView[] }) {
  const { lang } = page;
  const title = t(lang, 'User agreements');
  return (
    <Layout page={page} title={title}>
      <div class="narrow">
        <h1>{title}</h1>
        <p>{t(lang, "Organisations ask you once to agree to their terms of use before you post ideas or comments in their projects. Untick an agreement to withdraw it; that organisation's forms will ask you again.")}</p>
        {agreements.length ? (
          <form method="post" action="/account/agreements/">
            <CsrfField page={page} />
            <fieldset class="field">
              <legend>{t(lang, 'Terms of use you agreed to')}</legend>
              {agreements.map((a) => (
                <div class="check">
                  <input type="checkbox" id={`id_agreed_${a.organisationId}`} name="agreed" value={String(a.organisationId)} checked />{' '}
                  <label for={`id_agreed_${a.organisationId}`}>
                    <a href={a.termsPath}>{a.name}</a> ({t(lang, 'since %(date)s', { date: formatDate(a.created, lang, page.timeZone) })})
                  </label>
                </div>
              ))}
            </fieldset>
            <button type="submit">{t(lang, 'Save changes')}</button>
          </form>
        ) : (
          <p>{t(lang, "You have not agreed to any organisation's terms of use yet.")}</p>
        )}
        <p>
          <a href="/account/">{t(lang, 'Account Settings')}</a>
        </p>
      </div>
    </Layout>
  );
}

export function AccountDeletionPage({ page, errors = {}, withPassword }: { page: PageContext; errors?: FieldErrors; withPassword: boolean }) {
  const { lang } = page;
  return (
    <Layout page={page} title={t(lang, 'Delete account')}>
      <div class="narrow">
        <h1>{t(lang, 'Delete account')}</h1>
        <p>{t(lang, 'Deleting your account removes your profile and everything you contributed. This cannot be undone.')}</p>
        <form method="post" action="/account/account_deletion/">
          <CsrfField page={page} />
          {withPassword && <Field name="password" type="password" label={t(lang, 'Your password')} autocomplete="current-password" required errors={errors.password} />}
          <button type="submit">{t(lang, 'Delete account')}</button>
        </form>
      </div>
    </Layout>
  );
}

/** `/account/notifications/`: newsletters (at all, and per organisation) and each kind of notification, by e-mail and in the app. */
export function MailSettingsPage({ page, settings }: { page: PageContext; settings: MailSettings }) {
  const { lang } = page;
  const title = t(lang, 'E-mail notifications and newsletters');
  return (
    <Layout page={page} title={title}>
      <div class="narrow">
        <h1>{title}</h1>
        <form method="post" action="/account/notifications/">
          <CsrfField page={page} />
          <fieldset class="field">
            <legend>{t(lang, 'Newsletters')}</legend>
            <div class="check">
              <input type="checkbox" id="id_get_newsletters" name="get_newsletters" checked={settings.newsletters} />{' '}
              <label for="id_get_newsletters">{t(lang, 'I want to receive newsletters about projects I follow')}</label>
            </div>
            {settings.organisations.map((org) => (
              <div class="check">
                <input type="hidden" name="shown_organisation" value={String(org.id)} />
                <input type="checkbox" id={`id_organisation_${org.id}`} name="organisation" value={String(org.id)} checked={org.wanted} />{' '}
                <label for={`id_organisation_${org.id}`}>{t(lang, 'Newsletters from %(organisation)s', { organisation: org.name })}</label>
              </div>
            ))}
          </fieldset>
          <fieldset class="field">
            <legend>{t(lang, 'Tell me when')}</legend>
            <p class="help">{t(lang, 'By e-mail, and in the notifications behind the bell at the top of every page.')}</p>
            <input type="hidden" name="in_app_shown" value="1" />
            <table class="notification-settings">
              <thead>
                <tr>
                  <th scope="col">{t(lang, 'Event')}</th>
                  <th scope="col">{t(lang, 'By e-mail')}</th>
                  <th scope="col">{t(lang, 'In the app')}</th>
                </tr>
              </thead>
              <tbody>
                {settings.notifications.map((n) => (
                  <tr>
                    <th scope="row">{t(lang, n.label)}</th>
                    <td>
                      <input type="checkbox" id={`id_notification_${n.kind}`} name="notification" value={n.kind} checked={n.wanted} />
                      <label for={`id_notification_${n.kind}`} class="visually-hidden">
                        {t(lang, '%(kind)s: by e-mail', { kind: t(lang, n.label) })}
                      </label>
                    </td>
                    <td>
                      <input type="checkbox" id={`id_in_app_${n.kind}`} name="in_app" value={n.kind} checked={n.inApp} />
                      <label for={`id_in_app_${n.kind}`} class="visually-hidden">
                        {t(lang, '%(kind)s: in the app', { kind: t(lang, n.label) })}
                      </label>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </fieldset>
          <button type="submit">{t(lang, 'Save changes')}</button>
        </form>
        <p>
          <a href="/account/">{t(lang, 'Account Settings')}</a>
        </p>
      </div>
    </Layout>
  );
}

/** The newsletter's unsubscribe link: one button, no login (a mail scanner's GET changes nothing). */
/** A one-click unsubscribe link's page (newsletters of one organisation, or one kind of notification): GET asks, POST confirms. */
export function UnsubscribePage({ page, title, question, confirmation, done }: { page: PageContext; title: string; question: string; confirmation: string; done: boolean }) {
  const { lang } = page;
  return (
    <Layout page={page} title={title}>
      <div class="narrow">
        <h1>{title}</h1>
        {done ? (
          <Notice>
            <p>{confirmation}</p>
          </Notice>
        ) : (
          <form method="post">
            <p>{question}</p>
            <button type="submit">{t(lang, 'Unsubscribe')}</button>
          </form>
        )}
        <p>{t(lang, 'Choose which e-mails you get in your account settings:')} <a href="/account/notifications/">{t(lang, 'E-mail notifications and newsletters')}</a></p>
      </div>
    </Layout>
  );
}
