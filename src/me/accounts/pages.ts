import { mailDeliveryMode } from '../../mail/delivery.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { FieldErrors } from '../../http/errors.js';
import { ApiError, badRequest } from '../../http/errors.js';
import { isLang, type Lang, t } from '../../i18n/index.js';
import { type PageContext, pageContext } from '../../web/context.js';
import { redirectWithMessage } from '../../web/flash.js';
import { checkCsrf, field, FormBody, pageRoute, TokenParams } from '../../web/forms.js';
import { safeNext, sendPage } from '../../web/render.js';
import { challengePassed, honeypotFilled, issueQuestion } from '../../http/challenge.js';
import { oidcRoutes } from './oidc-pages.js';
import { takeSignupAttempt } from './signup-limits.js';
import { throttledLogin } from '../../core/users/auth.js';
import { endSession, setLanguageCookie, startSession } from '../../core/users/login.js';
import { MessagePage } from '../../web/layout.js';
import { ConfirmEmailPage, LoginPage, LogoutPage, PasswordFormPage, PasswordResetPage, SignupPage } from './views.js';
import { AFTER_LOGIN, type ConsentText, isValidEmail, signupConsentTexts } from '../../core/users/rules.js';
import { unwrittenPlatformPages } from '../../core/legal/queries.js';
import { accountLinks } from '../../core/users/urls.js';
import {
  type Account,
  confirmationState,
  confirmEmail,
  usernameAndEmailErrors,
  findAccount,
  findAccountForUpdate,
  findAccountByEmail,
  findAccountByLogin,
  passwordProblems,
  queueConfirmationMail,
  queueResetMail,
  recordLogin,
  resetState,
  setLanguage,
  signUp,
  markEmailVerified,
} from '../../core/users/services.js';
import { setPassword } from '../../core/users/credentials.js';
import { readLink } from '../../core/users/link-tokens.js';

export const NextQuery = Type.Object({ next: Type.Optional(Type.String({ maxLength: 2000 })) });



/** The account a link names, if the link is valid and the account still in the state it was made for. */
async function accountOfLink(app: FastifyInstance, purpose: 'confirm-email' | 'reset-password', token: string): Promise<Account | null> {
  const link = readLink(app.ctx.config.secretKey, purpose, token);
  if (!link) return null;
  const account = await findAccount(app.ctx.db, link.userId);
  if (!account?.isActive) return null;
  const state = purpose === 'confirm-email' ? confirmationState(account) : resetState(account);
  return state === link.state ? account : null;
}

/** On an install that sends no e-mails (no SMTP_URL), the "check your mail" screens say where the mail is: in the back-office. */
const TRIAL_MAIL_NOTE = 'This installation sends no e-mails yet (no SMTP_URL is set). The operator finds this e-mail with its link in the back-office under E-mails (/backoffice/mails/) and can open or pass it on.';
export const mailNote = (page: PageContext, config: Parameters<typeof mailDeliveryMode>[0]) => (mailDeliveryMode(config) === 'smtp' ? undefined : t(page.lang, TRIAL_MAIL_NOTE));

export const verificationSent = (page: PageContext, config: Parameters<typeof mailDeliveryMode>[0]) =>
  MessagePage({
    page,
    title: t(page.lang, 'Verify your e-mail address'),
    message: t(page.lang, 'We have sent an e-mail to you for verification. Follow the link provided to finalize the signup process.'),
    note: mailNote(page, config),
  });

/** The sign-up form's field errors (the guest's registration asks the same). */
export async function signupErrors(app: FastifyInstance, lang: Lang, body: FormBody, consent: ConsentText[]): Promise<FieldErrors> {
  const username = field(body, 'username');
  const email = field(body, 'email');
  const errors: FieldErrors = await usernameAndEmailErrors(app.ctx.db, lang, { username, email });
  const password1 = field(body, 'password1', false);
  const problems = password1 ? passwordProblems(lang, password1, username, email) : [t(lang, 'This field is required.')];
  if (problems.length) errors.password1 = problems;
  if (password1 && field(body, 'password2', false) !== password1) errors.password2 = [t(lang, 'You must type the same password each time.')];
  if (consent.length && field(body, 'terms_of_use') !== 'on') errors.terms_of_use = [t(lang, 'Please accept the terms of use and the data protection policy.')];
  return errors;
}

/** New password twice: errors for the form, none when fine. */
export function newPasswordErrors(lang: Lang, body: FormBody, account: { username: string; email: string }): FieldErrors {
  const errors: FieldErrors = {};
  const password1 = field(body, 'password1', false);
  const problems = password1 ? passwordProblems(lang, password1, account.username, account.email) : [t(lang, 'This field is required.')];
  if (problems.length) errors.password1 = problems;
  if (password1 && field(body, 'password2', false) !== password1) errors.password2 = [t(lang, 'You must type the same password each time.')];
  return errors;
}

