import type { QuestionRow } from './queries.js';

/** LiveQuestionSerializer (§6.3): the affiliation by name, the likes with this session's own. */
export const serializeQuestion = (row: QuestionRow) => ({
  id: row.id,
  text: row.text,
  category: row.category,
  likes: { count: row.likes, session_like: row.sessionLike },
  is_answered: row.isAnswered,
  is_on_shortlist: row.isOnShortlist,
  is_hidden: row.isHidden,
  is_live: row.isLive,
});


/** The live channel's topic of an event's questions. */
export const questionsTopic = (moduleId: number) => `ie:${moduleId}`;
