import { extname } from 'node:path';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ZipFile } from 'yazl';
import type { DbOrTx } from '../../db/client.js';
import type { Media } from '../../media/store.js';
import {
  commentFeedback,
  comments,
  follows,
  organisationInitiators,
  organisationMembers,
  organisations,
  projects,
  ratings,
  reports,
  socialAccounts,
  users,
} from '../../db/schema/index.js';
import { takeRateLimited } from '../../http/throttle.js';
import { userPageContext } from '../../web/context.js';
import { checkCsrf, FormBody, pageRoute } from '../../web/forms.js';
import { loadTermsAgreements } from '../../core/organisations/queries.js';
import { moduleContentTypes } from '../../core/modules/registry.js';

/**
 * GDPR access and portability (Art. 15, 20): everything the platform stores about one user and
 * that the user made, as JSON files and the user's uploaded images in one zip archive. Only the
 * user's own rows are read (every query filters by the user's id); others' content is named by
 * its id at most, never copied.
 */
export const EXPORT_LIMIT = { perWindow: 5, windowSeconds: 3600 };

type Row = Record<string, unknown>;

/** One archive: JSON documents by file name, and the user's images (media-relative path → name in the archive). */
interface AccountData {
  documents: Record<string, unknown>;
  images: { media: string; name: string }[];
}

const imageName = (folder: string, id: number | string, media: string) => `images/${folder}/${id}${extname(media)}`;

/** Loads a user's data; null when the user does not exist. */
async function loadAccountData(db: DbOrTx, userId: number): Promise<AccountData | null> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return null;
  const byCreator = <T extends { creatorId: unknown }>(table: T) => eq(table.creatorId as never, userId);
  const [ownComments, ownRatings, ownFollows, ownReports, ownFeedback, social, initiatorOf, memberOf, agreements] = await Promise.all([
    db.select().from(comments).where(byCreator(comments)).orderBy(asc(comments.id)),
    db.select().from(ratings).where(byCreator(ratings)).orderBy(asc(ratings.id)),
    db.select({ follow: follows, project: projects.name, slug: projects.slug }).from(follows).innerJoin(projects, eq(projects.id, follows.projectId)).where(byCreator(follows)).orderBy(asc(follows.id)),
    db.select().from(reports).where(byCreator(reports)).orderBy(asc(reports.id)),
    db.select().from(commentFeedback).where(byCreator(commentFeedback)).orderBy(asc(commentFeedback.id)),
    db.select({ provider: socialAccounts.provider }).from(socialAccounts).where(eq(socialAccounts.userId, userId)),
    db.select({ name: organisations.name }).from(organisationInitiators).innerJoin(organisations, eq(organisations.id, organisationInitiators.organisationId)).where(eq(organisationInitiators.userId, userId)),
    db.select({ name: organisations.name }).from(organisationMembers).innerJoin(organisations, eq(organisations.id, organisationMembers.organisationId)).where(eq(organisationMembers.userId, userId)),
    loadTermsAgreements(db, userId),
  ]);
  const images: AccountData['images'] = [];
  const image = (folder: string, id: number | string, media: string | null) => {
    if (!media) return null;
    const name = imageName(folder, id, media);
    images.push({ media, name });
    return name;
  };
  const account: Row = {
    id: user.id,
    username: user.username,
    email: user.email,
    email_verified: user.emailVerified,
    language: user.language,
    bio: user.bio,
    homepage: user.homepage,
    twitter_handle: user.twitterHandle,
    facebook_handle: user.facebookHandle,
    avatar: image('avatar', user.id, user.avatar),
    get_notifications: user.getNotifications,
    get_newsletters: user.getNewsletters,
    date_joined: user.dateJoined,
    last_login: user.lastLogin,
    is_superuser: user.isSuperuser,
    social_logins: social.map((s) => s.provider),
    initiator_of_organisations: initiatorOf.map((o) => o.name),
    member_of_organisations: memberOf.map((o) => o.name),
    agreed_to_terms_of_use_of: agreements.map((a) => ({ organisation: a.name, since: a.created })),
  };
  const contentFiles: Record<string, unknown> = {};
  for (const contentType of moduleContentTypes()) {
    if (!contentType.personalData) continue;
    const { file, records } = await contentType.personalData(db, userId, image);
    contentFiles[file] = records;
  }
  const documents = {
    'account.json': account,
    // Each content type's own objects (ideas.json, …), in registration order.
    ...contentFiles,
    'comments.json': ownComments.map((c) => ({
      id: c.id,
      on: { type: c.contentType, id: c.objectPk },
      comment: c.comment,
      categories: c.commentCategories,
      is_removed: c.isRemoved,
      is_censored: c.isCensored,
      is_blocked: c.isBlocked,
      created: c.created,
      modified: c.modified,
    })),
    'ratings.json': ownRatings.map((r) => ({ on: { type: r.contentType, id: r.objectPk }, value: r.value, created: r.created, modified: r.modified })),
    'follows.json': ownFollows.map(({ follow, project, slug }) => ({ project, project_slug: slug, enabled: follow.enabled, created: follow.created })),
    'reports.json': ownReports.map((r) => ({ on: { type: r.contentType, id: r.objectPk }, description: r.description, created: r.created })),
    'moderator_feedback.json': ownFeedback.map((f) => ({ comment: f.commentId, feedback_text: f.feedbackText, created: f.created, modified: f.modified })),
  };
  return { documents, images };
}

/** The archive as a stream: JSON files first, then the images that are still stored. */
async function accountArchive(data: AccountData, media: Media): Promise<NodeJS.ReadableStream> {
  const zip = new ZipFile();
  for (const [name, value] of Object.entries(data.documents)) zip.addBuffer(Buffer.from(`${JSON.stringify(value, null, 2)}\n`), name);
  for (const image of data.images) {
    const stored = await media.read(image.media);
    if (stored) zip.addBuffer(stored, image.name);
  }
  zip.end();
  return zip.outputStream;
}

export async function accountExportRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.ctx;
  const { media } = app.ctx;

  // A POST with the form token: no other site can start a download in the user's name.
  app.post('/account/export/', pageRoute({ body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    await takeRateLimited(app.ctx, `export:${page.user.id}`, EXPORT_LIMIT.perWindow, EXPORT_LIMIT.windowSeconds);
    const data = await loadAccountData(db, page.user.id);
    if (!data) return reply.redirect('/accounts/login/', 302);
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="allmende-data-${page.user.id}-${day}.zip"`)
      .header('cache-control', 'no-store')
      .send(await accountArchive(data, media));
  });
}
