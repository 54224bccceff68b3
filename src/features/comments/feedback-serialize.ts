import { Type } from 'typebox';
import { formatDateTime } from '../../i18n/dates.js';
import type { Lang } from '../../i18n/index.js';
import type { FeedbackRow } from './queries.js';

export const FeedbackSchema = Type.Object({ pk: Type.Integer(), feedback_text: Type.String(), last_edit: Type.String() });

interface DateContext {
  lang: Lang;
  timeZone: string;
}

/** ModeratorCommentFeedbackSerializer: `last_edit` is "date, time" of modified or created. */
export function serializeFeedback(row: FeedbackRow, ctx: DateContext) {
  return { pk: row.id, feedback_text: row.feedbackText, last_edit: formatDateTime(row.modified ?? row.created, ctx.lang, ctx.timeZone) };
}
