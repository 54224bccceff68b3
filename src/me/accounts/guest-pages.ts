import type { FastifyInstance } from 'fastify';
import type { FieldErrors } from '../../http/errors.js';
import { challengePassed, honeypotFilled, issueQuestion } from '../../http/challenge.js';
import { t } from '../../i18n/index.js';
import { pageContext, userPageContext } from '../../web/context.js';
import { redirectWithMessage } from '../../web/flash.js';
import { checkCsrf, field, FormBody, pageRoute } from '../../web/forms.js';
import { safeNext, sendPage } from '../../web/render.js';
import { startSession } from '../../core/users/login.js';
import { convertGuest, createGuest } from '../../core/users/guests.js';
import { AFTER_LOGIN, signupConsentTexts } from '../../core/users/rules.js';
import { accountLinks } from '../../core/users/urls.js';
import { unwrittenPlatformPages } from '../../core/legal/queries.js';
import { NextQuery, signupErrors, verificationSent } from './pages.js';
import { takeGuestAttempt } from './signup-limits.js';
import { GuestPage, SignupPage } from './views.js';

/**
 * Guests (issue 34.4, a+ `guest_user`): "take part as a guest" makes a guest user and signs this
 * browser in as it (after the terms, the per-address limit and the spam check); the guest's
 * registration turns that user into an account. Where a guest may take part is the rules' matter
 * (`guestMayParticipate` in core/projects/rules.ts).
 */
export async function guestRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;
  const consentTexts = async () => signupConsentTexts(await unwrittenPlatformPages(db));

  app.get('/accounts/guest/', pageRoute({ querystring: NextQuery }), async (request, reply) => {
    const page = await pageContext(request, reply);
    const next = safeNext((request.query as { next?: string }).next, '/');
    if (page.user) return reply.redirect(next, 302);
    return sendPage(reply, GuestPage({ page, next, consent: await consentTexts(), question: issueQuestion(app.ctx.config.secretKey) }));
  });

  app.post('/accounts/guest/', pageRoute({ body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const body = request.body as FormBody;
    const page = await pageContext(request, reply);
    const next = safeNext(field(body, 'next'), '/');
    const fields = (name: string) => field(body, name);
    if (page.user) return reply.redirect(next, 302);
    // A robot that filled in the honeypot is sent on as a person would be, without a guest.
    if (honeypotFilled(fields)) return reply.redirect(next, 302);
    const values = { terms_of_use: fields('terms_of_use') };
    const consent = await consentTexts();
    const refuse = (errors: FieldErrors, status = 400) => sendPage(reply, GuestPage({ page, next, values, errors, consent, question: issueQuestion(app.ctx.config.secretKey) }), status);
    if (consent.length && values.terms_of_use !== 'on') return refuse({ terms_of_use: [t(page.lang, 'Please accept the terms of use and the data protection policy.')] });
    const limited = await takeGuestAttempt(app.ctx, request.ip);
    if (limited) {
      reply.headers(limited.headers);
      return refuse({ non_field_errors: [t(page.lang, 'Too many guests from here. Please try again later.')] }, 429);
    }
    if (!(await challengePassed(db, app.ctx.config.secretKey, fields))) return refuse({ challenge: [t(page.lang, 'The spam check was not passed. Please try again.')] });
    await db.transaction(async (tx) => startSession(tx, request, reply, await createGuest(tx, page.lang)));
    return redirectWithMessage(request, reply, next, 'You take part as a guest now.');
  });

  app.get('/accounts/guest/convert/', pageRoute({ querystring: NextQuery }), async (request, reply) => {
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    if (!page.user.isGuest) return reply.redirect('/account/', 302);
    const next = safeNext((request.query as { next?: string }).next, AFTER_LOGIN);
    return sendPage(reply, SignupPage({ page, next, consent: await consentTexts() }));
  });

  app.post('/accounts/guest/convert/', pageRoute({ body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    if (!page.user.isGuest) return reply.redirect('/account/', 302);
    const body = request.body as FormBody;
    const next = safeNext(field(body, 'next'), AFTER_LOGIN);
    const values = { username: field(body, 'username'), email: field(body, 'email'), terms_of_use: field(body, 'terms_of_use'), get_newsletters: field(body, 'get_newsletters') };
    const consent = await consentTexts();
    const refuse = (errors: FieldErrors) => sendPage(reply, SignupPage({ page, values, errors, next, consent }), 400);
    const errors = await signupErrors(app, page.lang, body, consent);
    if (Object.keys(errors).length) return refuse(errors);
    const input = { ...values, password: field(body, 'password1', false), language: page.lang, getNewsletters: values.get_newsletters === 'on' };
    const outcome = await db.transaction((tx) => convertGuest(tx, page.user.id, input, accountLinks(app.ctx.config, next)));
    if (outcome === 'username-taken') return refuse({ username: [t(page.lang, 'A user with that username already exists.')] });
    if (outcome === 'not-a-guest') return reply.redirect('/account/', 302);
    // Converted or not (the address has an account: its owner was told), the same answer (F13).
    return sendPage(reply, verificationSent(page, app.ctx.config));
  });
}
