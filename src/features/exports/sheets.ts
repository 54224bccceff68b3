import { formatIsoLocal, localParts } from '../../i18n/dates.js';
import { type Lang, t } from '../../i18n/index.js';
import { absoluteUrl } from '../../http/urls.js';
import { plainTextOf } from '../../text/html.js';
import type { IdeaRow } from '../ideas/queries.js';
import { MODERATOR_STATUSES } from '../ideas/views.js';
import { commentPath, ideaPath, ideaReferenceNumber } from '../urls.js';
import type { CommentExportRow } from './queries.js';

export type Cell = string | number;

/** How an export renders: its language (headings, statuses), the time zone of its dates, the site's address for links. */
export interface SheetContext {
  lang: Lang;
  timeZone: string;
  baseUrl: string;
  orgSlug: string;
}

/** One export's columns (headings as catalogue keys, in order) and how a row fills them. */
export interface Sheet<R> {
  title: string;
  columns: string[];
  cells: (row: R, c: SheetContext) => Cell[];
}

/** Rich text as plain text with its paragraphs and line breaks (issue 22.1: a council report keeps them). */
const plain = (html: string | null) => (html ? plainTextOf(html) : '');
const ideaUrl = (c: SheetContext, created: Date, id: number) => absoluteUrl(c.baseUrl, ideaPath(c.orgSlug, created, id));

/** §B16.2, without "Remark": Allmende has no internal moderator remarks. */
export const IDEA_SHEET: Sheet<IdeaRow> = {
  title: 'Ideas',
  columns: ['Reference No.', 'Link', 'Title', 'Description', 'Category', 'Labels', 'Creator', 'Created', 'Positive ratings', 'Negative ratings', 'Comment count', 'Status', 'Feedback'],
  cells: (idea, c) => {
    const status = idea.moderatorStatus ? MODERATOR_STATUSES[idea.moderatorStatus] : undefined;
    return [
      ideaReferenceNumber(idea.created, idea.id),
      ideaUrl(c, idea.created, idea.id),
      idea.name,
      plain(idea.description),
      idea.category?.name ?? '',
      idea.labels.map((l) => l.name).join(', '),
      idea.creatorName,
      formatIsoLocal(idea.created, c.timeZone),
      idea.positiveRatingCount,
      idea.negativeRatingCount,
      idea.commentCount,
      status ? t(c.lang, status.label) : '',
      plain(idea.moderatorFeedbackText),
    ];
  },
};

/**
 * §B16.3: comments and replies. What the discussion withholds, the export withholds: the text of a
 * removed, censored or blocked comment (issue 22.6: a council report does not repeat what moderators
 * removed); the "Blocked" column says which comments moderators blocked.
 */
export const COMMENT_SHEET: Sheet<CommentExportRow> = {
  title: 'Comments',
  columns: ['ID', 'Comment', 'Created', 'Link', 'Creator', 'Positive ratings', 'Negative ratings', 'Reply to Reference', 'Reply to Comment', 'Blocked'],
  cells: (comment, c) => [
    comment.id,
    comment.isRemoved || comment.isCensored || comment.isBlocked ? '' : comment.comment,
    formatIsoLocal(comment.created, c.timeZone),
    absoluteUrl(c.baseUrl, commentPath(ideaPath(c.orgSlug, comment.ideaCreated, comment.ideaId), comment.id)),
    comment.creatorName,
    comment.positiveRatingCount,
    comment.negativeRatingCount,
    ideaReferenceNumber(comment.ideaCreated, comment.ideaId),
    comment.parentId ?? '',
    t(c.lang, comment.isBlocked ? 'yes' : 'no'),
  ],
};

/** The headings (in the context's language), then every row, a batch at a time. */
export async function* sheetRows<R>(sheet: Sheet<R>, batches: AsyncIterable<R[]>, c: SheetContext): AsyncGenerator<Cell[][]> {
  yield [sheet.columns.map((column) => t(c.lang, column))];
  for await (const batch of batches) yield batch.map((row) => sheet.cells(row, c));
}

/** `<project-slug>_<ideas|comments>_<YYYYMMDDTHHMMSS>.<ext>`, the moment in the platform's time zone. */
export function exportFileName(projectSlug: string, kind: 'ideas' | 'comments', now: Date, timeZone: string, ext: 'xlsx' | 'csv') {
  const p = localParts(now, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${projectSlug}_${kind}_${p.year}${two(p.month)}${two(p.day)}T${two(p.hour)}${two(p.minute)}${two(now.getUTCSeconds())}.${ext}`;
}
