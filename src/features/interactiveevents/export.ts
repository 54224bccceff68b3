import { formatIsoLocal } from '../../i18n/dates.js';
import { t } from '../../i18n/index.js';
import { exportFile, type Sheet } from '../moduletypes/contract.js';
import { listQuestions, type QuestionRow } from './queries.js';

/**
 * The questions of an event for the minutes (issue 37.6; adhocracy+ has no such export): each with its
 * affiliation, likes, the moderation's flags and when it was asked, hidden ones included (marked).
 */
const QUESTION_SHEET: Sheet<QuestionRow> = {
  title: 'Questions',
  columns: ['ID', 'Question', 'Affiliation', 'Likes', 'Answered', 'Shortlist', 'Hidden', 'Created'],
  cells: (q, c) => {
    const flag = (on: boolean) => t(c.lang, on ? 'Yes' : 'No');
    return [q.id, q.text, q.category ?? '', q.likes, flag(q.isAnswered), flag(q.isOnShortlist), flag(q.isHidden), formatIsoLocal(q.created, c.timeZone)];
  },
};

/** A meeting's questions are few (hundreds at most): one statement, one batch. */
async function* questionBatches(db: Parameters<typeof listQuestions>[0], moduleId: number) {
  yield await listQuestions(db, moduleId, { session: null, withHidden: true });
}

export const QUESTION_EXPORT = exportFile({ name: 'questions', heading: { en: 'Questions of the event', de: 'Fragen der Veranstaltung' }, sheet: QUESTION_SHEET, batches: questionBatches });
