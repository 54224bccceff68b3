import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { liveQuestionLikes, liveQuestions } from './schema.js';
import { announceLive, liveEventInsert, publishLive } from '../../http/live.js';
import { loadQuestion, type QuestionRow } from './queries.js';
import { questionsTopic, serializeQuestion } from './serialize.js';

/**
 * The writes of an Interactive Event, one transaction each, used by the API, the pages and loaddata
 * alike. Each tells the event's live channel what changed: `question` (a new or changed question,
 * without any session's own like) and `likes` ({id, count}).
 */

export interface QuestionFlags {
  isAnswered?: boolean;
  isOnShortlist?: boolean;
  isHidden?: boolean;
  isLive?: boolean;
}

async function announceQuestion(tx: Tx, moduleId: number, id: number): Promise<void> {
  const row = await loadQuestion(tx, moduleId, id);
  if (row) await publishLive(tx, questionsTopic(moduleId), 'question', serializeQuestion(row));
}

/**
 * Asks a question (the flags start unset, whatever was sent; `category` the affiliation's name): one
 * statement (atomic on its own, so a caller needs no transaction) stores it and its `question`
 * event. Answers the question as it was stored.
 */
export async function createQuestion(db: DbOrTx, input: { moduleId: number; text: string; categoryId: number | null; category: string | null }): Promise<QuestionRow> {
  const question: QuestionRow = { id: 0, ...input, likes: 0, sessionLike: false, isAnswered: false, isOnShortlist: false, isHidden: false, isLive: false, created: new Date() };
  const topic = questionsTopic(input.moduleId);
  const result = (await db.execute(
    sql`WITH asked AS (INSERT INTO ${liveQuestions} (module_id, text, category_id) VALUES (${input.moduleId}, ${input.text}, ${input.categoryId}) RETURNING id, created),
      event AS (${liveEventInsert(topic, 'question', sql`${JSON.stringify(serializeQuestion(question))}::jsonb || jsonb_build_object('id', asked.id, 'created', to_char(asked.created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`, sql`asked`)})
      SELECT id, created FROM asked`,
  )) as unknown as { rows: { id: number; created: Date | string }[] };
  await announceLive(db, topic);
  const stored = result.rows[0];
  return { ...question, id: Number(stored?.id), created: stored ? new Date(stored.created) : question.created };
}

/** The moderator's toggles: hidden, answered, shortlist, on screen. */
export async function changeQuestion(tx: Tx, moduleId: number, id: number, flags: QuestionFlags): Promise<void> {
  if (Object.keys(flags).length) await tx.update(liveQuestions).set({ ...flags, modified: new Date() }).where(and(eq(liveQuestions.id, id), eq(liveQuestions.moduleId, moduleId)));
  await announceQuestion(tx, moduleId, id);
}

/**
 * Likes (value true) or unlikes a question for a browser session; liking twice stays one like. One
 * statement (atomic on its own, so a caller needs no transaction): the like, and the `likes` event
 * with the count as the statement sees it (its own like included; a like committed meanwhile is in
 * the next event's count).
 */
export async function setLike(db: DbOrTx, moduleId: number, questionId: number, session: string, value: boolean): Promise<void> {
  const change = value
    ? sql`INSERT INTO ${liveQuestionLikes} (live_question_id, session) VALUES (${questionId}, ${session}) ON CONFLICT DO NOTHING RETURNING 1`
    : sql`DELETE FROM ${liveQuestionLikes} WHERE live_question_id = ${questionId} AND session = ${session} RETURNING 1`;
  const topic = questionsTopic(moduleId);
  const count = sql`(SELECT count(*) FROM ${liveQuestionLikes} WHERE live_question_id = ${questionId}) ${value ? sql`+` : sql`-`} (SELECT count(*) FROM changed)`;
  await db.execute(sql`WITH changed AS (${change}), event AS (${liveEventInsert(topic, 'likes', sql`jsonb_build_object('id', ${questionId}::integer, 'count', ${count})`, sql`(SELECT 1) AS one`)}) SELECT 1`);
  await announceLive(db, topic);
}
