import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { notFound } from '../../http/errors.js';
import { checkPageInRange, pageLinks, pageNumber, PageParam } from '../../http/pagination.js';
import { PathId } from '../../http/responses.js';
import { isSameOriginPath } from '../../http/urls.js';
import { notificationText } from '../../core/notifications/kinds.js';
import { loadNotification, loadNotifications, unreadNotificationCount } from '../../core/notifications/queries.js';
import { canMarkNotificationRead, canSeeNotification } from '../../core/notifications/rules.js';
import { markAllNotificationsRead, markNotificationRead } from '../../core/notifications/services.js';
import { userPageContext } from '../../web/context.js';
import { redirectWithMessage } from '../../web/flash.js';
import { checkCsrf, pageRoute } from '../../web/forms.js';
import { NOTIFICATIONS_PATH } from '../../web/paths.js';
import { sendPage } from '../../web/render.js';
import { notificationOpenPath, NOTIFICATIONS_READ_ALL_PATH, NotificationsPage } from './notification-views.js';
import { followedProjects } from '../../core/projects/tiles.js';
import { sidebarOf } from './sidebar.js';

const NOTIFICATIONS_PAGE_SIZE = 20;

const ListQuery = Type.Object({ page: PageParam, unread: Type.Optional(Type.String({ maxLength: 10 })) });
const IdParams = Type.Object({ id: PathId });

/** The notification centre (issue 34, item 3): the list, opening one (it is read then), marking read. */
export async function notificationPageRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;

  app.get(NOTIFICATIONS_PATH, pageRoute({ querystring: ListQuery }), async (request, reply) => {
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    const number = pageNumber(request.query.page);
    const unreadOnly = request.query.unread === '1';
    const { rows, count } = await loadNotifications(db, page.user.id, { page: number, size: NOTIFICATIONS_PAGE_SIZE, unreadOnly });
    checkPageInRange(number, NOTIFICATIONS_PAGE_SIZE, count);
    const items = rows.map((row) => ({ id: row.id, text: notificationText(page.lang, row), openUrl: isSameOriginPath(row.targetUrl) ? notificationOpenPath(row.id) : null, read: row.read, created: row.created }));
    const data = { items, unreadOnly, unread: await unreadNotificationCount(db, page.user.id), pager: pageLinks(request.url, number, NOTIFICATIONS_PAGE_SIZE, count) };
    return sendPage(reply, NotificationsPage({ page, sidebar: await sidebarOf(db, page.user, await followedProjects(db, page.user.id)), data }));
  });

  /** The user's own notification, or 404 (another's is not shown to exist). */
  const own = async (request: FastifyRequest, reply: FastifyReply, id: number, may: typeof canSeeNotification) => {
    const page = await userPageContext(request, reply);
    if (!page) return null;
    const row = await loadNotification(db, id);
    if (!row || !may(page.user, row)) throw notFound();
    return { page, row };
  };

  // Opening a notification reads it and leads to its place (a+'s mark_notification_as_read); only its recipient's.
  app.get(`${NOTIFICATIONS_PATH}:id/`, pageRoute({ params: IdParams }), async (request, reply) => {
    const found = await own(request, reply, request.params.id, canSeeNotification);
    if (!found) return reply;
    await db.transaction((tx) => markNotificationRead(tx, found.page.user.id, found.row.id));
    return reply.redirect(isSameOriginPath(found.row.targetUrl) ? found.row.targetUrl : NOTIFICATIONS_PATH, 302);
  });

  app.post(`${NOTIFICATIONS_PATH}:id/read/`, pageRoute({ params: IdParams }), async (request, reply) => {
    checkCsrf(request);
    const found = await own(request, reply, request.params.id, canMarkNotificationRead);
    if (!found) return reply;
    await db.transaction((tx) => markNotificationRead(tx, found.page.user.id, found.row.id));
    return redirectWithMessage(request, reply, NOTIFICATIONS_PATH, 'The notification is marked as read.');
  });

  app.post(NOTIFICATIONS_READ_ALL_PATH, pageRoute(), async (request, reply) => {
    checkCsrf(request);
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    await db.transaction((tx) => markAllNotificationsRead(tx, page.user.id));
    return redirectWithMessage(request, reply, NOTIFICATIONS_PATH, 'All notifications are marked as read.');
  });
}
