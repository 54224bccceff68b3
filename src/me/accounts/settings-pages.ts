import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthUser } from '../../http/auth.js';
import { badRequest, type FieldErrors } from '../../http/errors.js';
import { ensureCsrfToken } from '../../http/session.js';
import { isLang, type Lang, t } from '../../i18n/index.js';
import { userPageContext } from '../../web/context.js';
import { checkCsrf, field, fieldList, FormBody, pageRoute, RepeatedFormBody, TokenParams } from '../../web/forms.js';
import { pageContext } from '../../web/context.js';
import { isNotificationKind, NOTIFICATION_KINDS } from '../../mail/notices.js';
import { loadMailSettings, organisationName } from './queries.js';
import { readLink } from '../../core/users/link-tokens.js';
import { sendPage } from '../../web/render.js';
import { avatarUrl, removeAvatar, storeAvatar } from '../../core/users/avatars.js';
import { endSession, setLanguageCookie, startSession } from '../../core/users/login.js';
import { MessagePage } from '../../web/layout.js';
import { AccountDeletionPage, AccountSettingsPage, AgreementsPage, MailSettingsPage, PasswordFormPage, type SettingsView, UnsubscribePage } from './views.js';
import { organisationTextPath } from '../../core/legal/texts.js';
import { loadTermsAgreements } from '../../core/organisations/queries.js';
import { withdrawTermsAgreements } from '../../core/organisations/services.js';
import { redirectWithMessage } from '../../web/flash.js';
import { throttledPasswordCheck } from '../../core/users/auth.js';
import { takeRateLimited } from '../../http/throttle.js';
import { mailNote, newPasswordErrors } from './pages.js';
import {
  type Account,
  findAccount,
  saveMailSettings,
  withdrawNewsletterConsent,
  turnNotificationOff,
  isUniqueViolation,
  EMAIL_CHANGE_LIMIT,
  mailEmailChange,
  updateAccount,
  usernameAndEmailErrors,
} from '../../core/users/services.js';
import { setPassword } from '../../core/users/credentials.js';
import { accountLinks } from '../../core/users/urls.js';
import { ImageInvalid } from '../../media/images.js';
import { deleteAccount } from '../../core/users/deletion.js';
import { BIO_MAX_LENGTH, profileLinkErrors } from '../../core/users/rules.js';


const settingsView = (account: Account): SettingsView => ({
  username: account.username,
  email: account.email,
  emailVerified: account.emailVerified,
  pendingEmail: account.pendingEmail,
  language: account.language,
  bio: account.bio,
  homepage: account.homepage,
  twitter_handle: account.twitterHandle,
  facebook_handle: account.facebookHandle,
  avatarUrl: avatarUrl(account),
  hasAvatar: Boolean(account.avatar),
});

interface SettingsForm {
  fields: Record<string, string>;
  avatar: Buffer | null;
  tooLarge?: boolean;
}

/**
 * Reads the settings form: multipart (with an avatar file) or urlencoded. The fields become the
 * request body so that the CSRF check finds the form token.
 */
async function readSettingsForm(request: FastifyRequest): Promise<SettingsForm> {
  if (!request.isMultipart()) return { fields: (request.body as Record<string, string> | undefined) ?? {}, avatar: null };
  const fields: Record<string, string> = {};
  let avatar: Buffer | null = null;
  let tooLarge = false;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname === 'avatar' && part.filename && data.length) avatar = data;
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    // The multipart limit (5 MB a file) ends the upload; the fields read so far (the form token comes first) still count.
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 413) tooLarge = true;
    else if (status && status >= 400 && status < 500) throw error;
    else throw badRequest(`Multipart form parse error - ${error instanceof Error ? error.message : 'invalid body'}`);
  }
  request.body = fields;
  return { fields, avatar, tooLarge };
}

const profileLinks = (form: Record<string, string>) => ({ homepage: field(form, 'homepage'), twitter_handle: field(form, 'twitter_handle'), facebook_handle: field(form, 'facebook_handle') });

