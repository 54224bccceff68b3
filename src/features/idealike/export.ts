import { and, asc, eq, gt, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { comments, users } from '../../db/schema/index.js';
import type { IdeaKind } from './kinds.js';
import { formatIsoLocal } from '../../i18n/dates.js';
import { t } from '../../i18n/index.js';
import { absoluteUrl } from '../../http/urls.js';
import { plainTextOf } from '../../text/html.js';
import { commentPath, ideaPath, ideaReferenceNumber } from '../../core/urls.js';
import { commentExportColumns, commentParent as parent, commentParentJoin, commentSheetOf, type CommentSheetRow } from '../exports/comment-sheet.js';
import { EXPORT_BATCH, keysetBatches } from '../exports/queries.js';
import { exportFile, type Sheet, type SheetContext } from '../moduletypes/contract.js';
import { type IdeaRow, loadIdeas } from './queries.js';
import { MODERATOR_STATUSES } from './views.js';
import { loadRemarksOf } from '../moderatorremarks/queries.js';
import { loadCustomFields } from '../customfields/queries.js';

/** The export of an idea-like module (§B16): its items, and the comments on them. */

/** An exported idea with its moderator remark (the export is the moderators' and initiators': `features/exports` canExport). */
export type ExportIdeaRow = IdeaRow & { remark: string };

/** The ideas of a module, oldest first, in batches (the idea list's own query: counts, category, labels), each batch with its remarks (one more statement). */
export async function* ideaBatches(db: DbOrTx, moduleId: number, kind: IdeaKind, size = EXPORT_BATCH): AsyncGenerator<ExportIdeaRow[]> {
  for await (const batch of keysetBatches((afterId) => loadIdeas(db, { moduleId, ordering: 'id', afterId, limit: size }, null, kind), size)) {
    const remarks = await loadRemarksOf(db, kind.kind, batch.map((idea) => idea.id));
    yield batch.map((idea) => ({ ...idea, remark: remarks.get(idea.id) ?? '' }));
  }
}

interface CommentExportRow extends CommentSheetRow {
  ideaId: number;
  ideaCreated: Date;
  /** The URL segment of the item's pages. */
  segment: string;
}

async function loadCommentBatch(db: DbOrTx, moduleId: number, afterId: number, size: number, { kind, table: ideas, segment }: IdeaKind): Promise<CommentExportRow[]> {
  const rows = await db
    .select({
      ...commentExportColumns(),
      ideaId: ideas.id,
      ideaCreated: ideas.created,
    })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.creatorId))
    .leftJoin(parent, commentParentJoin)
    .innerJoin(ideas, or(and(eq(comments.contentType, kind), eq(ideas.id, comments.objectPk)), and(eq(parent.contentType, kind), eq(ideas.id, parent.objectPk))))
    .where(and(eq(ideas.moduleId, moduleId), gt(comments.id, afterId)))
    .orderBy(asc(comments.id))
    .limit(size);
  return rows.map((row) => ({ ...row, segment }));
}

/** The comments on a module's ideas and the replies to them, oldest first, in batches (§B16.3). */
const commentBatches = (db: DbOrTx, moduleId: number, kind: IdeaKind, size = EXPORT_BATCH): AsyncGenerator<CommentExportRow[]> =>
  keysetBatches((afterId) => loadCommentBatch(db, moduleId, afterId, size, kind), size);

/** Rich text as plain text with its paragraphs and line breaks (issue 22.1: a council report keeps them). */
const plain = (html: string | null) => (html ? plainTextOf(html) : '');
const ideaUrl = (c: SheetContext, created: Date, id: number, segment?: string) => absoluteUrl(c.baseUrl, ideaPath(c.orgSlug, created, id, segment));

const IDEA_COLUMNS = ['Reference No.', 'Link', 'Title', 'Description', 'Category', 'Labels', 'Creator', 'Created', 'Positive ratings', 'Negative ratings', 'Comment count', 'Status', 'Feedback', 'Remark'];

/** The idea sheet's headings, then one per question of the module (features/customfields), in their order. */
export const columnsWithQuestions = async (db: DbOrTx, moduleId: number) => [...IDEA_COLUMNS, ...(await loadCustomFields(db, moduleId)).map((f) => f.label)];

/** §B16.2, with the moderator remark ("Remark", a+ `moderatorremark`). `segment`: the item pages' (map ideas, proposals). */
export const ideaSheetOf = (segment?: string): Sheet<ExportIdeaRow> => ({
  title: 'Ideas',
  columns: IDEA_COLUMNS,
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
      idea.remark,
      ...idea.answers.map((a) => a.answer),
    ];
  },
});

/** §B16.3: comments and replies, each with the reference number of its idea. */
const COMMENT_SHEET = commentSheetOf<CommentExportRow>({
  link: (comment, c) => commentPath(ideaPath(c.orgSlug, comment.ideaCreated, comment.ideaId, comment.segment), comment.id),
  on: { column: 'Reply to Reference', cell: (comment) => ideaReferenceNumber(comment.ideaCreated, comment.ideaId) },
});

/** The comment export of an idea-like kind's module. */
export const commentExportOf = (kind: IdeaKind) => exportFile({ name: 'comments', heading: 'Comments', sheet: COMMENT_SHEET, batches: (db, moduleId) => commentBatches(db, moduleId, kind) });
