import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { fromJson, qualified as q } from '../../db/sql.js';
import { pageVersionField } from '../../db/versions.js';
import { livePositionField } from '../../http/live.js';
import { liveSessionField } from '../../http/session.js';
import { prepareModuleContextOf, prepareModuleContextWith } from '../../core/projects/context.js';
import type { RuleUser } from '../../core/projects/rules.js';
import { categories, modules, organisations, projects } from '../../db/schema/index.js';
import { liveEventMedia, liveQuestionLikes, liveQuestions } from './schema.js';

/** A live question as the API, the pages and the live events show it. */
export interface QuestionRow {
  id: number;
  moduleId: number;
  text: string;
  categoryId: number | null;
  category: string | null;
  likes: number;
  sessionLike: boolean;
  isAnswered: boolean;
  isOnShortlist: boolean;
  isHidden: boolean;
  isLive: boolean;
  created: Date;
}

interface QuestionFilter {
  /** The browser session whose likes `sessionLike` tells (null: none). */
  session: string | null;
  withHidden: boolean;
  isAnswered?: boolean;
  isLive?: boolean;
  isHidden?: boolean;
  ordering?: 'like_count' | '-like_count';
}

/** A question's likes, and whether the browser session or visitor `session` (its key) liked it: the one definition of each. */
const likesOf = (question: SQL) => sql<number>`(select count(*) from ${liveQuestionLikes} l where l.live_question_id = ${question})`;
const likedBy = (question: SQL, session: SQL) => sql<boolean>`exists (select 1 from ${liveQuestionLikes} l where l.live_question_id = ${question} and l.session = ${session})`;

const likeCount = likesOf(sql`${liveQuestions.id}`).mapWith(Number);

const questionColumns = (session: string | null) => ({
  id: liveQuestions.id,
  moduleId: liveQuestions.moduleId,
  text: liveQuestions.text,
  categoryId: liveQuestions.categoryId,
  category: categories.name,
  likes: likeCount,
  sessionLike: session ? likedBy(sql`${liveQuestions.id}`, sql`${session}`) : sql<boolean>`false`,
  isAnswered: liveQuestions.isAnswered,
  isOnShortlist: liveQuestions.isOnShortlist,
  isHidden: liveQuestions.isHidden,
  isLive: liveQuestions.isLive,
  created: liveQuestions.created,
});

/** A module's questions in one statement: by creation, or by likes (`?ordering=`), filtered as asked. */
export async function listQuestions(db: DbOrTx, moduleId: number, filter: QuestionFilter): Promise<QuestionRow[]> {
  const where: (SQL | undefined)[] = [eq(liveQuestions.moduleId, moduleId)];
  if (!filter.withHidden) where.push(eq(liveQuestions.isHidden, false));
  if (filter.isAnswered !== undefined) where.push(eq(liveQuestions.isAnswered, filter.isAnswered));
  if (filter.isLive !== undefined) where.push(eq(liveQuestions.isLive, filter.isLive));
  if (filter.isHidden !== undefined) where.push(eq(liveQuestions.isHidden, filter.isHidden));
  const order = filter.ordering === 'like_count' ? [asc(likeCount), asc(liveQuestions.created)] : filter.ordering === '-like_count' ? [desc(likeCount), asc(liveQuestions.created)] : [asc(liveQuestions.created), asc(liveQuestions.id)];
  const rows = await db
    .select(questionColumns(filter.session))
    .from(liveQuestions)
    .leftJoin(categories, eq(categories.id, liveQuestions.categoryId))
    .where(and(...where))
    .orderBy(...order, asc(liveQuestions.id));
  return rows.map((r) => ({ ...r, sessionLike: Boolean(r.sessionLike) }));
}

/** How many questions a page of the event page shows. */
export const QUESTIONS_PER_PAGE = 30;

const shownQuestions = (moduleId: number, withHidden: boolean) => and(eq(liveQuestions.moduleId, moduleId), withHidden ? undefined : eq(liveQuestions.isHidden, false));

/**
 * How many open and answered questions an event has (the hidden ones only `withHidden`: for its
 * moderators), and the highest id among them (0: none): a question with a higher id was not counted.
 */
export async function questionCounts(db: DbOrTx, moduleId: number, withHidden: boolean): Promise<{ open: number; answered: number; lastId: number }> {
  const [counts] = await db
    .select({
      open: sql<number>`count(*) filter (where not ${liveQuestions.isAnswered})`.mapWith(Number),
      answered: sql<number>`count(*) filter (where ${liveQuestions.isAnswered})`.mapWith(Number),
      lastId: sql<number>`coalesce(max(${liveQuestions.id}), 0)`.mapWith(Number),
    })
    .from(liveQuestions)
    .where(shownQuestions(moduleId, withHidden));
  return { open: counts?.open ?? 0, answered: counts?.answered ?? 0, lastId: counts?.lastId ?? 0 };
}

