import { formatIsoLocal } from '../../i18n/dates.js';
import { absoluteUrl } from '../../http/urls.js';
import { plainTextOf } from '../../text/html.js';
import { ideaReferenceNumber } from '../../core/urls.js';
import { moduleCommentsFile } from '../exports/comments.js';
import { EXPORT_BATCH, keysetBatches } from '../exports/queries.js';
import { exportFile, type Sheet } from '../moduletypes/contract.js';
import { loadTopics, topicPath, type TopicRow } from './queries.js';

/** §8.2: the topics of a module with their category, labels, ratings and comment count. */
const TOPIC_SHEET: Sheet<TopicRow> = {
  title: 'Topics',
  columns: ['Reference No.', 'Link', 'Title', 'Description', 'Category', 'Labels', 'Creator', 'Created', 'Positive ratings', 'Negative ratings', 'Comment count'],
  cells: (topic, c) => [
    ideaReferenceNumber(topic.created, topic.id),
    absoluteUrl(c.baseUrl, topicPath(c.orgSlug, topic.created, topic.id)),
    topic.name,
    plainTextOf(topic.description),
    topic.category?.name ?? '',
    topic.labels.map((l) => l.name).join(', '),
    topic.creatorName,
    formatIsoLocal(topic.created, c.timeZone),
    topic.positiveRatingCount,
    topic.negativeRatingCount,
    topic.commentCount,
  ],
};

export const TOPIC_EXPORTS = [
  exportFile({ name: 'topics', heading: 'Topics', sheet: TOPIC_SHEET, batches: (db, moduleId) => keysetBatches((afterId) => loadTopics(db, { moduleId, ordering: 'id', afterId, limit: EXPORT_BATCH }, null), EXPORT_BATCH) }),
  moduleCommentsFile(async (db, moduleId) => (await loadTopics(db, { moduleId, ordering: 'id' }, null)).map((topic) => ({ type: 'topic' as const, id: topic.id }))),
];
