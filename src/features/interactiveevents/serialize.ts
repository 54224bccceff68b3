import type { QuestionRow } from './queries.js';

/**
 * LiveQuestionSerializer (§6.3): the affiliation by name, the likes with this session's own; and
 * when it was asked (ISO 8601, UTC, milliseconds: as JavaScript writes it; the API's schema leaves
 * it out, as adhocracy+ does). The `question` live
 * event is this, all a participant's page needs to show the question without fetching it (live.js).
 */
export const serializeQuestion = (row: QuestionRow) => ({
  id: row.id,
  text: row.text,
  category: row.category,
  likes: { count: row.likes, session_like: row.sessionLike },
  is_answered: row.isAnswered,
  is_on_shortlist: row.isOnShortlist,
  is_hidden: row.isHidden,
  is_live: row.isLive,
  created: row.created.toISOString(),
});


/** The live channel's topic of an event's questions. */
export const questionsTopic = (moduleId: number) => `ie:${moduleId}`;
