import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { type Static, Type } from 'typebox';
import { type AuthUser, currentUser, denied } from '../../http/auth.js';
import { notFound, permissionDenied } from '../../http/errors.js';
import { requestLanguage } from '../../http/i18n.js';
import { errorResponses, optionalAuth, PathId, rejectOtherMethods } from '../../http/responses.js';
import { absoluteUrl } from '../../http/urls.js';
import { t } from '../../i18n/index.js';
import { loadOrganisationTerms } from '../../core/organisations/queries.js';
import { ImageInvalid } from '../../media/images.js';
import { removePollImage, storePollImage, QUESTION_IMAGE_HELP } from './images.js';
import { loadPollContent, loadPollTarget, loadStoredQuestions, type PollTarget } from './queries.js';
import { BallotRefused, canChangePoll, canViewPoll, canVote, checkPollEdit, type EditProblem, imageAltTextProblems, pollIsReadOnly, type QuestionInput } from './rules.js';
import { Poll, pollSerializeContext, serializePoll } from './serialize.js';
import { captchaFields, savePoll, submitBallot } from './services.js';
import { readVoterToken, writeVoterToken } from './voter-cookie.js';

const Params = Type.Object({ pk: PathId });

/** Refusals with adhocracy4's bodies: `{"detail": …}`, field errors, or a list of messages. */
const Refusal = (description: string) => Type.Union([Type.Array(Type.String()), Type.Object({}, { additionalProperties: true })], { description });
const refusals = { 400: Refusal('The ballot or the edit is refused (adhocracy4 bodies)'), 404: Refusal('Not found, or an unknown choice') };

const VoteBody = Type.Object(
  {
    votes: Type.Record(Type.String(), Type.Unknown(), { description: 'question id → {"choices": [ids], "other_choice_answer": "", "open_answer": ""}; every key is required' }),
    captcha: Type.Optional(Type.String({ maxLength: 20000, description: 'the solved challenge of GET /challenge/ (base64 payload); required of unregistered voters' })),
    agreed_terms_of_use: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);

const ChoiceIn = Type.Object({ id: Type.Optional(PathId), label: Type.Optional(Type.String({ maxLength: 1000 })), is_other_choice: Type.Optional(Type.Boolean()) }, { additionalProperties: true });
const QuestionIn = Type.Object(
  {
    id: Type.Optional(PathId),
    label: Type.Optional(Type.String({ maxLength: 1000 })),
    help_text: Type.Optional(Type.String({ maxLength: 1000 })),
    multiple_choice: Type.Optional(Type.Boolean()),
    is_open: Type.Optional(Type.Boolean()),
    is_confidential: Type.Optional(Type.Boolean()),
    image_base64: Type.Optional(Type.Union([Type.String({ maxLength: 8_000_000 }), Type.Null()])),
    image_alt_text: Type.Optional(Type.String({ maxLength: 1000 })),
    choices: Type.Optional(Type.Array(ChoiceIn, { maxItems: 200 })),
  },
  { additionalProperties: true },
);
const EditBody = Type.Object(
  {
    allow_unregistered_users: Type.Optional(Type.Boolean({ description: 'read with default false, as adhocracy+: an edit that omits it switches unregistered voting off' })),
    hide_results_until_finished: Type.Optional(Type.Boolean()),
    questions: Type.Optional(Type.Array(QuestionIn, { maxItems: 200 })),
  },
  { additionalProperties: true },
);
type EditBody = Static<typeof EditBody>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The poll and caller found by the poll API's preValidation hook. */
    pollAccess: { user: AuthUser | null; target: PollTarget } | null;
  }
}

function pathId(value: unknown): number | null {
  const id = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  return id >= 1 && id <= 2147483647 ? id : null;
}

