import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { comments, ratings, users } from '../../db/schema/index.js';
import { qualified as q } from '../../db/sql.js';
import { formatIsoLocal } from '../../i18n/dates.js';
import { t } from '../../i18n/index.js';
import { absoluteUrl } from '../../http/urls.js';
import type { Cell, Sheet, SheetContext } from '../moduletypes/contract.js';

/** What every comment export reads and writes of a comment (on ideas, on any other content), whatever its rows add. */

/** The comment a reply answers: join it with `commentParentJoin`. */
export const commentParent = alias(comments, 'parent');
export const commentParentJoin = and(eq(comments.contentType, 'comment'), eq(commentParent.id, comments.objectPk));

const ratingCount = (value: 1 | -1) =>
  sql<number>`(select count(*) from ${ratings} where ${q(ratings.contentType)} = 'comment' and ${q(ratings.objectPk)} = ${q(comments.id)} and ${q(ratings.value)} = ${value})`.mapWith(Number);

/** The columns of a comment export's statement (from comments, joined with its creator in `users` and its parent in `commentParent`). */
export const commentExportColumns = () => ({
  id: comments.id,
  comment: comments.comment,
  isRemoved: comments.isRemoved,
  isCensored: comments.isCensored,
  isBlocked: comments.isBlocked,
  created: comments.created,
  creatorName: users.username,
  parentId: commentParent.id,
  positiveRatingCount: ratingCount(1),
  negativeRatingCount: ratingCount(-1),
});

export interface CommentSheetRow {
  id: number;
  comment: string;
  isRemoved: boolean;
  isCensored: boolean;
  isBlocked: boolean;
  created: Date;
  creatorName: string;
  /** The comment a reply answers; null for a comment on the content itself. */
  parentId: number | null;
  positiveRatingCount: number;
  negativeRatingCount: number;
}

/**
 * A comment sheet: ID, text, date, link, creator, ratings, what the comment is on (`on`), the comment
 * it replies to, any columns of the module type's own (`more`), and "Blocked". What the discussion
 * withholds, the export withholds: the text of a removed, censored or blocked comment (issue 22.6).
 */
export const commentSheetOf = <Row extends CommentSheetRow>(parts: {
  link: (row: Row, c: SheetContext) => string;
  on: { column: string; cell: (row: Row) => Cell };
  more?: { columns: string[]; cells: (row: Row) => Cell[] };
}): Sheet<Row> => ({
  title: 'Comments',
  columns: ['ID', 'Comment', 'Created', 'Link', 'Creator', 'Positive ratings', 'Negative ratings', parts.on.column, 'Reply to Comment', ...(parts.more?.columns ?? []), 'Blocked'],
  cells: (row, c) => [
    row.id,
    row.isRemoved || row.isCensored || row.isBlocked ? '' : row.comment,
    formatIsoLocal(row.created, c.timeZone),
    absoluteUrl(c.baseUrl, parts.link(row, c)),
    row.creatorName,
    row.positiveRatingCount,
    row.negativeRatingCount,
    parts.on.cell(row),
    row.parentId ?? '',
    ...(parts.more?.cells(row) ?? []),
    t(c.lang, row.isBlocked ? 'yes' : 'no'),
  ],
});