/**
 * A page of the event page's questions (what a person reads): the open ones, newest first, or with
 * `answered` the answered ones; and how many there are of each (hidden ones only for moderators).
 * Two statements, whatever the number of questions asked, sent at once.
 */
export async function questionPage(
  db: DbOrTx,
  moduleId: number,
  filter: { session: string | null; withHidden: boolean; answered: boolean; page: number },
): Promise<{ questions: QuestionRow[]; open: number; answered: number; lastId: number }> {
  const shown = shownQuestions(moduleId, filter.withHidden);
  const [counts, rows] = await Promise.all([
    questionCounts(db, moduleId, filter.withHidden),
    db
      .select(questionColumns(filter.session))
      .from(liveQuestions)
      .leftJoin(categories, eq(categories.id, liveQuestions.categoryId))
      .where(and(shown, eq(liveQuestions.isAnswered, filter.answered)))
      .orderBy(desc(liveQuestions.created), desc(liveQuestions.id))
      .limit(QUESTIONS_PER_PAGE)
      .offset((filter.page - 1) * QUESTIONS_PER_PAGE),
  ]);
  return { questions: rows.map((r) => ({ ...r, sessionLike: Boolean(r.sessionLike) })), ...counts };
}

/** One question of a module, or null. */
export async function loadQuestion(db: DbOrTx, moduleId: number, id: number, session: string | null = null): Promise<QuestionRow | null> {
  const [row] = await db
    .select(questionColumns(session))
    .from(liveQuestions)
    .leftJoin(categories, eq(categories.id, liveQuestions.categoryId))
    .where(and(eq(liveQuestions.moduleId, moduleId), eq(liveQuestions.id, id)));
  return row ? { ...row, sessionLike: Boolean(row.sessionLike) } : null;
}

/**
 * What a like needs, in one statement prepared once for `db`: the context of a question's event for
 * the viewer, whether the question is hidden (null: there is no such question), and the stored key of
 * the browser session `session` names while it lives (null: none). The loader answers null when
 * there is no such question.
 */
export function prepareLikeContext(db: Db) {
  const question = sql.placeholder('question');
  const load = prepareModuleContextOf(db, 'ie_like_context', sql`(select q.module_id from ${liveQuestions} q where q.id = ${question})`, {
    hidden: sql<boolean | null>`(select q.is_hidden from ${liveQuestions} q where q.id = ${question})`,
    session: liveSessionField(sql`${sql.placeholder('session')}`),
  });
  return (questionId: number, sessionKey: string | null, user: Parameters<typeof load>[1]) => load({ question: questionId, session: sessionKey ?? '' }, user);
}

/** Likes of questions by id: their count, and whether the viewer liked each. */
export type QuestionLikes = Record<string, [number, boolean]>;

/**
 * The event page's head, in one statement prepared once for `db` (the page is kept: web/page-keeping.ts):
 * the event module by its organisation's and its own slug with its context for the viewer, what the
 * page shows of its module and project, the version of the event module's pages (`pageVersionField`
 * with the change log's thread rows: every question's change moves it; likes write no change), the
 * live channel's position, and, for the questions `questions` names (ids separated by spaces: those
 * the kept page shows), their likes and whether the viewer liked them, read with every request. The
 * viewer's likes count under their live browser session (`session`, the key its cookie names; '' none)
 * or else their visitor identity (`visitor`; '' none): `liveSession` says which. Null: no such module.
 */
