import { Type } from 'typebox';
import { formatDateTime } from '../../i18n/dates.js';
import { commentAuthor, isGone, type SerializeContext } from '../comments/serialize.js';
import type { ModerationRow } from './queries.js';
import { FeedbackSchema, serializeFeedback } from '../comments/feedback-serialize.js';
import { feedbackListPath } from '../../core/urls.js';

/** The moderation comment representation (interface §2.1), field for field. */
export const ModerationCommentSchema = Type.Object({
  pk: Type.Integer(),
  comment: Type.String(),
  comment_url: Type.String(),
  feedback_api_url: Type.String(),
  is_unread: Type.Boolean(),
  is_blocked: Type.Boolean(),
  is_moderator_marked: Type.Boolean(),
  is_modified: Type.Boolean(),
  last_edit: Type.String(),
  moderator_feedback: Type.Union([FeedbackSchema, Type.Null()]),
  num_reports: Type.Integer(),
  user_name: Type.String(),
  user_image: Type.Union([Type.String(), Type.Null()]),
  user_profile_url: Type.String(),
});

/** Blocked comments keep their author here (only removed and censored ones hide it). */
export function serializeModerationComment(row: ModerationRow, ctx: SerializeContext) {
  return {
    pk: row.id,
    comment: row.comment,
    comment_url: `${ctx.origin}${row.path}`,
    feedback_api_url: `${ctx.origin}${feedbackListPath(row.id)}`,
    is_unread: !row.isReviewed,
    is_blocked: row.isBlocked,
    is_moderator_marked: row.isModeratorMarked,
    is_modified: row.modified !== null,
    last_edit: formatDateTime(row.modified ?? row.created, ctx.lang, ctx.timeZone),
    moderator_feedback: row.feedback ? serializeFeedback(row.feedback, ctx) : null,
    num_reports: row.numReports,
    ...commentAuthor(row, isGone(row), ctx),
  };
}
