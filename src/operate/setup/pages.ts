import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { t } from '../../i18n/index.js';
import { pageContext } from '../../web/context.js';
import { checkCsrf, FormBody, pageRoute } from '../../web/forms.js';
import { sendPage } from '../../web/render.js';
import { legalSettingsPath, SETUP_ORGANISATION_PATH } from '../../web/paths.js';
import { organisationNameError } from '../../core/organisations/rules.js';
import { operatorExists } from '../../core/users/queries.js';
import { passwordProblems, usernameAndEmailErrors } from '../../core/users/services.js';
import { startSession } from '../../core/users/login.js';
import { operator } from '../backoffice/access.js';
import { initiatorRefusal } from '../backoffice/rules.js';
import { appointInitiator, createOrganisation, findUser } from '../backoffice/services.js';
import { setupCodeMatches } from './rules.js';
import { createOperator } from './services.js';
import { OperatorSetupPage, OrganisationSetupPage } from './views.js';

const field = (body: FormBody, name: string) => (body[name] ?? '').trim();

/** The first-run setup (issue 37, item 1): the operator's account behind the setup code, then the first organisation. */
export async function setupRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.ctx;

  app.get('/setup/', pageRoute(), async (request, reply) => {
    const page = await pageContext(request, reply);
    if (await operatorExists(db)) return reply.redirect(page.user?.isSuperuser ? SETUP_ORGANISATION_PATH : '/', 302);
    return sendPage(reply, OperatorSetupPage({ page, form: { values: {}, errors: {} } }));
  });

  app.post('/setup/', pageRoute({ body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await pageContext(request, reply);
    const body = request.body;
    const values = { code: field(body, 'code'), username: field(body, 'username'), email: field(body, 'email') };
    const password = body.password ?? '';
    const again = (errors: Record<string, string[]>) => sendPage(reply, OperatorSetupPage({ page, form: { values, errors } }), 400);
    if (await operatorExists(db)) return again({ non_field_errors: [t(page.lang, 'This platform has been set up already. Log in with the operator account.')] });
    const errors = await usernameAndEmailErrors(db, page.lang, values);
    if (!setupCodeMatches(values.code, config.secretKey)) errors.code = [t(page.lang, 'This is not the setup code of the start log.')];
    const problems = passwordProblems(page.lang, password, values.username, values.email);
    if (problems.length) errors.password = problems;
    if (Object.keys(errors).length) return again(errors);
    const created = await db.transaction(async (tx) => {
      const account = await createOperator(tx, { username: values.username, email: values.email, password, language: page.lang });
      if (account) await startSession(tx, request, reply, account);
      return account;
    });
    if (!created) return again({ non_field_errors: [t(page.lang, 'This platform has been set up already. Log in with the operator account.')] });
    return reply.redirect(SETUP_ORGANISATION_PATH, 302);
  });

  app.get('/setup/organisation/', pageRoute(), async (request, reply) => {
    const page = await operator(request, reply);
    if (!page) return reply;
    return sendPage(reply, OrganisationSetupPage({ page, form: { values: { initiator: page.user.username }, errors: {} } }));
  });

  app.post('/setup/organisation/', pageRoute({ body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await operator(request, reply);
    if (!page) return reply;
    const values = { name: field(request.body, 'name'), initiator: field(request.body, 'initiator') };
    const errors: Record<string, string[]> = {};
    const nameError = organisationNameError(values.name);
    if (nameError) errors.name = [t(page.lang, nameError)];
    const initiator = values.initiator ? await findUser(db, values.initiator) : null;
    const refusal = initiator ? initiatorRefusal(initiator) : 'No user with this username or e-mail address.';
    if (refusal) errors.initiator = [t(page.lang, refusal)];
    if (!initiator || Object.keys(errors).length) return sendPage(reply, OrganisationSetupPage({ page, form: { values, errors } }), 400);
    const organisation = await db.transaction(async (tx) => {
      // The first organisation speaks the language the operator set it up in (its modules' names, its invitations).
      const created = await createOrganisation(tx, values.name, page.lang);
      const row = { ...created, name: values.name };
      await appointInitiator(tx, row, initiator.id, { username: page.user.username, origin: config.baseUrl });
      return row;
    });
    return reply.redirect(`${legalSettingsPath(organisation.slug)}?setup=1`, 302);
  });
}
