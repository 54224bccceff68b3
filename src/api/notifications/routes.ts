import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { BELL_MAX, requireUser } from '../../http/auth.js';
import { notFound } from '../../http/errors.js';
import { requestLanguage } from '../../http/i18n.js';
import { checkPageInRange, pageLinks, pageNumber, PageParam } from '../../http/pagination.js';
import { errorResponses, PathId, rejectOtherMethods } from '../../http/responses.js';
import { absoluteUrl } from '../../http/urls.js';
import { notificationsTopic } from '../../core/notifications/kinds.js';
import { loadNotification, loadNotifications, unreadNotificationCount } from '../../core/notifications/queries.js';
import { canMarkNotificationRead, canSeeNotification } from '../../core/notifications/rules.js';
import { markAllNotificationsRead, markNotificationRead } from '../../core/notifications/services.js';
import { NotificationSchema, serializeNotification } from './serialize.js';

const NOTIFICATIONS_API_PAGE_SIZE = 20;

const tags = ['notifications'];
const responses = errorResponses(401, 403, 404);
const IdParams = Type.Object({ pk: PathId });
const ListQuery = Type.Object({ page: PageParam, unread: Type.Optional(Type.Boolean({ description: 'Only the unread ones' })) });
const Page = Type.Object({
  count: Type.Integer(),
  unread: Type.Integer({ description: 'How many of all the user’s notifications are unread' }),
  next: Type.Union([Type.String(), Type.Null()]),
  previous: Type.Union([Type.String(), Type.Null()]),
  results: Type.Array(NotificationSchema),
});

/**
 * The notification centre's API (issue 34, item 3): the signed-in user's own notifications only
 * (token, JWT or session); another user's is 404, as if it did not exist (core/notifications/rules.ts).
 */
export async function notificationRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config, live } = app.ctx;
  const absolute = (path: string) => absoluteUrl(config.baseUrl, path);

  app.get('/api/notifications/', { schema: { summary: "The user's notifications, newest first", tags, querystring: ListQuery, response: { 200: Page, ...responses } } }, async (request) => {
    const user = await requireUser(request);
    const page = pageNumber(request.query.page);
    const { rows, count } = await loadNotifications(db, user.id, { page, size: NOTIFICATIONS_API_PAGE_SIZE, unreadOnly: request.query.unread });
    checkPageInRange(page, NOTIFICATIONS_API_PAGE_SIZE, count);
    const lang = requestLanguage(request, user);
    return {
      count,
      unread: await unreadNotificationCount(db, user.id),
      ...pageLinks(absolute(request.url), page, NOTIFICATIONS_API_PAGE_SIZE, count),
      results: rows.map((row) => serializeNotification(row, lang, absolute)),
    };
  });

  app.get(
    '/api/notifications/unread/',
    { schema: { summary: 'How many notifications are unread (the bell)', tags, response: { 200: Type.Object({ unread: Type.Integer(), max: Type.Integer({ description: 'The bell shows max - 1 and more as "99+"' }) }), ...responses } } },
    async (request) => {
      const user = await requireUser(request);
      return { unread: await unreadNotificationCount(db, user.id), max: BELL_MAX };
    },
  );

  app.post(
    '/api/notifications/read_all/',
    { schema: { summary: 'Marks all of the user’s notifications read', tags, response: { 200: Type.Object({ marked: Type.Integer() }), ...responses } } },
    async (request) => {
      const user = await requireUser(request);
      return { marked: await db.transaction((tx) => markAllNotificationsRead(tx, user.id)) };
    },
  );

  /** The user's own notification, or 404 (another's is not shown to exist). */
  const own = async (request: FastifyRequest, id: number, may: typeof canSeeNotification) => {
    const user = await requireUser(request);
    const row = await loadNotification(db, id);
    if (!row || !may(user, row)) throw notFound();
    return { user, row };
  };

  app.get('/api/notifications/:pk/', { schema: { summary: 'One notification', tags, params: IdParams, response: { 200: NotificationSchema, ...responses } } }, async (request) => {
    const { user, row } = await own(request, request.params.pk, canSeeNotification);
    return serializeNotification(row, requestLanguage(request, user), absolute);
  });

  app.post('/api/notifications/:pk/read/', { schema: { summary: 'Marks one notification read', tags, params: IdParams, response: { 200: NotificationSchema, ...responses } } }, async (request) => {
    const { user } = await own(request, request.params.pk, canMarkNotificationRead);
    await db.transaction((tx) => markNotificationRead(tx, user.id, request.params.pk));
    const row = await loadNotification(db, request.params.pk);
    if (!row) throw notFound();
    return serializeNotification(row, requestLanguage(request, user), absolute);
  });

  app.get(
    '/api/notifications/live/',
    {
      schema: {
        summary: "The user's notification stream (the bell's live count)",
        tags,
        querystring: Type.Object({ lastEventId: Type.Optional(Type.String({ maxLength: 4200 })) }),
        produces: ['text/event-stream'],
        response: { 200: Type.String({ description: 'text/event-stream' }), ...responses },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      return live.stream(request, reply, notificationsTopic(user.id));
    },
  );

  rejectOtherMethods(app, '/api/notifications/', ['GET']);
  rejectOtherMethods(app, '/api/notifications/unread/', ['GET']);
  rejectOtherMethods(app, '/api/notifications/read_all/', ['POST']);
  rejectOtherMethods(app, '/api/notifications/:pk/', ['GET']);
  rejectOtherMethods(app, '/api/notifications/:pk/read/', ['POST']);
  rejectOtherMethods(app, '/api/notifications/live/', ['GET']);
}
