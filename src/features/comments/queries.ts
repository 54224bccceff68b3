import { and, asc, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, DbOrTx } from '../../db/client.js';
import { countAll } from '../../db/client.js';
import { commentFeedback, comments, type ContentKind, modules, projectModerators, projects, ratings, users } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { ObjectContext } from '../../core/contenttypes/context.js';
import { prepareCallerModuleContextOf } from '../../core/projects/context.js';
import { organisationTermsField, organisationTermsOf } from '../../core/organisations/queries.js';
import type { OrganisationTerms } from '../../core/organisations/rules.js';
import type { CommentState } from './rules.js';
import { commentPath } from '../../core/urls.js';
import { contentTypeOfModule } from '../../core/modules/registry.js';
import { projectContentType } from '../../core/contenttypes/registry.js';
import { fromJson, preparedStatement, qualified as q } from '../../db/sql.js';

export interface ObjectRef {
  type: ContentKind;
  id: number;
}

export interface CommentRef {
  id: number;
  contentType: ContentKind;
  objectPk: number;
}

/** An object's key in maps of threads and paths: `poll:3`. */
export const objectKey = (ref: ObjectRef) => `${ref.type}:${ref.id}`;

/** The thread object (idea, poll, chapter, paragraph) of each comment; replies look through their parent. */
async function threadObjects(db: DbOrTx, refs: CommentRef[]): Promise<Map<number, ObjectRef>> {
  const parentIds = [...new Set(refs.filter((r) => r.contentType === 'comment').map((r) => r.objectPk))];
  const parents = parentIds.length
    ? await db.select({ id: comments.id, contentType: comments.contentType, objectPk: comments.objectPk }).from(comments).where(inArray(comments.id, parentIds))
    : [];
  const parentOf = new Map(parents.map((p) => [p.id, { type: p.contentType, id: p.objectPk }]));
  const roots = new Map<number, ObjectRef>();
  for (const ref of refs) {
    const root = ref.contentType === 'comment' ? parentOf.get(ref.objectPk) : { type: ref.contentType, id: ref.objectPk };
    if (root) roots.set(ref.id, root);
  }
  return roots;
}

const idsOf = (objects: ObjectRef[], type: ContentKind) => [...new Set(objects.filter((o) => o.type === type).map((o) => o.id))];

/** The pages (path and name) of a kind's objects: a module type's content names them, or a project's own content (a result). */
const pagesOf = (kind: ContentKind) => contentTypeOfModule(kind)?.pages ?? projectContentType(kind)?.pages;

/** Page paths of the content of module types (ideas, polls, chapters, …): one statement per kind present. */
export async function loadObjectPaths(db: DbOrTx, objects: ObjectRef[]): Promise<Map<string, string>> {
  const paths = new Map<string, string>();
  // Content of the module types: the page its type names (`pages`).
  const kinds = [...new Set(objects.map((o) => o.type))].filter((kind) => kind !== 'comment');
  for (const kind of kinds) {
    const ids = idsOf(objects, kind);
    const own = pagesOf(kind);
    if (own) for (const [id, { path }] of await own(db, ids)) paths.set(objectKey({ type: kind, id }), path);
  }
  return paths;
}

/** The page path of each comment (`…?comment=<id>`), in a constant number of statements. */
export async function loadCommentPaths(db: DbOrTx, refs: CommentRef[]): Promise<Map<number, string>> {
  const roots = await threadObjects(db, refs);
  const objectPaths = await loadObjectPaths(db, [...roots.values()]);
  const paths = new Map<number, string>();
  for (const [id, root] of roots) {
    const path = objectPaths.get(objectKey(root));
    if (path) paths.set(id, commentPath(path, id));
  }
  return paths;
}

/** A comment row with its creator's public data. */
export const commentColumns = {
  id: comments.id,
  creatorId: comments.creatorId,
  contentType: comments.contentType,
  objectPk: comments.objectPk,
  comment: comments.comment,
  commentCategories: comments.commentCategories,
  isRemoved: comments.isRemoved,
  isCensored: comments.isCensored,
  isBlocked: comments.isBlocked,
  isModeratorMarked: comments.isModeratorMarked,
  isReviewed: comments.isReviewed,
  projectId: comments.projectId,
  created: comments.created,
  modified: comments.modified,
  username: users.username,
  avatar: users.avatar,
  /** The author takes part as a guest (issue 34.4): the pages mark it. */
  creatorIsGuest: users.isGuest,
};

