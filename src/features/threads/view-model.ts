import { formatDateTime } from '../../i18n/dates.js';
import { type Lang, t } from '../../i18n/index.js';
import { profilePath } from '../../core/urls.js';
import type { CommentExtras } from '../comments/extras.js';
import { commentCategoryLabels } from '../comments/input.js';
import type { CommentRow } from '../comments/queries.js';
import { isDeletedComment } from '../comments/rules.js';

/** What the viewer may do with one comment: the comment rules, asked once per comment. */
interface CommentActions {
  reply: boolean;
  edit: boolean;
  delete: boolean;
  rate: boolean;
  report: boolean;
  moderate: boolean;
}

/**
 * A comment as a thread shows it (the view model of `views.tsx`), mapped from the loaded row and
 * its facts; the API's JSON (`comments/serialize.ts`) is the API's only.
 */
export interface CommentView {
  id: number;
  /** The author's name, or "unknown user" when the comment is removed, censored or blocked (moderators see who wrote a blocked one). */
  author: string;
  /** The author's profile, or null when the author is not shown. */
  authorPath: string | null;
  authorIsModerator: boolean;
  /** Written by a guest (issue 34.4); not told of a hidden comment. */
  byGuest: boolean;
  created: string;
  edited: boolean;
  /** Why the text is hidden (removed by its author, censored or blocked by a moderator), or null. */
  hidden: 'removed' | 'censored' | 'blocked' | null;
  isBlocked: boolean;
  isModeratorMarked: boolean;
  isReviewed: boolean;
  /** The names of its categories (none when hidden). */
  categories: string[];
  /** The stored text: shown unless hidden, to moderators when blocked, and in the edit form. */
  text: string;
  ratings: { up: number; down: number; mine: number | null };
  /** The moderation's feedback, or null. */
  feedback: { text: string; lastEdit: string } | null;
  actions: CommentActions;
  replies: CommentView[];
}

/** How a thread is shown to this viewer: language, time zone, whether they see who wrote a blocked comment, and what they may do with each comment. */
interface CommentViewContext {
  lang: Lang;
  timeZone: string;
  showsBlockedAuthors: boolean;
  actions: (row: CommentRow) => CommentActions;
}

const hiddenAs = (row: CommentRow): CommentView['hidden'] => (row.isRemoved ? 'removed' : row.isCensored ? 'censored' : row.isBlocked ? 'blocked' : null);

/** A loaded comment with its replies as the thread shows it. Pure: no statements, no rules but those `at.actions` asks. */
export function commentViewOf(row: CommentRow, extras: CommentExtras, at: CommentViewContext): CommentView {
  const hidden = hiddenAs(row);
  const authorHidden = isDeletedComment(row) || (row.isBlocked && !at.showsBlockedAuthors);
  const rating = extras.ratings.get(row.id);
  const feedback = extras.feedback.get(row.id);
  return {
    id: row.id,
    author: authorHidden ? t(at.lang, 'unknown user') : row.username,
    authorPath: authorHidden ? null : profilePath(row.username),
    authorIsModerator: extras.moderatorIds.has(row.creatorId),
    byGuest: row.creatorIsGuest && hidden === null,
    created: formatDateTime(row.created, at.lang, at.timeZone),
    edited: row.modified !== null,
    hidden,
    isBlocked: row.isBlocked,
    isModeratorMarked: row.isModeratorMarked,
    isReviewed: row.isReviewed,
    categories: hidden ? [] : Object.values(commentCategoryLabels(row.commentCategories, at.lang)),
    text: row.comment,
    ratings: { up: rating?.positive ?? 0, down: rating?.negative ?? 0, mine: rating?.userRatingValue ?? null },
    feedback: feedback ? { text: feedback.feedbackText, lastEdit: formatDateTime(feedback.modified ?? feedback.created, at.lang, at.timeZone) } : null,
    actions: at.actions(row),
    replies: (extras.replies.get(row.id) ?? []).map((reply) => commentViewOf(reply, extras, at)),
  };
}
