import { formatDateTime } from '../../i18n/dates.js';
import { type Lang, t } from '../../i18n/index.js';
import { isDeletedComment } from '../comments/rules.js';
import type { ReportRow } from '../reports/queries.js';
import type { ModerationRow } from './queries.js';

/**
 * A comment as the moderation queue shows it (the view model of `me/dashboard/moderation-views.tsx`),
 * mapped from the queue's rows; the moderation API's JSON (`serialize.ts`) is the API's only.
 */
export interface QueueComment {
  id: number;
  /** The author's name; "unknown user" when removed or censored (a blocked comment keeps its author here). */
  author: string;
  /** Written by a guest (issue 34.4); not told of a removed or censored comment. */
  byGuest: boolean;
  /** When it was written or last changed. */
  lastEdit: string;
  isUnread: boolean;
  isBlocked: boolean;
  isModeratorMarked: boolean;
  /** Removed by its author or censored: its text is not shown, nor are block and highlight offered. */
  isGone: boolean;
  text: string;
  reportCount: number;
  /** Its reports with reporter and reason, the handled ones among them. */
  reports: ReportRow[];
  /** The moderation's feedback text, or null. */
  feedback: string | null;
  /** Where it is discussed (path and query), or ''. */
  path: string;
  /** The name of what it comments on, or ''. */
  object: string;
}

/** A queue row with its reports and the name of what it comments on, as the queue shows it. Pure: no statements. */
export function queueCommentOf(row: ModerationRow, facts: { reports: Map<number, ReportRow[]>; objects: Map<number, string> }, at: { lang: Lang; timeZone: string }): QueueComment {
  const isGone = isDeletedComment(row);
  return {
    id: row.id,
    author: isGone ? t(at.lang, 'unknown user') : row.username,
    byGuest: row.creatorIsGuest && !isGone,
    lastEdit: formatDateTime(row.modified ?? row.created, at.lang, at.timeZone),
    isUnread: !row.isReviewed,
    isBlocked: row.isBlocked,
    isModeratorMarked: row.isModeratorMarked,
    isGone,
    text: row.comment,
    reportCount: row.numReports,
    reports: facts.reports.get(row.id) ?? [],
    feedback: row.feedback?.feedbackText ?? null,
    path: row.path,
    object: facts.objects.get(row.id) ?? '',
  };
}