export interface CommentRow {
  id: number;
  creatorId: number;
  contentType: ContentKind;
  objectPk: number;
  comment: string;
  commentCategories: string;
  isRemoved: boolean;
  isCensored: boolean;
  isBlocked: boolean;
  isModeratorMarked: boolean;
  isReviewed: boolean;
  projectId: number | null;
  created: Date;
  modified: Date | null;
  username: string;
  avatar: string | null;
  creatorIsGuest: boolean;
}

export interface FeedbackRow {
  id: number;
  commentId: number;
  feedbackText: string;
  created: Date;
  modified: Date | null;
}

export const feedbackColumns = {
  id: commentFeedback.id,
  commentId: commentFeedback.commentId,
  feedbackText: commentFeedback.feedbackText,
  created: commentFeedback.created,
  modified: commentFeedback.modified,
};

export async function loadCommentRow(db: DbOrTx, id: number): Promise<CommentRow | null> {
  const [row] = await db.select(commentColumns).from(comments).innerJoin(users, eq(users.id, comments.creatorId)).where(eq(comments.id, id));
  return row ?? null;
}

export async function loadFeedbackOf(db: DbOrTx, commentIds: number[]): Promise<Map<number, FeedbackRow>> {
  if (!commentIds.length) return new Map();
  const rows = await db.select(feedbackColumns).from(commentFeedback).where(inArray(commentFeedback.commentId, commentIds));
  return new Map(rows.map((row) => [row.commentId, row]));
}

export interface RatingSummary {
  positive: number;
  negative: number;
  userRatingId: number | null;
  userRatingValue: number | null;
}

/** Positive and negative counts and the user's own rating, for each object of one kind. */
export async function loadRatingSummaries(db: DbOrTx, type: ContentKind, ids: number[], userId: number | null): Promise<Map<number, RatingSummary>> {
  if (!ids.length) return new Map();
  const uid = userId ?? 0;
  const rows = await db
    .select({
      objectPk: ratings.objectPk,
      positive: sql<number>`count(*) filter (where ${ratings.value} = 1)`.mapWith(Number),
      negative: sql<number>`count(*) filter (where ${ratings.value} = -1)`.mapWith(Number),
      userRatingId: sql<number | null>`max(${ratings.id}) filter (where ${ratings.creatorId} = ${uid})`,
      userRatingValue: sql<number | null>`max(${ratings.value}) filter (where ${ratings.creatorId} = ${uid})`,
    })
    .from(ratings)
    .where(and(eq(ratings.contentType, type), inArray(ratings.objectPk, ids)))
    .groupBy(ratings.objectPk);
  return new Map(
    rows.map((row) => [
      row.objectPk,
      {
        positive: row.positive,
        negative: row.negative,
        userRatingId: row.userRatingId === null ? null : Number(row.userRatingId),
        userRatingValue: row.userRatingValue === null ? null : Number(row.userRatingValue),
      },
    ]),
  );
}

export async function loadModeratorIds(db: DbOrTx, projectId: number | null): Promise<Set<number>> {
  if (projectId === null) return new Set();
  const rows = await db.select({ userId: projectModerators.userId }).from(projectModerators).where(eq(projectModerators.projectId, projectId));
  return new Set(rows.map((r) => r.userId));
}


export interface ThreadPage {
  /** Top-level comments the filter keeps. */
  count: number;
  /** All comments of the thread, replies included. */
  commentCount: number;
  comments: CommentRow[];
  replies: Map<number, CommentRow[]>;
}

const onObject = (ref: ObjectRef) => and(eq(comments.contentType, ref.type), eq(comments.objectPk, ref.id));

/** The orderings of a thread page (§A11.4, plus oldest first); newest first is the default. */
export const COMMENT_ORDERINGS = ['-created', 'created', '-positive_rating_count', '-negative_rating_count', '-child_comment_count', '-last_discussed'] as const;
export type CommentOrdering = (typeof COMMENT_ORDERINGS)[number];
/** Those and moderator-marked first (a4's `mom`, which only the comment API offers: a+ turns it off on its pages). */
const THREAD_ORDERINGS = [...COMMENT_ORDERINGS, '-is_moderator_marked'] as const;
export type ThreadOrdering = (typeof THREAD_ORDERINGS)[number];

/** What a thread page shows: its order, a search (comment text, or a username exactly) and a comment category. */
export interface ThreadFilter {
  ordering: ThreadOrdering;
  search: string;
  category: string;
}

export const DEFAULT_THREAD_FILTER: ThreadFilter = { ordering: '-created', search: '', category: '' };