/** An edit problem as adhocracy4's nested field errors: `{"questions": [{}, {"label": ["…"]}]}`. */
function editErrors(problems: EditProblem[], lang: 'en' | 'de'): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const problem of problems) {
    const message = t(lang, problem.message, problem.vars);
    let node: Record<string, unknown> | unknown[] = body;
    const path = problem.path;
    for (let i = 0; i < path.length - 1; i++) {
      const key = path[i];
      const nextIsIndex = typeof path[i + 1] === 'number';
      const container = node as Record<string | number, unknown>;
      if (container[key] === undefined || !(typeof container[key] === 'object')) container[key] = nextIsIndex ? [] : {};
      node = container[key] as Record<string, unknown> | unknown[];
      if (Array.isArray(node)) for (let j = node.length; j < (path[i + 1] as number); j++) node.push({});
    }
    const container = node as Record<string | number, unknown>;
    const last = path[path.length - 1];
    const list = Array.isArray(container[last]) ? (container[last] as unknown[]) : [];
    list.push(message);
    container[last] = list;
  }
  return body;
}

const decodeBase64Image = (value: string): Buffer => Buffer.from(value.includes('base64,') ? value.slice(value.indexOf('base64,') + 7) : value, 'base64');

/** The poll API of adhocracy+ (§5.3): GET and PUT/PATCH /api/polls/<pk>/, POST /api/polls/<pk>/vote/. */
export async function pollRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.ctx;
  const { media } = app.ctx;
  app.decorateRequest('pollAccess', null);

  /** The poll, if the caller may see it: a poll in a private or draft project the caller cannot see is a 404. */
  async function visiblePoll(request: FastifyRequest, pk: number) {
    const user = await currentUser(request);
    const target = await loadPollTarget(db, pk, user);
    if (!target || !canViewPoll(target.rules)) throw notFound();
    return { user, target };
  }

  async function render(request: FastifyRequest, user: AuthUser | null, target: PollTarget) {
    const terms = await loadOrganisationTerms(db, target.rules.project.organisationId, user?.id ?? null);
    const lang = requestLanguage(request, user);
    const ctx = pollSerializeContext(target, terms, { mediaUrl: (path) => absoluteUrl(config.baseUrl, `/media/${path}`), imageHelpText: t(lang, QUESTION_IMAGE_HELP) });
    return serializePoll(await loadPollContent(db, target.poll.id, user?.id ?? null), ctx);
  }

  /** Before the body is checked: 404, 401 and 403 come before 400, as in DRF. */
  const access = (allowed: (target: PollTarget) => boolean, action: 'vote' | 'edit') => async (request: FastifyRequest) => {
    const pk = pathId((request.params as Record<string, unknown>).pk);
    if (pk === null) return;
    const { user, target } = await visiblePoll(request, pk);
    if (!allowed(target)) {
      // Logging in helps an anonymous visitor only where a signed-in user may act.
      if (!user && action === 'vote' && pollIsReadOnly(target.rules, target.poll)) throw permissionDenied();
      throw denied(user);
    }
    request.pollAccess = { user, target };
  };
  const found = (request: FastifyRequest) => {
    if (!request.pollAccess) throw notFound();
    return request.pollAccess;
  };
  const refuse = (reply: FastifyReply, error: BallotRefused) => reply.status(error.status).headers(error.headers).type('application/json; charset=utf-8').serializer(JSON.stringify).send(error.body);

  const tags = ['Polls'];

  app.get(
    '/api/polls/:pk/',
    { schema: { tags, summary: 'A poll with its questions, results and the caller’s votes', security: optionalAuth, params: Params, response: { 200: Poll, ...errorResponses(401, 404) } } },
    async (request) => {
      const { user, target } = await visiblePoll(request, request.params.pk);
      return render(request, user, target);
    },
  );

  app.post(
    '/api/polls/:pk/vote/',
    {
      preValidation: access((target) => canVote(target.rules, target.poll), 'vote'),
      schema: {
        tags,
        summary: 'Vote: the whole ballot in one transaction; a new ballot replaces the voter’s earlier votes',
        description:
          'Registered voters, and unregistered ones where the poll allows it (public projects): these send `captcha`, the solved challenge of GET /challenge/. A browser keeps its unregistered ballot in a cookie, so that voting again replaces it.',
        security: optionalAuth,
        params: Params,
        body: VoteBody,
        response: { 201: Poll, ...errorResponses(401, 403, 429), ...refusals },
      },
    },
    async (request, reply) => {
      const { user, target } = found(request);
      const token = user ? undefined : (readVoterToken(request, target.poll.id) ?? randomUUID());
      try {
        await submitBallot(app.ctx, {
          pollId: target.poll.id,
          address: request.ip,
          organisationId: target.rules.project.organisationId,
          projectId: target.rules.project.projectId,
          voter: user ? { userId: user.id } : { token: token ?? randomUUID() },
          votes: request.body.votes,
          agreedTermsOfUse: request.body.agreed_terms_of_use === true,
          challenge: captchaFields(request.body.captcha ?? ''),
        });
      } catch (error) {
        if (error instanceof BallotRefused) return refuse(reply, error);
        throw error;
      }
      if (token) writeVoterToken(reply, request, target.poll.id, token);
      const poll = await render(request, user, target);
      // As adhocracy4: an unregistered voter does not get the voting screen again.
      if (!user && poll.questions[0]) poll.questions[0].isReadOnly = true;
      return reply.status(201).send(poll);
    },
  );

  const edit = async (request: FastifyRequest<{ Body: EditBody }>, reply: FastifyReply) => {
    const { user, target } = found(request);
    const lang = requestLanguage(request, user);
    const body = request.body;
    const stored = await loadStoredQuestions(db, target.poll.id);
    const storedImages = new Set(stored.filter((q) => q.hasImage).map((q) => q.id));
    const newImages: string[] = [];
    const questions: QuestionInput[] | undefined = body.questions?.length
      ? body.questions.map((q) => ({
          id: q.id,
          label: q.label ?? '',
          helpText: q.help_text ?? '',
          multipleChoice: q.multiple_choice ?? false,
          isOpen: q.is_open ?? false,
          isConfidential: q.is_confidential ?? false,
          imageAltText: q.image_alt_text ?? '',
          image: q.image_base64 === '' ? null : undefined,
          choices: q.is_open ? [] : (q.choices ?? []).map((c) => ({ id: c.id, label: c.label ?? '', isOtherChoice: c.is_other_choice ?? false })),
        }))
      : undefined;
    const problems = questions ? checkPollEdit(questions, stored) : [];
    if (questions && !problems.length) {
      for (const [i, q] of (body.questions ?? []).entries()) {
        if (!q.image_base64) continue;
        try {
          const path = await storePollImage(media, decodeBase64Image(q.image_base64));
          newImages.push(path);
          questions[i].image = path;
        } catch (error) {
          if (!(error instanceof ImageInvalid)) throw error;
          problems.push({ path: ['questions', i, 'image_base64'], message: error.message });
        }
      }
      for (const problem of imageAltTextProblems(questions, storedImages)) if (!problems.some((p) => p.path[1] === problem.path[1])) problems.push(problem);
    }
    if (problems.length) {
      await removePollImage(media, ...newImages);
      return refuse(reply, new BallotRefused(400, editErrors(problems, lang)));
    }
    let unused: string[];
    try {
      unused = await db.transaction((tx) =>
        savePoll(tx, target.poll.id, { allowUnregisteredUsers: body.allow_unregistered_users ?? false, hideResultsUntilFinished: body.hide_results_until_finished, questions }),
      );
    } catch (error) {
      await removePollImage(media, ...newImages);
      throw error;
    }
    await removePollImage(media, ...unused);
    const reloaded = await loadPollTarget(db, target.poll.id, user);
    if (!reloaded) throw notFound();
    return reply.status(200).send(await render(request, user, reloaded));
  };

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/api/polls/:pk/',
      preValidation: access((target) => canChangePoll(target.rules), 'edit'),
      schema: {
        tags,
        summary: 'Edit the poll’s settings and questions (the dashboard’s editor)',
        description:
          'The question list is authoritative: questions and choices whose ids are missing are deleted, the order becomes the weight, items without id are added. An edit that would make results wrong after votes exist (switching multiple_choice or open, deleting a choice or question with votes) is refused with a message naming the votes.',
        params: Params,
        body: EditBody,
        response: { 200: Poll, ...errorResponses(401, 403), ...refusals },
      },
      handler: edit,
    });
  }

  rejectOtherMethods(app, '/api/polls/:pk/', ['GET', 'PUT', 'PATCH']);
  rejectOtherMethods(app, '/api/polls/:pk/vote/', ['POST']);
}
