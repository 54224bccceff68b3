import { and, asc, eq, gt, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { comments, ratings, users } from '../../db/schema/index.js';
import { IDEA_KIND, type IdeaKind } from './kinds.js';
import { qualified as q } from '../../db/sql.js';
import { formatIsoLocal } from '../../i18n/dates.js';
import { t } from '../../i18n/index.js';
import { absoluteUrl } from '../../http/urls.js';
import { plainTextOf } from '../../text/html.js';
import { commentPath, ideaPath, ideaReferenceNumber } from '../../core/urls.js';
import { EXPORT_BATCH, keysetBatches } from '../exports/queries.js';
import { exportFile, type Sheet, type SheetContext } from '../moduletypes/contract.js';
import { type IdeaRow, loadIdeas } from './queries.js';
import { MODERATOR_STATUSES } from './views.js';

/** The export of an idea module (§B16): its ideas, and the comments on them. */

/** The ideas of a module, oldest first, in batches (the idea list's own query: counts, category, labels). */
export const ideaBatches = (db: DbOrTx, moduleId: number, kind: IdeaKind = IDEA_KIND, size = EXPORT_BATCH): AsyncGenerator<IdeaRow[]> =>
  keysetBatches((afterId) => loadIdeas(db, { moduleId, ordering: 'id', afterId, limit: size }, null, kind), size);

export interface CommentExportRow {
  id: number;
  comment: string;
  isRemoved: boolean;
  isCensored: boolean;
  isBlocked: boolean;
  created: Date;
  creatorName: string;
  /** The comment a reply answers; null for a comment on the idea itself. */
  parentId: number | null;
  ideaId: number;
  ideaCreated: Date;
  /** The URL segment of the item's pages. */
  segment: string;
  positiveRatingCount: number;
  negativeRatingCount: number;
}

const parent = alias(comments, 'parent');
const ratingCount = (value: 1 | -1) =>
  sql<number>`(select count(*) from ${ratings} where ${q(ratings.contentType)} = 'comment' and ${q(ratings.objectPk)} = ${q(comments.id)} and ${q(ratings.value)} = ${value})`.mapWith(Number);

async function loadCommentBatch(db: DbOrTx, moduleId: number, afterId: number, size: number, { kind, table: ideas, segment }: IdeaKind): Promise<CommentExportRow[]> {
  const rows = await db
    .select({
      id: comments.id,
      comment: comments.comment,
      isRemoved: comments.isRemoved,
      isCensored: comments.isCensored,
      isBlocked: comments.isBlocked,
      created: comments.created,
      creatorName: users.username,
      parentId: parent.id,
      ideaId: ideas.id,
      ideaCreated: ideas.created,
      positiveRatingCount: ratingCount(1),
      negativeRatingCount: ratingCount(-1),
    })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.creatorId))
    .leftJoin(parent, and(eq(comments.contentType, 'comment'), eq(parent.id, comments.objectPk)))
    .innerJoin(ideas, or(and(eq(comments.contentType, kind), eq(ideas.id, comments.objectPk)), and(eq(parent.contentType, kind), eq(ideas.id, parent.objectPk))))
    .where(and(eq(ideas.moduleId, moduleId), gt(comments.id, afterId)))
    .orderBy(asc(comments.id))
    .limit(size);
  return rows.map((row) => ({ ...row, segment }));
}

/** The comments on a module's ideas and the replies to them, oldest first, in batches (§B16.3). */
const commentBatches = (db: DbOrTx, moduleId: number, kind: IdeaKind = IDEA_KIND, size = EXPORT_BATCH): AsyncGenerator<CommentExportRow[]> =>
  keysetBatches((afterId) => loadCommentBatch(db, moduleId, afterId, size, kind), size);

/** Rich text as plain text with its paragraphs and line breaks (issue 22.1: a council report keeps them). */
const plain = (html: string | null) => (html ? plainTextOf(html) : '');
const ideaUrl = (c: SheetContext, created: Date, id: number, segment?: string) => absoluteUrl(c.baseUrl, ideaPath(c.orgSlug, created, id, segment));

/** §B16.2, without "Remark": Allmende has no internal moderator remarks. `segment`: the item pages' (map ideas, proposals). */
export const ideaSheetOf = (segment?: string): Sheet<IdeaRow> => ({
  title: 'Ideas',
  columns: ['Reference No.', 'Link', 'Title', 'Description', 'Category', 'Labels', 'Creator', 'Created', 'Positive ratings', 'Negative ratings', 'Comment count', 'Status', 'Feedback'],
  cells: (idea, c) => {
    const status = idea.moderatorStatus ? MODERATOR_STATUSES[idea.moderatorStatus] : undefined;
    return [
      ideaReferenceNumber(idea.created, idea.id),
      ideaUrl(c, idea.created, idea.id, segment),
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
});
export const IDEA_SHEET = ideaSheetOf();

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
    absoluteUrl(c.baseUrl, commentPath(ideaPath(c.orgSlug, comment.ideaCreated, comment.ideaId, comment.segment), comment.id)),
    comment.creatorName,
    comment.positiveRatingCount,
    comment.negativeRatingCount,
    ideaReferenceNumber(comment.ideaCreated, comment.ideaId),
    comment.parentId ?? '',
    t(c.lang, comment.isBlocked ? 'yes' : 'no'),
  ],
};

export const IDEA_EXPORTS = [
  exportFile({ name: 'ideas', heading: 'Ideas', sheet: IDEA_SHEET, batches: (db, moduleId) => ideaBatches(db, moduleId) }),
  exportFile({ name: 'comments', heading: 'Comments', sheet: COMMENT_SHEET, batches: (db, moduleId) => commentBatches(db, moduleId) }),
];

/** The comment export of an idea-like kind's module. */
export const commentExportOf = (kind: IdeaKind) => exportFile({ name: 'comments', heading: 'Comments', sheet: COMMENT_SHEET, batches: (db, moduleId) => commentBatches(db, moduleId, kind) });