const ratingCount = (value: 1 | -1) =>
  sql`(select count(*) from ${ratings} r where r.content_type = 'comment' and r.object_pk = ${comments.id} and r.value = ${value})`;
const replyCount = sql`(select count(*) from ${comments} c2 where c2.content_type = 'comment' and c2.object_pk = ${comments.id})`;
/** a4's `last_discussed`: the moment of the latest reply, none for a comment without replies (those come last). */
const lastDiscussed = sql`(select max(c2.created) from ${comments} c2 where c2.content_type = 'comment' and c2.object_pk = ${comments.id})`;

const ORDER_BY: Record<ThreadOrdering, SQL[]> = {
  '-created': [desc(comments.created), desc(comments.id)],
  created: [asc(comments.created), asc(comments.id)],
  '-positive_rating_count': [sql`${ratingCount(1)} desc`, desc(comments.created), desc(comments.id)],
  '-negative_rating_count': [sql`${ratingCount(-1)} desc`, desc(comments.created), desc(comments.id)],
  '-child_comment_count': [sql`${replyCount} desc`, desc(comments.created), desc(comments.id)],
  '-last_discussed': [sql`${lastDiscussed} desc nulls last`, desc(comments.created), desc(comments.id)],
  '-is_moderator_marked': [desc(comments.isModeratorMarked), desc(comments.created), desc(comments.id)],
};

/**
 * The top-level comments a filter keeps: with a search, those whose text contains it (any case) or
 * whose author has exactly that username, or with such a reply — never removed, censored or blocked
 * ones (§A11.4); with a category, those that carry it.
 */
function threadWhere(filter: { search: boolean; category: boolean }) {
  const matches = (alias: SQL) =>
    sql`(${alias}.comment ilike ${sql.placeholder('pattern')} or exists (select 1 from ${users} u where u.id = ${alias}.creator_id and u.username = ${sql.placeholder('search')}))`;
  const search = filter.search
    ? and(
        eq(comments.isRemoved, false),
        eq(comments.isCensored, false),
        eq(comments.isBlocked, false),
        or(
          matches(sql`${comments}`),
          sql`exists (select 1 from ${comments} r where r.content_type = 'comment' and r.object_pk = ${comments.id} and not r.is_removed and not r.is_censored and not r.is_blocked and ${matches(sql`r`)})`,
        ),
      )
    : undefined;
  const category = filter.category ? sql`${comments.commentCategories} like ${sql.placeholder('category')}` : undefined;
  return and(onObjectAt, search, category);
}

/** The object of a prepared thread statement. */
const onObjectAt = and(eq(comments.contentType, sql.placeholder('type')), eq(comments.objectPk, sql.placeholder('id')));