async function settingsErrors(app: FastifyInstance, lang: Lang, account: { id: number; username: string }, form: Record<string, string>): Promise<FieldErrors> {
  const input = { username: field(form, 'username'), email: field(form, 'email') };
  // Whether another account has the address is never told here (issue 21, finding 8): see mailEmailChange.
  const errors: FieldErrors = await usernameAndEmailErrors(app.ctx.db, lang, input, { exceptUserId: account.id, currentUsername: account.username });
  if (!isLang(field(form, 'language'))) errors.language = [t(lang, 'Select a valid choice.')];
  if (field(form, 'bio', false).length > BIO_MAX_LENGTH) errors.bio = [t(lang, 'Ensure this value has at most %(max)s characters.', { max: BIO_MAX_LENGTH })];
  for (const [name, key] of Object.entries(profileLinkErrors(profileLinks(form)))) errors[name] = [t(lang, key)];
  return errors;
}

/** Accounts made through social login have no password; they confirm by being signed in. */
const hasPassword = (account: Account) => account.password !== '';
/** The current password, checked under the login throttle (429 page while over the limit). */
const passwordMatches = (request: FastifyRequest, password: string, account: Account) =>
  throttledPasswordCheck(request.server.ctx, request.ip, account.id, password, account.password);

async function loadAccount(app: FastifyInstance, user: AuthUser): Promise<Account> {
  const account = await findAccount(app.ctx.db, user.id);
  if (!account) throw new Error(`signed-in user ${user.id} vanished`);
  return account;
}

