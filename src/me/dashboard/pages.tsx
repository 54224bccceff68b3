import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { DbOrTx } from '../../db/client.js';
import { userPageContext } from '../../web/context.js';
import { pageRoute } from '../../web/forms.js';
import { sendPage } from '../../web/render.js';
import { ActivitiesPage, FollowingPage, OverviewPage } from './views.js';
import { feedEntries, feedItemPages, feedPage } from './queries.js';
import { followedProjects, participatedProjects } from '../../core/projects/tiles.js';
import { sidebarOf } from './sidebar.js';
import { moderationPageRoutes } from './moderation-pages.js';
import { notificationPageRoutes } from './notification-pages.js';
import { carousel } from './rules.js';
import { byParticipation } from '../../core/projects/rules.js';
import { loadCommentPaths } from '../../features/comments/queries.js';
import { linkedComments, toActivity } from './view-model.js';

const OVERVIEW_FEED_SIZE = 5;
const ACTIVITIES_PAGE_SIZE = 20;

const ActivitiesQuery = Type.Object({ before: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })) });


/** A page of the feed, plus whether more follow (one row more is fetched to know). */
async function activities(db: DbOrTx, userId: number, size: number, before?: number) {
  const ids = await feedPage(db, userId, size + 1, before);
  const entries = await feedEntries(db, ids.slice(0, size));
  const paths = await loadCommentPaths(db, linkedComments(entries));
  const items = await feedItemPages(db, entries);
  return { activities: entries.map((entry) => toActivity(entry, paths, items)), more: ids.length > size };
}

/** The user dashboard's pages (overview, activities, following) and, registered here, its moderation pages. */
export async function dashboardPages(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;

  app.get('/userdashboard/overview/', pageRoute(), async (request, reply) => {
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    const now = new Date();
    const followed = await app.ctx.media.withTileSrcsets(await followedProjects(db, page.user.id));
    const feed = await activities(db, page.user.id, OVERVIEW_FEED_SIZE);
    const data = {
      sidebar: await sidebarOf(db, page.user, followed),
      carousel: carousel(followed, now),
      followingCount: followed.length,
      participated: byParticipation(await app.ctx.media.withTileSrcsets(await participatedProjects(db, page.user.id)), now),
      activities: feed.activities,
      moreActivities: feed.more,
      now,
    };
    return sendPage(reply, OverviewPage({ page, data }));
  });

  app.get('/userdashboard/overview/activities/', pageRoute({ querystring: ActivitiesQuery }), async (request, reply) => {
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    const { before } = request.query;
    const followed = await followedProjects(db, page.user.id);
    const feed = await activities(db, page.user.id, ACTIVITIES_PAGE_SIZE, before);
    const last = feed.activities.at(-1);
    const olderUrl = feed.more && last ? `/userdashboard/overview/activities/?before=${last.id}` : null;
    const sidebar = await sidebarOf(db, page.user, followed);
    return sendPage(reply, ActivitiesPage({ page, sidebar, activities: feed.activities, olderUrl, paged: before !== undefined }));
  });

  app.get('/userdashboard/overview/following/', pageRoute(), async (request, reply) => {
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    const followed = await app.ctx.media.withTileSrcsets(await followedProjects(db, page.user.id));
    const sidebar = await sidebarOf(db, page.user, followed);
    return sendPage(reply, FollowingPage({ page, sidebar, projects: followed, now: new Date() }));
  });

  app.get('/userdashboard/', pageRoute(), async (_request, reply) => reply.redirect('/userdashboard/overview/', 302));

  await app.register(moderationPageRoutes);
  await app.register(notificationPageRoutes);
}
