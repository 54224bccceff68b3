import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { apiErrors, PathId } from '../../http/responses.js';
import { ratings } from '../../db/schema/index.js';
import { type AuthUser, denied, requireUser } from '../../http/auth.js';
import { notFound, permissionDenied } from '../../http/errors.js';
import { canViewComments } from '../comments/rules.js';
import { canChangeRating, canRateObject } from './rules.js';
import { loadRatingSummaries } from '../comments/queries.js';
import { loadObjectContext, type ObjectContext } from '../../core/contenttypes/context.js';
import { rateable } from '../../core/contenttypes/registry.js';
import { addRating, RatingExists, setRating } from './services.js';

const ObjectParams = Type.Object({ ct: PathId, pk: PathId });
const DetailParams = Type.Object({ ct: PathId, pk: PathId, id: PathId });
const RatingBody = Type.Object({ value: Type.Integer({ minimum: -2147483648, maximum: 2147483647 }) });
const RatingSchema = Type.Object({
  id: Type.Integer(),
  value: Type.Integer(),
  meta_info: Type.Object({
    positive_ratings_on_same_object: Type.Integer(),
    negative_ratings_on_same_object: Type.Integer(),
    user_rating_on_same_object_value: Type.Union([Type.Integer(), Type.Null()]),
    user_rating_on_same_object_id: Type.Union([Type.Integer(), Type.Null()]),
  }),
});

/**
 * A second rating of the same object: 400 with a4's body, the existing rating's id in a list of one
 * text (DRF's `ValidationError(pk)`), which a4's rating widget reads to switch to an update. The
 * readable reason goes into the `X-Detail` header, never into the body.
 */
const AlreadyRated = Type.Array(Type.String(), { description: "already rated: the id of the caller's existing rating of the object (a4's shape); the reason in the X-Detail header" });

export async function ratingRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;

  const objectFor = async (params: { ct: number; pk: number }, user: AuthUser) => {
    const context = await loadObjectContext(db, params.ct, params.pk, user, rateable());
    if (!canViewComments(context)) throw permissionDenied();
    return context;
  };

  /** RatingSerializer: the rating with the object's counts and the user's own rating. */
  const render = async (context: ObjectContext, ratingId: number, user: AuthUser) => {
    const [row] = await db.select({ id: ratings.id, value: ratings.value }).from(ratings).where(eq(ratings.id, ratingId));
    const summary = (await loadRatingSummaries(db, context.target.kind, [context.target.id], user.id)).get(context.target.id);
    return {
      id: row.id,
      value: row.value,
      meta_info: {
        positive_ratings_on_same_object: summary?.positive ?? 0,
        negative_ratings_on_same_object: summary?.negative ?? 0,
        user_rating_on_same_object_value: summary?.userRatingValue ?? null,
        user_rating_on_same_object_id: summary?.userRatingId ?? null,
      },
    };
  };

  app.post(
    '/api/contenttypes/:ct/objects/:pk/ratings/',
    { schema: { tags: ['ratings'], params: ObjectParams, body: RatingBody, response: { 201: RatingSchema, ...apiErrors, 400: Type.Union([apiErrors[400], AlreadyRated]) } } },
    async (request, reply) => {
      const user = await requireUser(request);
      const context = await objectFor(request.params, user);
      if (!canRateObject(context, context.target)) throw denied(user);
      try {
        const id = await db.transaction((tx) => addRating(tx, user.id, { type: context.target.kind, id: context.target.id }, request.body.value));
        return reply.status(201).send(await render(context, id, user));
      } catch (error) {
        if (!(error instanceof RatingExists)) throw error;
        return reply.status(400).header('x-detail', error.message).send([String(error.ratingId)]);
      }
    },
  );

  /** The user's own rating on this object, or 404 / 403. */
  const ownRating = async (request: FastifyRequest, params: { ct: number; pk: number; id: number }) => {
    const user = await requireUser(request);
    const context = await objectFor(params, user);
    const [row] = await db
      .select({ id: ratings.id, creatorId: ratings.creatorId })
      .from(ratings)
      .where(and(eq(ratings.id, params.id), eq(ratings.contentType, context.target.kind), eq(ratings.objectPk, context.target.id)));
    if (!row) throw notFound();
    if (!canChangeRating(context, context.target, row)) throw permissionDenied();
    return { user, context, ratingId: row.id };
  };

  const update = async (request: FastifyRequest<{ Params: { ct: number; pk: number; id: number }; Body: { value?: number } }>) => {
    const { user, context, ratingId } = await ownRating(request, request.params);
    const { value } = request.body;
    if (value !== undefined) await db.transaction((tx) => setRating(tx, ratingId, value));
    return render(context, ratingId, user);
  };
  const detail = (body: typeof RatingBody | ReturnType<typeof Type.Partial<typeof RatingBody>>) => ({
    schema: { tags: ['ratings'], params: DetailParams, body, response: { 200: RatingSchema, ...apiErrors } },
  });
  app.put('/api/contenttypes/:ct/objects/:pk/ratings/:id/', detail(RatingBody), update);
  app.patch('/api/contenttypes/:ct/objects/:pk/ratings/:id/', detail(Type.Partial(RatingBody)), update);

  app.delete(
    '/api/contenttypes/:ct/objects/:pk/ratings/:id/',
    { schema: { tags: ['ratings'], params: DetailParams, response: { 200: RatingSchema, ...apiErrors } } },
    async (request) => {
      const { user, context, ratingId } = await ownRating(request, request.params);
      await db.transaction((tx) => setRating(tx, ratingId, 0));
      return render(context, ratingId, user);
    },
  );
}