export async function accountSettingsRoutes(app: FastifyInstance): Promise<void> {
  const { db, config } = app.ctx;
  const { media } = app.ctx;

  app.get('/account/', pageRoute(), async (request, reply) => {
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    const saved = (request.query as Record<string, unknown>).saved === '1';
    return sendPage(reply, AccountSettingsPage({ page, mailNote: mailNote(page, config), account: settingsView(await loadAccount(app, page.user)), saved }));
  });

  // No body schema: a multipart body is read by readSettingsForm, field by field.
  app.post('/account/', pageRoute(), async (request, reply) => {
    const form = await readSettingsForm(request);
    checkCsrf(request);
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    const account = await loadAccount(app, page.user);
    const errors = await settingsErrors(app, page.lang, account, form.fields);
    // A new e-mail address takes over the account (password reset goes there): the current password
    // first, checked under the login throttle as in the password change (F11).
    const emailChanges = field(form.fields, 'email').toLowerCase() !== account.email.toLowerCase();
    // A guest's address comes with the registration (issue 34.4), which turns the guest into an account.
    if (emailChanges && page.user.isGuest) errors.email = [t(page.lang, 'A guest gives an e-mail address by creating an account.')];
    const newPending = emailChanges && field(form.fields, 'email').toLowerCase() !== account.pendingEmail?.toLowerCase();
    if (newPending && !errors.email) await takeRateLimited(app.ctx, `email-change:${account.id}`, EMAIL_CHANGE_LIMIT.perWindow, EMAIL_CHANGE_LIMIT.windowSeconds);
    if (emailChanges && !errors.email && hasPassword(account) && !(await passwordMatches(request, field(form.fields, 'current_password', false), account))) {
      errors.current_password = [t(page.lang, 'Please type your current password.')];
    }
    if (form.tooLarge) errors.avatar = [t(page.lang, 'The image must not be larger than 5 MB.')];
    let avatar: string | null | undefined = field(form.fields, 'avatar_clear') === 'on' ? null : undefined;
    // The picture is stored only when the rest of the form is fine (no orphaned files).
    if (form.avatar && !Object.keys(errors).length) {
      try {
        avatar = await storeAvatar(media, form.avatar);
      } catch (error) {
        if (!(error instanceof ImageInvalid)) throw error;
        errors.avatar = [t(page.lang, error.message)];
      }
    }
    const { current_password: _password, ...kept } = form.fields;
    const view = { ...settingsView(account), ...kept, bio: field(form.fields, 'bio', false) };
    if (Object.keys(errors).length) return sendPage(reply, AccountSettingsPage({ page, mailNote: mailNote(page, config), account: view, errors }), 400);
    const changes = {
      username: field(form.fields, 'username'),
      email: field(form.fields, 'email'),
      language: field(form.fields, 'language') as Lang,
      bio: field(form.fields, 'bio', false),
      homepage: profileLinks(form.fields).homepage,
      twitterHandle: profileLinks(form.fields).twitter_handle,
      facebookHandle: profileLinks(form.fields).facebook_handle,
      avatar,
    };
    const saved = await db
      .transaction(async (tx) => {
        const result = await updateAccount(tx, account.id, changes);
        if (result?.emailChanged) await mailEmailChange(tx, result.before, changes, accountLinks(config).confirm({ ...result.before, pendingEmail: changes.email }));
        return Boolean(result);
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) return false;
        throw error;
      });
    if (!saved && avatar) await removeAvatar(media, avatar);
    // A replaced or cleared avatar goes (unless a row still names the same content).
    if (saved && avatar !== undefined && account.avatar) await removeAvatar(media, account.avatar);
    if (!saved) return sendPage(reply, AccountSettingsPage({ page, mailNote: mailNote(page, config), account: view, errors: { username: [t(page.lang, 'A user with that username already exists.')] } }), 400);
    setLanguageCookie(request, reply, changes.language);
    return reply.redirect('/account/?saved=1', 302);
  });

  app.get('/accounts/password/change/', pageRoute(), async (request, reply) => {
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    const account = await loadAccount(app, page.user);
    return sendPage(reply, PasswordFormPage({ page, title: t(page.lang, 'Change password'), action: '/accounts/password/change/', withOld: hasPassword(account) }));
  });

  app.post('/accounts/password/change/', pageRoute({ body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    const body = request.body as FormBody;
    const account = await loadAccount(app, page.user);
    const errors = newPasswordErrors(page.lang, body, account);
    if (hasPassword(account) && !(await passwordMatches(request, field(body, 'oldpassword', false), account))) {
      errors.oldpassword = [t(page.lang, 'Please type your current password.')];
    }
    if (Object.keys(errors).length) {
      return sendPage(reply, PasswordFormPage({ page, title: t(page.lang, 'Change password'), action: '/accounts/password/change/', withOld: hasPassword(account), errors }), 400);
    }
    await db.transaction(async (tx) => {
      await setPassword(tx, account.id, field(body, 'password1', false));
      // Every session ends (see setPassword); this browser stays signed in with a fresh one.
      await startSession(tx, request, reply, account);
    });
    const renewed = { ...page, csrf: ensureCsrfToken(request, reply) }; // the new session's CSRF token
    return sendPage(reply, MessagePage({ page: renewed, title: t(page.lang, 'Change password'), message: t(page.lang, 'Password successfully changed.'), link: { href: '/account/', text: t(page.lang, 'Account Settings') } }));
  });

  app.get('/account/agreements/', pageRoute(), async (request, reply) => {
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    const agreements = (await loadTermsAgreements(db, page.user.id)).map((a) => ({ ...a, termsPath: organisationTextPath(a.slug, 'terms-of-use') }));
    return sendPage(reply, AgreementsPage({ page, agreements }));
  });

  app.withTypeProvider<TypeBoxTypeProvider>().post('/account/agreements/', pageRoute({ body: RepeatedFormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    const keep = fieldList(request.body, 'agreed').filter((id) => /^\d{1,9}$/.test(id)).map(Number);
    await db.transaction((tx) => withdrawTermsAgreements(tx, page.user.id, keep));
    return redirectWithMessage(request, reply, '/account/agreements/', 'Your changes have been saved.');
  });

  app.get('/account/notifications/', pageRoute(), async (request, reply) => {
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    return sendPage(reply, MailSettingsPage({ page, settings: await loadMailSettings(db, page.user.id) }));
  });

  app.withTypeProvider<TypeBoxTypeProvider>().post('/account/notifications/', pageRoute({ body: RepeatedFormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    const ids = (name: string) => fieldList(request.body, name).filter((id) => /^\d{1,9}$/.test(id)).map(Number);
    const input = {
      newsletters: field(request.body as FormBody, 'get_newsletters') === 'on',
      shownOrganisationIds: ids('shown_organisation'),
      wantedOrganisationIds: ids('organisation'),
      wantedNotifications: fieldList(request.body, 'notification').filter(isNotificationKind),
      // The in-app switches count only when the form showed them (an older form leaves them as they are).
      wantedInApp: field(request.body as FormBody, 'in_app_shown') === '1' ? fieldList(request.body, 'in_app').filter(isNotificationKind) : null,
    };
    await db.transaction((tx) => saveMailSettings(tx, page.user.id, input));
    return redirectWithMessage(request, reply, '/account/notifications/', 'Your changes have been saved.');
  });

  // The newsletter's unsubscribe link works without login (the signed token names user and
  // organisation). GET only asks, so a mail scanner following links changes nothing; the POST
  // needs no form token: mail programs send it without cookies (RFC 8058 one-click).
  const unsubscribe = async (request: FastifyRequest, reply: FastifyReply, token: string, done: boolean) => {
    const page = await pageContext(request, reply);
    const link = readLink(config.secretKey, 'unsubscribe', token);
    const organisationId = link && /^\d{1,9}$/.test(link.state) ? Number(link.state) : null;
    const organisation = organisationId === null ? null : await organisationName(db, organisationId);
    if (!link || organisationId === null || organisation === null) {
      return sendPage(reply, MessagePage({ page, title: t(page.lang, 'Unsubscribe from newsletters'), message: t(page.lang, 'This link is not valid.') }), 404);
    }
    if (done) await db.transaction((tx) => withdrawNewsletterConsent(tx, link.userId, organisationId));
    const texts = {
      title: t(page.lang, 'Unsubscribe from newsletters'),
      question: t(page.lang, 'Do you want to stop receiving newsletters from %(organisation)s?', { organisation }),
      confirmation: t(page.lang, 'You will no longer receive newsletters from %(organisation)s.', { organisation }),
    };
    return sendPage(reply, UnsubscribePage({ page, ...texts, done }));
  };
  // A notification e-mail's one-click link (issue 37, item 4): the signed token names the user and
  // the kind. As above: GET asks, POST (RFC 8058, no cookies, no form token) turns the kind off.
  const notificationsOff = async (request: FastifyRequest, reply: FastifyReply, token: string, done: boolean) => {
    const page = await pageContext(request, reply);
    const link = readLink(config.secretKey, 'notifications-off', token);
    const title = t(page.lang, 'Stop e-mails of this kind');
    const off = link?.state;
    if (!link || !off || !isNotificationKind(off)) return sendPage(reply, MessagePage({ page, title, message: t(page.lang, 'This link is not valid.') }), 404);
    const kind = t(page.lang, NOTIFICATION_KINDS[off]);
    if (done) await db.transaction((tx) => turnNotificationOff(tx, link.userId, off));
    const texts = {
      question: t(page.lang, 'Do you want to stop the e-mails "%(kind)s"?', { kind }),
      confirmation: t(page.lang, 'You will no longer receive the e-mails "%(kind)s". You can turn them on again in your account settings.', { kind }),
    };
    return sendPage(reply, UnsubscribePage({ page, title, ...texts, done }));
  };
  app.withTypeProvider<TypeBoxTypeProvider>().get('/accounts/notifications-off/:token/', pageRoute({ params: TokenParams }), (request, reply) => notificationsOff(request, reply, request.params.token, false));
  app.withTypeProvider<TypeBoxTypeProvider>().post('/accounts/notifications-off/:token/', pageRoute({ params: TokenParams }), (request, reply) => notificationsOff(request, reply, request.params.token, true));
  app.withTypeProvider<TypeBoxTypeProvider>().get('/accounts/unsubscribe/:token/', pageRoute({ params: TokenParams }), (request, reply) => unsubscribe(request, reply, request.params.token, false));
  app.withTypeProvider<TypeBoxTypeProvider>().post('/accounts/unsubscribe/:token/', pageRoute({ params: TokenParams }), (request, reply) => unsubscribe(request, reply, request.params.token, true));

  app.get('/account/account_deletion/', pageRoute(), async (request, reply) => {
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    return sendPage(reply, AccountDeletionPage({ page, withPassword: hasPassword(await loadAccount(app, page.user)) }));
  });

  app.post('/account/account_deletion/', pageRoute({ body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    const account = await loadAccount(app, page.user);
    if (hasPassword(account) && !(await passwordMatches(request, field(request.body as FormBody, 'password', false), account))) {
      return sendPage(reply, AccountDeletionPage({ page, withPassword: true, errors: { password: [t(page.lang, 'The password is not correct.')] } }), 400);
    }
    const files = await db.transaction(async (tx) => deleteAccount(tx, account.id));
    await media.remove(...files);
    await endSession(db, request, reply);
    const anonymous = { ...page, user: null, csrf: ensureCsrfToken(request, reply) };
    return sendPage(reply, MessagePage({ page: anonymous, title: t(page.lang, 'Delete account'), message: t(page.lang, 'Your account has been deleted.') }));
  });
}
