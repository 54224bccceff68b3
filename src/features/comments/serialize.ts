import { Type } from 'typebox';
import { formatDateTime } from '../../i18n/dates.js';
import { t } from '../../i18n/index.js';
import type { RenderContext } from '../../http/render.js';
import { avatarFallback, avatarThumbnailPath } from '../../core/users/avatars.js';
import { contentTypeId } from '../../core/contenttypes/registry.js';
import { FeedbackSchema, serializeFeedback } from './feedback-serialize.js';
import { profilePath } from '../../core/urls.js';
import type { CommentRow } from './queries.js';
import type { CommentUserInfo } from './rules.js';
import type { CommentExtras } from './extras.js';
import { commentCategoryLabels } from './input.js';

export type SerializeContext = RenderContext;

const absolute = (ctx: SerializeContext, path: string) => `${ctx.origin}${path}`;

/**
 * The creator's public data, or the "unknown user" placeholders when the comment is hidden. The
 * fallback avatar is an SVG for the web, a PNG for the app (React Native cannot draw SVG).
 */
export function commentAuthor(row: CommentRow, hidden: boolean, ctx: SerializeContext, fallback: 'svg' | 'png' = 'svg') {
  if (hidden) return { user_name: t(ctx.lang, 'unknown user'), user_image: null, user_profile_url: '' };
  const image = row.avatar ? `/media/${avatarThumbnailPath(row.avatar)}` : avatarFallback(row.creatorId, fallback);
  return { user_name: row.username, user_image: absolute(ctx, image), user_profile_url: absolute(ctx, profilePath(row.username)) };
}

export const isGone = (row: { isRemoved: boolean; isCensored: boolean }) => row.isRemoved || row.isCensored;

const RatingsSchema = Type.Object({
  positive_ratings: Type.Integer(),
  negative_ratings: Type.Integer(),
  current_user_rating_value: Type.Union([Type.Integer(), Type.Null()]),
  current_user_rating_id: Type.Union([Type.Integer(), Type.Null()]),
});

const commentProps = {
  id: Type.Integer(),
  comment: Type.String(),
  comment_categories: Type.Record(Type.String(), Type.String(), { description: 'the categories of the comment, key to name (a4: {"sug": "Suggestion"}); {} for none or when hidden' }),
  created: Type.String(),
  modified: Type.Union([Type.String(), Type.Null()]),
  content_type: Type.Integer(),
  object_pk: Type.Integer(),
  is_removed: Type.Boolean(),
  is_censored: Type.Boolean(),
  is_blocked: Type.Boolean(),
  is_moderator_marked: Type.Boolean(),
  is_deleted: Type.Boolean(),
  user_name: Type.String(),
  user_profile_url: Type.String(),
  user_image: Type.Union([Type.String(), Type.Null()]),
  user_image_fallback: Type.Union([Type.String(), Type.Null()]),
  author_is_moderator: Type.Boolean(),
  ratings: RatingsSchema,
  moderator_feedback: Type.Union([FeedbackSchema, Type.Null()]),
  comment_content_type: Type.Integer({ description: 'The content type of comments: replies, ratings and reports address this comment with it' }),
  user_pk: Type.Union([Type.Integer(), Type.Null()], { description: "the author's user id; null when the comment is removed, censored or blocked" }),
  user_info: Type.Object({
    authenticated_user_pk: Type.Union([Type.Integer(), Type.Null()]),
    has_viewing_permission: Type.Boolean(),
    has_rating_permission: Type.Boolean(),
    has_changing_permission: Type.Boolean(),
    has_deleting_permission: Type.Boolean(),
    has_moderating_permission: Type.Boolean(),
    has_comment_commenting_permission: Type.Boolean(),
    is_users_own_comment: Type.Boolean(),
  }),
};

const ReplySchema = Type.Object(commentProps);
export const CommentSchema = Type.Object({ ...commentProps, child_comments: Type.Array(ReplySchema) });

const NO_USER_INFO: CommentUserInfo = {
  authenticated_user_pk: null,
  has_viewing_permission: false,
  has_rating_permission: false,
  has_changing_permission: false,
  has_deleting_permission: false,
  has_moderating_permission: false,
  has_comment_commenting_permission: false,
  is_users_own_comment: false,
};

/** The comments API shape (a4's async comment serializer): hidden text and author when removed, censored or blocked. */
function serializeReply(row: CommentRow, extras: CommentExtras, ctx: SerializeContext) {
  const hidden = isGone(row) || row.isBlocked;
  const rating = extras.ratings.get(row.id);
  const feedback = extras.feedback.get(row.id);
  const author = commentAuthor(row, hidden, ctx, 'png');
  return {
    id: row.id,
    comment: hidden ? '' : row.comment,
    comment_categories: hidden ? {} : commentCategoryLabels(row.commentCategories, ctx.lang),
    created: formatDateTime(row.created, ctx.lang, ctx.timeZone),
    modified: row.modified ? formatDateTime(row.modified, ctx.lang, ctx.timeZone) : null,
    content_type: contentTypeId(row.contentType),
    object_pk: row.objectPk,
    is_removed: row.isRemoved,
    is_censored: row.isCensored,
    is_blocked: row.isBlocked,
    is_moderator_marked: row.isModeratorMarked,
    is_deleted: isGone(row),
    ...author,
    user_pk: hidden ? null : row.creatorId,
    user_image_fallback: hidden ? null : absolute(ctx, avatarFallback(row.creatorId, 'png')),
    author_is_moderator: extras.moderatorIds.has(row.creatorId),
    ratings: {
      positive_ratings: rating?.positive ?? 0,
      negative_ratings: rating?.negative ?? 0,
      current_user_rating_value: rating?.userRatingValue ?? null,
      current_user_rating_id: rating?.userRatingId ?? null,
    },
    moderator_feedback: feedback ? serializeFeedback(feedback, ctx) : null,
    comment_content_type: contentTypeId('comment'),
    user_info: extras.userInfo.get(row.id) ?? NO_USER_INFO,
  };
}

export function serializeComment(row: CommentRow, extras: CommentExtras, ctx: SerializeContext) {
  return { ...serializeReply(row, extras, ctx), child_comments: (extras.replies.get(row.id) ?? []).map((reply) => serializeReply(reply, extras, ctx)) };
}
