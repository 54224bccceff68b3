import { formatIsoLocal } from '../../i18n/dates.js';
import { absoluteUrl } from '../../http/urls.js';
import { ideaReferenceNumber } from '../../core/urls.js';
import { moduleCommentsFile } from '../exports/comments.js';
import { exportFile, type Sheet } from '../moduletypes/contract.js';
import { loadSubjects, subjectPath, type SubjectRow } from './queries.js';

/** §9.2: the subjects of a module (reference no., link, title, description, creator, created, comment count). */
const SUBJECT_SHEET: Sheet<SubjectRow> = {
  title: 'Subjects',
  columns: ['Reference No.', 'Link', 'Title', 'Description', 'Creator', 'Created', 'Comment count'],
  cells: (subject, c) => [
    ideaReferenceNumber(subject.created, subject.id),
    absoluteUrl(c.baseUrl, subjectPath(c.orgSlug, subject.created, subject.id)),
    subject.name,
    subject.description,
    subject.creatorName,
    formatIsoLocal(subject.created, c.timeZone),
    subject.commentCount,
  ],
};

/** A debate has few subjects: one batch. */
async function* subjectBatches(db: Parameters<typeof loadSubjects>[0], moduleId: number) {
  yield await loadSubjects(db, { moduleId, ordering: 'id' });
}

export const SUBJECT_EXPORTS = [
  exportFile({ name: 'subjects', heading: 'Subjects', sheet: SUBJECT_SHEET, batches: subjectBatches }),
  moduleCommentsFile(async (db, moduleId) => (await loadSubjects(db, { moduleId, ordering: 'id' })).map((s) => ({ type: 'subject' as const, id: s.id })), { categories: true }),
];
