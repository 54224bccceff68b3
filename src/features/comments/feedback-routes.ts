import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { apiErrors, PathId } from '../../http/responses.js';
import { commentFeedback } from '../../db/schema/index.js';
import { type AuthUser, currentUser, denied } from '../../http/auth.js';
import { badRequest, notFound } from '../../http/errors.js';
import { renderContext } from '../../http/render.js';
import { feedbackColumns } from './queries.js';
import { loadObjectContext } from '../../core/contenttypes/context.js';
import { contentTypeId } from '../../core/contenttypes/registry.js';
import { canGiveModeratorFeedback, canViewModeratorFeedback, FEEDBACK_TEXT_MAX_LENGTH } from './feedback-rules.js';
import { FeedbackSchema, serializeFeedback } from './feedback-serialize.js';
import { addCommentFeedback, deleteCommentFeedback, FeedbackExists, updateCommentFeedback } from './feedback-services.js';

const CommentParams = Type.Object({ comment_pk: PathId });
const FeedbackParams = Type.Object({ comment_pk: PathId, pk: PathId });
const FeedbackBody = Type.Object({ feedback_text: Type.String({ maxLength: FEEDBACK_TEXT_MAX_LENGTH }) });

export async function moderatorFeedbackRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.ctx;
  const base = '/api/comments/:comment_pk/moderatorfeedback/';

  /** The comment's project and what the user may do there; 404 for an unknown comment. */
  const access = async (commentPk: number, user: AuthUser | null) => {
    const context = await loadObjectContext(db, contentTypeId('comment'), commentPk, user, ['comment']);
    return { mayView: canViewModeratorFeedback(context), mayModerate: canGiveModeratorFeedback(context) };
  };

  const feedbackOf = async (params: { comment_pk: number; pk?: number }) => {
    const [row] = await db
      .select(feedbackColumns)
      .from(commentFeedback)
      .where(and(eq(commentFeedback.commentId, params.comment_pk), params.pk === undefined ? undefined : eq(commentFeedback.id, params.pk)));
    return row ?? null;
  };

  const asModerator = async (request: FastifyRequest, commentPk: number) => {
    const user = await currentUser(request);
    const { mayModerate } = await access(commentPk, user);
    if (!user || !mayModerate) throw denied(user);
    return { user, ctx: renderContext(request, user, config) };
  };

  app.get(base, { schema: { tags: ['moderator feedback'], params: CommentParams, response: { 200: Type.Array(FeedbackSchema), ...apiErrors } } }, async (request) => {
    const user = await currentUser(request);
    if (!(await access(request.params.comment_pk, user)).mayView) throw denied(user);
    const row = await feedbackOf(request.params);
    const ctx = renderContext(request, user, config);
    return row ? [serializeFeedback(row, ctx)] : [];
  });

  app.post(
    base,
    { schema: { tags: ['moderator feedback'], params: CommentParams, body: FeedbackBody, response: { 201: FeedbackSchema, ...apiErrors } } },
    async (request, reply) => {
      const { user, ctx } = await asModerator(request, request.params.comment_pk);
      const commentId = request.params.comment_pk;
      try {
        await db.transaction((tx) => addCommentFeedback(tx, { commentId, creatorId: user.id, feedbackText: request.body.feedback_text }, { origin: ctx.origin }));
      } catch (error) {
        if (error instanceof FeedbackExists) throw badRequest(error.message);
        throw error;
      }
      const row = await feedbackOf({ comment_pk: commentId });
      if (!row) throw notFound();
      return reply.status(201).send(serializeFeedback(row, ctx));
    },
  );

  const detail = `${base}:pk/`;
  app.get(detail, { schema: { tags: ['moderator feedback'], params: FeedbackParams, response: { 200: FeedbackSchema, ...apiErrors } } }, async (request) => {
    const user = await currentUser(request);
    if (!(await access(request.params.comment_pk, user)).mayView) throw denied(user);
    const row = await feedbackOf(request.params);
    if (!row) throw notFound();
    return serializeFeedback(row, renderContext(request, user, config));
  });

  const update = async (request: FastifyRequest, params: { comment_pk: number; pk: number }, text: string | undefined) => {
    const { user, ctx } = await asModerator(request, params.comment_pk);
    const existing = await feedbackOf(params);
    if (!existing) throw notFound();
    await db.transaction((tx) => updateCommentFeedback(tx, existing.id, user.id, text ?? existing.feedbackText, { origin: ctx.origin }));
    const row = await feedbackOf(params);
    if (!row) throw notFound();
    return serializeFeedback(row, ctx);
  };
  app.put(detail, { schema: { tags: ['moderator feedback'], params: FeedbackParams, body: FeedbackBody, response: { 200: FeedbackSchema, ...apiErrors } } }, (request) =>
    update(request, request.params, request.body.feedback_text),
  );
  app.patch(
    detail,
    { schema: { tags: ['moderator feedback'], params: FeedbackParams, body: Type.Partial(FeedbackBody), response: { 200: FeedbackSchema, ...apiErrors } } },
    (request) => update(request, request.params, request.body.feedback_text),
  );

  app.delete(detail, { schema: { tags: ['moderator feedback'], params: FeedbackParams, response: { 204: Type.Null(), ...apiErrors } } }, async (request, reply) => {
    await asModerator(request, request.params.comment_pk);
    const existing = await feedbackOf(request.params);
    if (!existing) throw notFound();
    await db.transaction((tx) => deleteCommentFeedback(tx, existing.id));
    return reply.status(204).send(null);
  });
}
