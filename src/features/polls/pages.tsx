import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { Type } from 'typebox';
import { notFound, permissionDenied } from '../../http/errors.js';
import { Slug } from '../../http/responses.js';
import { pageContext } from '../../web/context.js';
import { redirectWithMessage } from '../../web/flash.js';
import { checkCsrf, field, fieldList, pageRoute, RepeatedFormBody } from '../../web/forms.js';
import { ORGANISATION_TERMS_FIELD } from '../../web/organisation-terms.js';
import { loginRedirectUrl } from '../../web/render.js';
import { loadModulePage } from '../../core/modules/queries.js';
import { modulePath } from '../../core/urls.js';
import { loadModulePoll, loadPollContent } from './queries.js';
import { BallotRefused, canViewPoll, canVote, pollIsReadOnly } from './rules.js';
import { submitBallot } from './services.js';
import { readVoterToken, writeVoterToken } from './voter-cookie.js';

const Params = Type.Object({ org: Slug, slug: Slug });

/** The first message of a refused ballot, whatever its adhocracy4 shape. */
function refusalMessage(body: unknown): string {
  if (typeof body === 'string') return body;
  if (Array.isArray(body)) return refusalMessage(body[0]);
  if (body && typeof body === 'object') return refusalMessage(Object.values(body)[0]);
  return 'Please check your answers.';
}

/** The module page's poll form (without JavaScript, and with web/static/poll-steps.js, which shows it step by step). */
export async function pollPages(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;

  app.post('/:org/projects/module/:slug/poll/', pageRoute({ params: Params, body: RepeatedFormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await pageContext(request, reply);
    const found = (await loadModulePage(db, request.params.org, request.params.slug, null))?.module;
    if (!found) throw notFound();
    const target = await loadModulePoll(db, found.id, page.user);
    if (!target || !canViewPoll(target.rules)) throw notFound();
    const back = modulePath(request.params.org, request.params.slug);
    if (!canVote(target.rules, target.poll)) {
      if (!page.user && !pollIsReadOnly(target.rules, target.poll)) return reply.redirect(loginRedirectUrl(back), 302);
      throw permissionDenied();
    }
    const { questions } = await loadPollContent(db, target.poll.id, null);
    const body = request.body;
    const votes = Object.fromEntries(
      questions.map((q) => [
        String(q.id),
        { choices: fieldList(body, `q${q.id}`).map((v) => (/^\d{1,9}$/.test(v) ? Number(v) : -1)), other_choice_answer: field(body, `q${q.id}_other`), open_answer: field(body, `q${q.id}_open`) },
      ]),
    );
    const token = page.user ? undefined : (readVoterToken(request, target.poll.id) ?? randomUUID());
    try {
      await submitBallot(app.ctx, {
        pollId: target.poll.id,
        address: request.ip,
        organisationId: target.rules.project.organisationId,
        projectId: target.rules.project.projectId,
        voter: page.user ? { userId: page.user.id } : { token: token ?? randomUUID() },
        votes,
        agreedTermsOfUse: field(body, ORGANISATION_TERMS_FIELD) === 'on',
        challenge: (name) => field(body, name),
      });
    } catch (error) {
      if (error instanceof BallotRefused) return redirectWithMessage(request, reply, `${back}#poll-${target.poll.id}-form`, error.pageMessage ?? refusalMessage(error.body));
      throw error;
    }
    if (token) writeVoterToken(reply, request, target.poll.id, token);
    return redirectWithMessage(request, reply, back, 'Thank you for taking part in the poll.');
  });
}