/** The values of a thread page's placeholders. */
function threadValues(ref: ObjectRef, page: number, pageSize: number, filter: ThreadFilter, viewer: { projectId: number; userId: number | null }) {
  return {
    type: ref.type,
    id: ref.id,
    pattern: `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
    search: filter.search,
    category: `%${filter.category}%`,
    limit: pageSize,
    offset: (page - 1) * pageSize,
    uid: viewer.userId ?? 0,
    projectId: viewer.projectId,
  };
}

/** What a thread's serializer needs beside its rows: the comments' ratings, the moderators' feedback, and the project's moderators. */
export interface ThreadFacts {
  ratings: Map<number, RatingSummary>;
  feedback: Map<number, FeedbackRow>;
  moderatorIds: Set<number>;
}

/** A row of `commentColumns` as `row_to_json` hands it over (the dates as ISO text). */
type CommentJson = Omit<CommentRow, 'created' | 'modified'> & { created: string; modified: string | null };
const fromCommentJson = (row: CommentJson): CommentRow => ({ ...row, created: new Date(row.created), modified: row.modified === null ? null : new Date(row.modified) });
/** `commentColumns` under their own names, for a statement that hands rows over as JSON. */
const commentColumnsAs = sql.join(
  Object.entries(commentColumns).map(([name, column]) => sql`${column} as ${sql.identifier(name)}`),
  sql`, `,
);

/** The thread page's statement for an ordering and a filter's shape (search or not, category or not), each prepared once (its text built once per process). */
const threadStatements = new Map<string, (db: DbOrTx, values: ReturnType<typeof threadValues>) => Promise<ThreadRowJson[]>>();
function threadStatement(filter: ThreadFilter) {
  const shape = { search: filter.search !== '', category: filter.category !== '' };
  const key = `${THREAD_ORDERINGS.indexOf(filter.ordering)}_${Number(shape.search)}${Number(shape.category)}`;
  let statement = threadStatements.get(key);
  if (!statement) {
    statement = preparedStatement<ThreadRowJson, ReturnType<typeof threadValues>>(`thread_page_${key}`, () => threadSql(threadWhere(shape), sql.join(ORDER_BY[filter.ordering], sql`, `)));
    threadStatements.set(key, statement);
  }
  return statement;
}

const threadSql = (where: SQL | undefined, order: SQL) => {
  const uid = sql.placeholder('uid');
  return sql`
    with page as (
      select ${commentColumnsAs}, row_number() over (order by ${order}) as position
      from ${comments} inner join ${users} on ${users.id} = ${comments.creatorId}
      where ${where} order by ${order} limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')}
    ),
    answers as (
      select ${commentColumnsAs} from ${comments} inner join ${users} on ${users.id} = ${comments.creatorId}
      where ${comments.contentType} = 'comment' and ${comments.objectPk} in (select p.id from page p)
    ),
    shown as (select p.id from page p union all select a.id from answers a)
    select
      (select count(*) from ${comments} where ${where})::int as count,
      (select count(*) from ${comments} where ${onObjectAt})::int as top,
      (select count(*) from ${comments} c where c.content_type = 'comment' and c.object_pk in (select ${comments.id} from ${comments} where ${onObjectAt}))::int as answered,
      (select json_agg(row_to_json(p) order by p.position) from page p) as comments,
      (select json_agg(row_to_json(a) order by a.created, a.id) from answers a) as replies,
      (select json_agg(json_build_object('objectPk', r.object_pk, 'positive', r.positive, 'negative', r.negative, 'userRatingId', r.own_id, 'userRatingValue', r.own_value)) from (
        select x.object_pk, count(*) filter (where x.value = 1) as positive, count(*) filter (where x.value = -1) as negative,
          max(x.id) filter (where x.creator_id = ${uid}) as own_id, max(x.value) filter (where x.creator_id = ${uid}) as own_value
        from ${ratings} x where x.content_type = 'comment' and x.object_pk in (select s.id from shown s) group by x.object_pk) r) as ratings,
      (select json_agg(json_build_object('id', f.id, 'commentId', f.comment_id, 'feedbackText', f.feedback_text, 'created', f.created, 'modified', f.modified))
        from ${commentFeedback} f where f.comment_id in (select s.id from shown s)) as feedback,
      (select json_agg(m.user_id) from ${projectModerators} m where m.project_id = ${sql.placeholder('projectId')}) as moderators`;
};

/**
 * One page of an object's comments (by the filter's order, newest first by default) with their
 * replies (oldest first), the thread's counts, and the facts its serializer needs (ratings with the
 * viewer's own, feedback, the project's moderators): one statement whatever the thread's size, the
 * rows handed over as JSON.
 */
export async function loadThreadPage(
  db: DbOrTx,
  ref: ObjectRef,
  page: number,
  pageSize: number,
  filter: ThreadFilter,
  viewer: { projectId: number; userId: number | null },
): Promise<ThreadPage & ThreadFacts> {
  const [row] = await threadStatement(filter)(db, threadValues(ref, page, pageSize, filter, viewer));
  const rows = (fromJson(row.comments) ?? []).map(fromCommentJson);
  const replies = new Map<number, CommentRow[]>();
  for (const reply of (fromJson(row.replies) ?? []).map(fromCommentJson)) replies.set(reply.objectPk, [...(replies.get(reply.objectPk) ?? []), reply]);
  const feedback = (fromJson(row.feedback) ?? []).map((f) => ({ ...f, created: new Date(f.created), modified: f.modified === null ? null : new Date(f.modified) }));
  return {
    count: Number(row.count),
    commentCount: Number(row.top) + Number(row.answered),
    comments: rows,
    replies,
    ratings: new Map((fromJson(row.ratings) ?? []).map((r) => [Number(r.objectPk), { positive: Number(r.positive), negative: Number(r.negative), userRatingId: r.userRatingId === null ? null : Number(r.userRatingId), userRatingValue: r.userRatingValue === null ? null : Number(r.userRatingValue) }])),
    feedback: new Map(feedback.map((f) => [f.commentId, f])),
    moderatorIds: new Set((fromJson(row.moderators) ?? []).map(Number)),
  };
}

/** The statement asking whether one top-level comment passes a filter of the thread's shape, each prepared once. */
const keptStatements = new Map<string, (db: DbOrTx, values: ReturnType<typeof threadValues> & { top: number }) => Promise<{ kept: number }[]>>();
function keptStatement(filter: ThreadFilter) {
  const shape = { search: filter.search !== '', category: filter.category !== '' };
  const key = `${Number(shape.search)}${Number(shape.category)}`;
  let statement = keptStatements.get(key);
  if (!statement) {
    statement = preparedStatement(`thread_keeps_${key}`, () => sql`select 1 as kept from ${comments} where ${threadWhere(shape)} and ${comments.id} = ${sql.placeholder('top')}`);
    keptStatements.set(key, statement);
  }
  return statement;
}

/**
 * Where a comment or reply is in an object's thread as a filter shows it (a4's `commentID`): found
 * when it, or the comment it answers, is among the thread's top-level comments the filter keeps;
 * `parent` is that comment for a reply.
 */
export async function locateInThread(db: DbOrTx, ref: ObjectRef, filter: ThreadFilter, commentId: number): Promise<{ found: boolean; parent: number | null }> {
  const row = await loadCommentRow(db, commentId);
  const top = row && row.contentType === 'comment' ? await loadCommentRow(db, row.objectPk) : row;
  if (!row || !top || top.contentType !== ref.type || top.objectPk !== ref.id) return { found: false, parent: null };
  const kept = await keptStatement(filter)(db, { ...threadValues(ref, 1, 1, filter, { projectId: 0, userId: null }), top: top.id });
  return { found: kept.length > 0, parent: kept.length > 0 && top.id !== row.id ? top.id : null };
}

type Json<T> = T | string | null;
interface ThreadRowJson {
  count: number;
  top: number;
  answered: number;
  comments: Json<CommentJson[]>;
  replies: Json<CommentJson[]>;
  ratings: Json<(Omit<RatingSummary, 'positive' | 'negative'> & { objectPk: number; positive: number; negative: number })[]>;
  feedback: Json<(Omit<FeedbackRow, 'created' | 'modified'> & { created: string; modified: string | null })[]>;
  moderators: Json<number[]>;
}

export async function loadReplies(db: DbOrTx, parentIds: number[]): Promise<Map<number, CommentRow[]>> {
  const byParent = new Map<number, CommentRow[]>();
  if (!parentIds.length) return byParent;
  const rows = await db
    .select(commentColumns)
    .from(comments)
    .innerJoin(users, eq(users.id, comments.creatorId))
    .where(and(eq(comments.contentType, 'comment'), inArray(comments.objectPk, parentIds)))
    .orderBy(asc(comments.created), asc(comments.id));
  for (const row of rows) {
    const list = byParent.get(row.objectPk) ?? [];
    list.push(row);
    byParent.set(row.objectPk, list);
  }
  return byParent;
}

/**
 * Comments of a project, replies included: a reply carries its parent's project (createComment
 * takes it from the target; migration 0023 gave it to replies stored before), so one index
 * (`comments_project_idx`) finds them all and a page of them walks it in order.
 */
export const inProject = (projectId: number) => eq(comments.projectId, projectId);

/** The whole threads of several objects (top-level comments newest first, replies oldest first) in two statements. */
export async function loadThreads(db: DbOrTx, refs: ObjectRef[]): Promise<{ comments: Map<string, CommentRow[]>; replies: Map<number, CommentRow[]> }> {
  const byObject = new Map<string, CommentRow[]>();
  if (!refs.length) return { comments: byObject, replies: new Map() };
  const rows = await db
    .select(commentColumns)
    .from(comments)
    .innerJoin(users, eq(users.id, comments.creatorId))
    .where(or(...refs.map(onObject)))
    .orderBy(desc(comments.created), desc(comments.id));
  for (const row of rows) {
    const k = objectKey({ type: row.contentType, id: row.objectPk });
    byObject.set(k, [...(byObject.get(k) ?? []), row]);
  }
  return { comments: byObject, replies: await loadReplies(db, rows.map((r) => r.id)) };
}


/** The page (of `size` top-level comments, newest first) of an object's thread that shows a comment or reply; 1 when it is not in the thread. */
export async function threadPageOf(db: DbOrTx, ref: ObjectRef, commentId: number, size: number): Promise<number> {
  const row = await loadCommentRow(db, commentId);
  const top = row && row.contentType === 'comment' ? await loadCommentRow(db, row.objectPk) : row;
  if (!top || top.contentType !== ref.type || top.objectPk !== ref.id) return 1;
  const [{ n }] = await db
    .select({ n: countAll })
    .from(comments)
    .where(and(onObject(ref), or(sql`${comments.created} > ${top.created.toISOString()}::timestamptz`, and(eq(comments.created, top.created), sql`${comments.id} > ${top.id}`))));
  return Math.floor(n / size) + 1;
}

/** The name of the object each comment's thread is about (an idea's title, or the name its module type gives; '' for polls). */
export async function loadThreadObjectNames(db: DbOrTx, refs: CommentRef[]): Promise<Map<number, string>> {
  const roots = await threadObjects(db, refs);
  const objects = [...roots.values()];
  const names = new Map<string, string>();
  for (const kind of new Set(objects.map((o) => o.type))) {
    const own = pagesOf(kind);
    if (own) for (const [id, { name }] of await own(db, idsOf(objects, kind))) names.set(objectKey({ type: kind, id }), name);
  }
  return new Map([...roots].map(([id, root]) => [id, names.get(objectKey(root)) ?? '']));
}

/** What posting a comment needs to know, read in one statement (`commentPostLoader`). */
export interface CommentPosting {
  /** The caller (null: anonymous). */
  user: AuthUser | null;
  context: ObjectContext;
  /** For a reply: the comment it answers. */
  parent: (CommentState & { contentType: ContentKind }) | null;
  /** The organisation's terms of use and whether the caller agreed to them. */
  terms: OrganisationTerms | null;
}

interface RawTarget {
  creatorId: number | null;
  contentType?: ContentKind;
  isRemoved?: boolean;
  isCensored?: boolean;
}

/**
 * What posting a comment on an object of kind `kind` needs, in one statement prepared once per kind
 * for `db`: the caller (an app's token read in the same statement), the object's module context,
 * the object's creator (for a reply: the comment answered, with its state), the thread's root and
 * the organisation's terms for the caller. The module comes from `page_module_of`, the database's
 * twin of the module-type registry's lookups (test/db/page-project-of.unit.test.ts holds them
 * together), the object from its kind's `inModules`. Null when the statement finds no such object;
 * the caller then takes the general path (`loadObjectContext`), which answers why.
 */
export function commentPostLoader(db: Db) {
  const pk = sql`${sql.placeholder('pk')}::integer`;
  const build = (kind: ContentKind) => {
    const literal = sql.raw(`'${kind}'`);
    const target =
      kind === 'comment'
        ? sql`(select json_build_object('creatorId', t.creator_id, 'contentType', t.content_type, 'isRemoved', t.is_removed, 'isCensored', t.is_censored) from ${comments} t where t.id = ${pk})`
        : sql`(select json_build_object('creatorId', t.creator_id) from (${contentTypeOfModule(kind)?.inModules(q(modules.id)) ?? sql`select null::integer, null::integer, null::integer where false`}) t (id, module_id, creator_id) where t.id = ${pk})`;
    const root = kind === 'comment' ? sql`(select json_build_object('type', d.kind, 'id', d.pk) from page_discussed('comment', ${pk}) d where d.kind is not null limit 1)` : sql`null::json`;
    return prepareCallerModuleContextOf(db, `comment_post_${kind}`, sql`page_module_of(${literal}, ${pk})`, (uid) => ({
      target: sql<RawTarget | string | null>`${target}`,
      root: sql<ObjectRef | string | null>`${root}`,
      terms: organisationTermsField(q(projects.organisationId), uid),
    }));
  };
  const loaders = new Map<ContentKind, ReturnType<typeof build>>();
  return async (request: FastifyRequest, kind: ContentKind, id: number): Promise<CommentPosting | null> => {
    let load = loaders.get(kind);
    if (!load) loaders.set(kind, (load = build(kind)));
    const found = await load(request, { pk: id });
    const raw = found?.extras.target ? fromJson(found.extras.target) : null;
    const root = kind === 'comment' ? (found?.extras.root ? fromJson(found.extras.root) : null) : { type: kind, id };
    if (!found || !raw || !root) return null;
    const { user, context } = found;
    const target = { kind, id, creatorId: raw.creatorId, projectId: context.project.projectId, moduleId: context.module.id, isRemoved: raw.isRemoved, isCensored: raw.isCensored };
    const parent = raw.contentType ? { creatorId: Number(raw.creatorId), contentType: raw.contentType, isRemoved: Boolean(raw.isRemoved), isCensored: Boolean(raw.isCensored) } : null;
    return { user, context: { ...context, target, root }, parent, terms: organisationTermsOf(found.extras.terms, user?.id ?? null) };
  };
}