export function prepareEventPage(db: Db) {
  const liveSession = liveSessionField(sql`${sql.placeholder('session')}`);
  const viewerKey = sql`coalesce(${liveSession}, nullif(${sql.placeholder('visitor')}::text, ''))`;
  const load = prepareModuleContextOf(
    db,
    'ie_event_page',
    sql`(select m.id from ${modules} m join ${projects} p on p.id = m.project_id join ${organisations} o on o.id = p.organisation_id where o.slug = ${sql.placeholder('org')} and m.slug = ${sql.placeholder('slug')})`,
    {
      slug: sql<string>`${q(modules.slug)}`,
      name: sql<string>`${q(modules.name)}`,
      description: sql<string | null>`${q(modules.description)}`,
      projectSlug: sql<string>`${q(projects.slug)}`,
      projectName: sql<string>`${q(projects.name)}`,
      organisationName: sql<string>`(select o.name from ${organisations} o where o.id = ${q(projects.organisationId)})`,
      pageVersion: pageVersionField(q(modules.projectId), q(modules.id)),
      position: livePositionField,
      liveSession: sql<boolean>`${liveSession} is not null`,
      likes: sql<QuestionLikes | string | null>`(select json_object_agg(lq.id, json_build_array(${likesOf(sql`lq.id`)}, ${likedBy(sql`lq.id`, viewerKey)}))
        from ${liveQuestions} lq where lq.module_id = ${q(modules.id)} and lq.id = any(string_to_array(${sql.placeholder('questions')}::text, ' ')::integer[]))`,
    },
  );
  return async (values: { org: string; slug: string; session: string | null; visitor: string; questions: number[] }, user: RuleUser) => {
    const loaded = await load({ ...values, session: values.session ?? '', questions: values.questions.join(' ') }, user);
    if (!loaded) return null;
    const { likes, ...extras } = loaded.extras;
    return { context: loaded.context, ...extras, likes: likes === null ? {} : fromJson(likes) };
  };
}

/** Likes of some questions of a module, and whether `session` (a like's key) liked each, in one statement. */
export async function loadQuestionLikes(db: DbOrTx, moduleId: number, ids: number[], session: string | null): Promise<QuestionLikes> {
  if (!ids.length) return {};
  const rows = await db
    .select({ id: liveQuestions.id, likes: likeCount, liked: session ? likedBy(sql`${liveQuestions.id}`, sql`${session}`) : sql<boolean>`false` })
    .from(liveQuestions)
    .where(and(eq(liveQuestions.moduleId, moduleId), inArray(liveQuestions.id, ids)));
  return Object.fromEntries(rows.map((r) => [String(r.id), [r.likes, Boolean(r.liked)]]));
}

/** A module's affiliations by id, as a select field over `modules` (JSON). */
const affiliationsField = sql<{ id: number; name: string }[] | string>`(select coalesce(json_agg(json_build_object('id', c.id, 'name', c.name) order by c.id), '[]') from ${categories} c where c.module_id = ${modules.id})`;

/** What asking needs, in one statement prepared once for `db`: the event's context for the viewer and its affiliations. */
export function prepareAskContext(db: Db) {
  const load = prepareModuleContextWith(db, 'ie_ask_context', { affiliations: affiliationsField });
  return async (moduleId: number, user: Parameters<typeof load>[1]) => {
    const loaded = await load(moduleId, user);
    if (!loaded) return null;
    const raw = loaded.extras.affiliations;
    return { context: loaded.context, affiliations: (typeof raw === 'string' ? JSON.parse(raw) : raw) as { id: number; name: string }[] };
  };
}

/** A module's affiliations (its categories), by id. */
export async function loadAffiliations(db: DbOrTx, moduleId: number): Promise<{ id: number; name: string }[]> {
  return db.select({ id: categories.id, name: categories.name }).from(categories).where(eq(categories.moduleId, moduleId)).orderBy(asc(categories.id));
}

/** Statistics per affiliation: questions asked and answered (a+'s statistics tab shows the answered share). */
export async function affiliationStatistics(db: DbOrTx, moduleId: number): Promise<{ name: string | null; asked: number; answered: number }[]> {
  const rows = await db
    .select({
      name: categories.name,
      asked: count(liveQuestions.id),
      answered: sql<number>`count(*) filter (where ${liveQuestions.isAnswered})`.mapWith(Number),
    })
    .from(liveQuestions)
    .leftJoin(categories, eq(categories.id, liveQuestions.categoryId))
    .where(eq(liveQuestions.moduleId, moduleId))
    .groupBy(categories.id, categories.name)
    .orderBy(asc(categories.name));
  return rows;
}

/** The "Media" component's values: live-stream link and event image. */
export async function loadMedia(db: DbOrTx, moduleId: number): Promise<{ liveStream: string; eventImage: string | null }> {
  const [row] = await db.select({ liveStream: liveEventMedia.liveStream, eventImage: liveEventMedia.eventImage }).from(liveEventMedia).where(eq(liveEventMedia.moduleId, moduleId));
  return row ?? { liveStream: '', eventImage: null };
}

/** Affiliation counts of modules (the publish check needs at least one). */
export async function affiliationCounts(db: DbOrTx, moduleIds: number[]): Promise<Map<number, number>> {
  if (!moduleIds.length) return new Map();
  const rows = await db
    .select({ moduleId: categories.moduleId, n: count() })
    .from(categories)
    .where(sql`${categories.moduleId} in ${moduleIds}`)
    .groupBy(categories.moduleId);
  return new Map(rows.map((r) => [r.moduleId, Number(r.n)]));
}