export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;
  await app.register(oidcRoutes);

  app.get('/accounts/login/', pageRoute({ querystring: NextQuery }), async (request, reply) => {
    const page = await pageContext(request, reply);
    const next = safeNext((request.query as { next?: string }).next, AFTER_LOGIN);
    if (page.user) return reply.redirect(next, 302);
    return sendPage(reply, LoginPage({ page, next }));
  });

  app.post('/accounts/login/', pageRoute({ body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const body = request.body as FormBody;
    const page = await pageContext(request, reply);
    const next = safeNext(field(body, 'next'), AFTER_LOGIN);
    const login = field(body, 'login');
    const password = field(body, 'password', false);
    const refuse = (errors: FieldErrors) => sendPage(reply, LoginPage({ page, next, values: { login }, errors }), 400);
    if (!login || !password) {
      const required = [t(page.lang, 'This field is required.')];
      return refuse({ ...(login ? {} : { login: required }), ...(password ? {} : { password: required }) });
    }
    // The shared password check behind the failed-login throttle (429 while over the limit).
    const result = await throttledLogin(app.ctx, request.ip, login, password).catch((error: unknown) => {
      if (error instanceof ApiError && error.statusCode === 429) return error;
      throw error;
    });
    if (result instanceof ApiError) {
      const errors = { non_field_errors: [t(page.lang, 'Too many failed login attempts. Please try again later.')] };
      return sendPage(reply.headers(result.headers), LoginPage({ page, next, values: { login }, errors }), 429);
    }
    if (!result.ok && result.reason === 'unverified') {
      // Only someone who knows the password learns this: the confirmation e-mail is sent again.
      const account = await findAccountByLogin(db, login);
      if (account) {
        const link = accountLinks(app.ctx.config, next).confirm(account);
        await db.transaction(async (tx) => queueConfirmationMail(tx, account, page.lang, link));
      }
      return sendPage(reply, verificationSent(page, app.ctx.config));
    }
    if (!result.ok) return refuse({ non_field_errors: [t(page.lang, 'The username and/or password you specified are not correct.')] });
    const { user } = result;
    await db.transaction(async (tx) => {
      await recordLogin(tx, user.id);
      await startSession(tx, request, reply, user);
    });
    return reply.redirect(next, 302);
  });

  app.get('/accounts/logout/', pageRoute(), async (request, reply) => {
    const page = await pageContext(request, reply);
    if (!page.user) return reply.redirect('/accounts/login/', 302);
    return sendPage(reply, LogoutPage({ page }));
  });

  app.post('/accounts/logout/', pageRoute({ body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    await endSession(db, request, reply);
    return reply.redirect('/accounts/login/', 302);
  });

  app.get('/accounts/signup/', pageRoute({ querystring: NextQuery }), async (request, reply) => {
    const page = await pageContext(request, reply);
    const next = safeNext((request.query as { next?: string }).next, AFTER_LOGIN);
    if (page.user) return reply.redirect(next, 302);
    return sendPage(reply, SignupPage({ page, next, consent: signupConsentTexts(await unwrittenPlatformPages(db)), question: issueQuestion(app.ctx.config.secretKey) }));
  });

  app.post('/accounts/signup/', pageRoute({ body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const body = request.body as FormBody;
    const page = await pageContext(request, reply);
    const next = safeNext(field(body, 'next'), AFTER_LOGIN);
    const fields = (name: string) => field(body, name);
    // A robot that filled in the honeypot learns nothing: the usual answer, and nothing done.
    if (honeypotFilled(fields)) return sendPage(reply, verificationSent(page, app.ctx.config));
    const values = { username: fields('username'), email: fields('email'), terms_of_use: fields('terms_of_use'), get_newsletters: fields('get_newsletters') };
    const consent = signupConsentTexts(await unwrittenPlatformPages(db));
    const refuse = (errors: FieldErrors, status = 400) => sendPage(reply, SignupPage({ page, values, errors, next, consent, question: issueQuestion(app.ctx.config.secretKey) }), status);
    const errors = await signupErrors(app, page.lang, body, consent);
    if (Object.keys(errors).length) return refuse(errors);
    const limited = await takeSignupAttempt(app.ctx, request.ip, values.email);
    if (limited) {
      reply.headers(limited.headers);
      return refuse({ non_field_errors: [t(page.lang, 'Too many sign-ups from here. Please try again later.')] }, 429);
    }
    if (!(await challengePassed(db, app.ctx.config.secretKey, fields))) return refuse({ challenge: [t(page.lang, 'The spam check was not passed. Please try again.')] });
    // The same answer and the same work whether the address has an account or not (F13).
    const input = { ...values, password: field(body, 'password1', false), language: page.lang, getNewsletters: values.get_newsletters === 'on' };
    const outcome = await db.transaction((tx) => signUp(tx, input, accountLinks(app.ctx.config, next)));
    if (outcome === 'username-taken') return refuse({ username: [t(page.lang, 'A user with that username already exists.')] });
    return sendPage(reply, verificationSent(page, app.ctx.config));
  });

  app.get('/accounts/confirm-email/:token/', pageRoute({ params: TokenParams, querystring: NextQuery }), async (request, reply) => {
    const { token } = request.params as { token: string };
    const page = await pageContext(request, reply);
    const next = safeNext((request.query as { next?: string }).next, AFTER_LOGIN);
    const account = await accountOfLink(app, 'confirm-email', token);
    return sendPage(reply, ConfirmEmailPage({ page, token, valid: Boolean(account), next }), account ? 200 : 404);
  });

  app.post('/accounts/confirm-email/:token/', pageRoute({ params: TokenParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const { token } = request.params as { token: string };
    const link = readLink(app.ctx.config.secretKey, 'confirm-email', token);
    const confirmed = link
      ? await db.transaction(async (tx) => {
          const account = await confirmEmail(tx, link.userId, link.state);
          if (account) await startSession(tx, request, reply, account);
          return account;
        })
      : null;
    const next = safeNext(field(request.body as FormBody, 'next'), AFTER_LOGIN);
    if (confirmed) return redirectWithMessage(request, reply, next, 'Your e-mail address has been confirmed.');
    const page = await pageContext(request, reply);
    return sendPage(reply, ConfirmEmailPage({ page, token, valid: false, next }), 404);
  });

  app.get('/accounts/password/reset/', pageRoute(), async (request, reply) => sendPage(reply, PasswordResetPage({ page: await pageContext(request, reply) })));

  app.post('/accounts/password/reset/', pageRoute({ body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const body = request.body as FormBody;
    const page = await pageContext(request, reply);
    const email = field(body, 'email');
    if (!email || !isValidEmail(email)) {
      return sendPage(reply, PasswordResetPage({ page, values: { email }, errors: { email: [t(page.lang, 'Enter a valid email address.')] } }), 400);
    }
    const account = await findAccountByEmail(db, email);
    if (account?.isActive) {
      const link = accountLinks(app.ctx.config).reset(account);
      await db.transaction(async (tx) => queueResetMail(tx, account, page.lang, link));
    }
    return reply.redirect('/accounts/password/reset/done/', 302);
  });

  app.get('/accounts/password/reset/done/', pageRoute(), async (request, reply) => {
    const page = await pageContext(request, reply);
    return sendPage(
      reply,
      MessagePage({
        page,
        title: t(page.lang, 'Password reset'),
        message: t(page.lang, 'We have sent you an e-mail. If you have not received it please check your spam folder. Otherwise contact us if you do not receive it in a few minutes.'),
        note: mailNote(page, app.ctx.config),
      }),
    );
  });

  const invalidResetLink = (page: PageContext, reply: FastifyReply) =>
    sendPage(
      reply,
      MessagePage({
        page,
        title: t(page.lang, 'Bad token'),
        message: t(page.lang, 'The password reset link was invalid, possibly because it has already been used. Please request a new password reset.'),
        link: { href: '/accounts/password/reset/', text: t(page.lang, 'Password reset') },
      }),
      404,
    );

  app.get('/accounts/password/reset/key/:token/', pageRoute({ params: TokenParams }), async (request, reply) => {
    const { token } = request.params as { token: string };
    const page = await pageContext(request, reply);
    if (!(await accountOfLink(app, 'reset-password', token))) return invalidResetLink(page, reply);
    return sendPage(reply, PasswordFormPage({ page, title: t(page.lang, 'Change password'), action: `/accounts/password/reset/key/${token}/` }));
  });

  app.post('/accounts/password/reset/key/:token/', pageRoute({ params: TokenParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const { token } = request.params as { token: string };
    const page = await pageContext(request, reply);
    const account = await accountOfLink(app, 'reset-password', token);
    if (!account) return invalidResetLink(page, reply);
    const errors = newPasswordErrors(page.lang, request.body as FormBody, account);
    if (Object.keys(errors).length) {
      return sendPage(reply, PasswordFormPage({ page, title: t(page.lang, 'Change password'), action: `/accounts/password/reset/key/${token}/`, errors }), 400);
    }
    const changed = await db.transaction(async (tx) => {
      const current = await findAccountForUpdate(tx, account.id);
      if (!current || resetState(current) !== resetState(account)) return false;
      await setPassword(tx, account.id, field(request.body as FormBody, 'password1', false));
      await markEmailVerified(tx, account.id); // the link came by e-mail
      return true;
    });
    if (!changed) return invalidResetLink(page, reply);
    return sendPage(
      reply,
      MessagePage({ page, title: t(page.lang, 'Change password'), message: t(page.lang, 'Your password is now changed.'), link: { href: '/accounts/login/', text: t(page.lang, 'Login') } }),
    );
  });

  app.post(
    '/i18n/setlang/',
    pageRoute({ body: FormBody }),
    async (request, reply) => {
      checkCsrf(request);
      const body = request.body as FormBody;
      const language = field(body, 'language');
      if (!isLang(language)) throw badRequest('Unknown language.');
      const page = await pageContext(request, reply);
      const userId = page.user?.id;
      if (userId !== undefined) await db.transaction((tx) => setLanguage(tx, userId, language));
      setLanguageCookie(request, reply, language);
      return reply.redirect(safeNext(field(body, 'next'), '/'), 302);
    },
  );
}
