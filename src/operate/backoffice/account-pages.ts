import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { notFound } from '../../http/errors.js';
import { isLang, t } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { checkCsrf, FormBody, pageRoute } from '../../web/forms.js';
import { sendPage } from '../../web/render.js';
import { deleteAccount } from '../../core/users/deletion.js';
import { isValidEmail } from '../../core/users/rules.js';
import { emailTaken, findAccount, isUniqueViolation, queueConfirmationMail } from '../../core/users/services.js';
import { accountLinks } from '../../core/users/urls.js';
import { UserCarePage, UserDeletePage } from './account-views.js';
import { operator } from './access.js';
import { accountCare, userCarePath } from './rules.js';
import { changeKeepingASuperuser, correctEmail, loadCareTarget, setSuperuser } from './services.js';

const UserParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });
const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });
const NOTICES: Record<string, string> = {
  saved: 'Your changes have been saved.',
  sent: 'The confirmation e-mail has been sent.',
  corrected: 'The address was corrected; a confirmation e-mail has been sent to it.',
};
const ACTIONS = ['correct_email', 'resend_confirmation', 'grant_superuser', 'revoke_superuser'] as const;
type CareAction = (typeof ACTIONS)[number];
const isCareAction = (value: string | undefined): value is CareAction => (ACTIONS as readonly string[]).includes(value ?? '');
const ALLOWED_BY: Record<CareAction, 'correctEmail' | 'resendConfirmation' | 'grantSuperuser' | 'revokeSuperuser'> = {
  correct_email: 'correctEmail',
  resend_confirmation: 'resendConfirmation',
  grant_superuser: 'grantSuperuser',
  revoke_superuser: 'revokeSuperuser',
};

/** The back-office's page of one account: deletion on request, address correction, confirmation mail, superuser status. */
export async function accountCareRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.ctx;
  const { media } = app.ctx;

  /** The account and what the operator may do to it; 404 when there is none. */
  async function load(page: PageContext, id: number) {
    const target = await loadCareTarget(db, id);
    if (!target || !page.user) throw notFound();
    return { target, care: accountCare(page.user.id, target, target.activeSuperusers), operatorId: page.user.id };
  }

  const show = (reply: FastifyReply, page: PageContext, loaded: Awaited<ReturnType<typeof load>>, form: { email?: string; errors?: string[]; notice?: string | null; status?: number } = {}) =>
    sendPage(reply, UserCarePage({ page, ...loaded, email: form.email, errors: form.errors, notice: form.notice ?? null }), form.status ?? 200);

  app.get('/backoffice/users/:id/', pageRoute({ params: UserParams, querystring: DoneQuery }), async (request, reply) => {
    const page = await operator(request, reply);
    if (!page) return reply;
    return show(reply, page, await load(page, request.params.id), { notice: NOTICES[request.query.done ?? ''] ?? null });
  });

  app.post('/backoffice/users/:id/', pageRoute({ params: UserParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await operator(request, reply);
    if (!page) return reply;
    const loaded = await load(page, request.params.id);
    const { target, care, operatorId } = loaded;
    const action = request.body.action;
    if (!isCareAction(action) || !care[ALLOWED_BY[action]]) return show(reply, page, loaded, { notice: 'This is not possible for this account.', status: 400 });
    const back = (done: string) => reply.redirect(`${userCarePath(target.id)}?done=${done}`, 302);
    const lang = isLang(target.language) ? target.language : page.lang;
    if (action === 'grant_superuser' || action === 'revoke_superuser') {
      const on = action === 'grant_superuser';
      const done = await db.transaction((tx) => (on ? setSuperuser(tx, target.id, true).then(() => true) : changeKeepingASuperuser(tx, operatorId, target.id, () => setSuperuser(tx, target.id, false).then(() => true))));
      return done ? back('saved') : show(reply, page, await load(page, target.id), { notice: 'This is not possible for this account.', status: 400 });
    }
    if (action === 'resend_confirmation') {
      const account = await findAccount(db, target.id);
      if (account) await db.transaction((tx) => queueConfirmationMail(tx, account, lang, accountLinks(config).confirm(account)));
      return back('sent');
    }
    const email = (request.body.email ?? '').trim();
    const refuse = (message: string) => show(reply, page, loaded, { email, errors: [t(page.lang, message)], status: 400 });
    if (!isValidEmail(email)) return refuse('Enter a valid email address.');
    if (await emailTaken(db, email, target.id)) return refuse('A user is already registered with this e-mail address.');
    const corrected = await db
      .transaction(async (tx) => {
        await correctEmail(tx, target.id, email);
        const account = await findAccount(tx, target.id);
        if (account) await queueConfirmationMail(tx, account, lang, accountLinks(config).confirm(account));
        return true;
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) return false;
        throw error;
      });
    return corrected ? back('corrected') : refuse('A user is already registered with this e-mail address.');
  });

  app.get('/backoffice/users/:id/delete/', pageRoute({ params: UserParams }), async (request, reply) => {
    const page = await operator(request, reply);
    if (!page) return reply;
    const loaded = await load(page, request.params.id);
    if (!loaded.care.delete) return show(reply, page, loaded, { notice: 'This is not possible for this account.', status: 400 });
    return sendPage(reply, UserDeletePage({ page, target: loaded.target }));
  });

  app.post('/backoffice/users/:id/delete/', pageRoute({ params: UserParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await operator(request, reply);
    if (!page) return reply;
    const loaded = await load(page, request.params.id);
    if (!loaded.care.delete) return show(reply, page, loaded, { notice: 'This is not possible for this account.', status: 400 });
    const files = await db.transaction((tx) => changeKeepingASuperuser(tx, loaded.operatorId, loaded.target.id, () => deleteAccount(tx, loaded.target.id)));
    if (!files) return show(reply, page, await load(page, loaded.target.id), { notice: 'This is not possible for this account.', status: 400 });
    await media.remove(...files);
    return reply.redirect('/backoffice/users/?done=deleted', 302);
  });
}
