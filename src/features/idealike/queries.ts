import { and, asc, desc, eq, gt, ilike, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx } from '../../db/client.js';
import { countAll } from '../../db/client.js';
import { qualified as q } from '../../db/sql.js';
import { pageVersionField } from '../../db/versions.js';
import { itemCommentCountSql, itemRatingCountSql } from '../../db/comment-counts.js';
import { categories, labels, modules, organisations, projects, ratings, users } from '../../db/schema/index.js';
import type { IdeaKind } from './kinds.js';
import { type LoadedModule, moduleContextOf, moduleDetailFields, type NamedRef, toModuleDetails } from '../../core/modules/queries.js';
import type { FastifyRequest } from 'fastify';
import { type AuthUser, currentUser } from '../../http/auth.js';
import { type ExtraValues, type LoadedModuleContext, prepareCallerModuleContextOf, prepareModuleContextWith, projectFields, type Uid, uidOf } from '../../core/projects/context.js';
import { followingField } from '../../core/projects/queries.js';
import { organisationTermsFields, toOrganisationTerms } from '../../core/organisations/queries.js';
import type { RuleUser } from '../../core/projects/rules.js';
import { choiceFilter, customAnswersField, customFieldsField, toCustomAnswers, toCustomFields } from '../customfields/queries.js';
import type { CustomAnswer, CustomField } from '../customfields/rules.js';

/** A module that ideas live in, with the caller's rule context. */
export interface IdeaModule {
  module: LoadedModule;
  rules: LoadedModuleContext;
  /** The initiator's own questions on the module's item form (features/customfields). */
  customFields: CustomField[];
}

/** What an idea module's statement reads beside the module's context. */
const ideaModuleExtras = () => ({ ...moduleDetailFields, customFields: customFieldsField(q(modules.id)) });

const toIdeaModule = (moduleId: number, rules: LoadedModuleContext, extras: ExtraValues<ReturnType<typeof ideaModuleExtras>>): IdeaModule => ({
  module: { id: moduleId, projectId: rules.project.projectId, isDraft: rules.module.isDraft, ...toModuleDetails(extras) },
  rules,
  customFields: toCustomFields(extras.customFields),
});

/**
 * Loads a module's rule context and the module with its phases, categories and labels, in one
 * statement prepared once for `db` (the idea API and pages load it on every request).
 */
export function ideaModuleLoader(db: Db): (moduleId: number, user: RuleUser) => Promise<IdeaModule | null> {
  const load = prepareModuleContextWith(db, 'idea_module', ideaModuleExtras());
  return async (moduleId, user) => {
    const found = await load(moduleId, user);
    return found && toIdeaModule(moduleId, found.context, found.extras);
  };
}

/** The same for a request's caller, an app's token resolved in the same statement (`prepareCallerModuleContextOf`): the caller and the module (null: none). */
export function callerIdeaModuleLoader(db: Db): (request: FastifyRequest, moduleId: number) => Promise<{ user: AuthUser | null; target: IdeaModule | null }> {
  const load = prepareCallerModuleContextOf(db, 'idea_module_caller', sql`${sql.placeholder('moduleId')}`, ideaModuleExtras);
  return async (request, moduleId) => {
    const found = await load(request, { moduleId });
    return found ? { user: found.user, target: toIdeaModule(moduleId, found.context, found.extras) } : { user: await currentUser(request), target: null };
  };
}

/** Further select fields over an idea-like kind's table (joined with its module) that its page shows: a place, a budget. */
export type DetailFields = Record<string, SQL | AnyPgColumn>;

/** An idea with everything its serializer shows. */
export interface IdeaRow {
  id: number;
  moduleId: number;
  creatorId: number;
  creatorName: string;
  /** The author takes part as a guest (issue 34.4). */
  creatorIsGuest: boolean;
  name: string;
  description: string;
  image: string | null;
  imageCopyright: string;
  created: Date;
  moderatorStatus: string | null;
  moderatorFeedbackText: string | null;
  /** When the official feedback was last given. */
  moderatorFeedbackDate: Date | null;
  category: NamedRef | null;
  commentCount: number;
  positiveRatingCount: number;
  negativeRatingCount: number;
  userRating: { id: number; value: number } | null;
  labels: NamedRef[];
  /** Its answers to every question of its module, in their order ('' where it gave none). */
  answers: CustomAnswer[];
}

/** The counts of an idea-like item, as SQL over its kind's table (the kind names its comments and ratings). */
function countsOf({ kind, table }: IdeaKind) {
  const ct = sql.raw(`'${kind}'`);
  return {
    // The figures a kept page fills in at sending (db/comment-counts.ts): one definition for both.
    commentCount: itemCommentCountSql(ct, q(table.id)).mapWith(Number),
    positiveRatingCount: itemRatingCountSql(ct, q(table.id), 1).mapWith(Number),
    negativeRatingCount: itemRatingCountSql(ct, q(table.id), -1).mapWith(Number),
  };
}

/** The idea list's orderings (§A8.3): newest first (default), most popular, most commented; ties by newest id. */
export const IDEA_ORDERINGS = ['-created', '-positive_rating_count', '-comment_count'] as const;
export type IdeaOrdering = (typeof IDEA_ORDERINGS)[number];

/** Which ideas of a module: one of them, or a filtered, ordered page. */
export interface IdeaQuery {
  moduleId: number;
  ideaId?: number;
  categoryId?: number;
  labelId?: number;
  /** Only items that chose this choice of one of the module's questions. */
  choiceId?: number;
  /** Case-insensitive substring of the title. */
  search?: string;
  /** `id`: oldest first, for reading a whole module in batches (with afterId). */
  ordering?: IdeaOrdering | 'id';
  /** Only ideas with a greater id (keyset batches, see exports). */
  afterId?: number;
  limit?: number;
  offset?: number;
  /** A further condition of the kind (proposals: archived or not). */
  where?: SQL;
}

function ideaWhere(query: IdeaQuery, { table, labels: links }: IdeaKind): SQL | undefined {
  const escaped = query.search?.replace(/[\\%_]/g, (c) => `\\${c}`);
  return and(
    eq(table.moduleId, query.moduleId),
    query.ideaId === undefined ? undefined : eq(table.id, query.ideaId),
    query.categoryId === undefined ? undefined : eq(table.categoryId, query.categoryId),
    query.choiceId === undefined ? undefined : choiceFilter(q(table.id), query.choiceId),
    query.labelId === undefined ? undefined : sql`exists (select 1 from ${links} where ${links.ideaId} = ${table.id} and ${links.labelId} = ${query.labelId})`,
    escaped ? ilike(table.name, `%${escaped}%`) : undefined,
    query.afterId === undefined ? undefined : gt(table.id, query.afterId),
    query.where,
  );
}

function orderingsOf(kind: IdeaKind): Record<IdeaOrdering | 'id', SQL[]> {
  const { table } = kind;
  const counts = countsOf(kind);
  return {
    id: [asc(table.id)],
    '-created': [desc(table.created), desc(table.id)],
    '-positive_rating_count': [desc(counts.positiveRatingCount), desc(table.created), desc(table.id)],
    '-comment_count': [desc(counts.commentCount), desc(table.created), desc(table.id)],
  };
}

/**
 * Ideas of a module (or one of them) in one statement whatever their number: the ideas with their
 * counts, the caller's rating and their labels. Newest first unless ordered otherwise.
 */
export async function loadIdeas(db: DbOrTx, query: IdeaQuery, userId: number | null, kind: IdeaKind): Promise<IdeaRow[]> {
  return (await loadIdeaRows(db, query, userId, false, kind)).map(({ total: _, fields: __, ...row }) => row);
}

/**
 * A page of a module's ideas and how many the filter finds in all, in one statement (the number
 * is an uncorrelated subquery, counted once); a page beyond the end counts on its own.
 */
export async function loadIdeaPage(db: DbOrTx, query: IdeaQuery, userId: number | null, kind: IdeaKind): Promise<{ count: number; ideas: IdeaRow[]; customFields: CustomField[] }> {
  const rows = await loadIdeaRows(db, query, userId, true, kind);
  if (!rows.length) {
    const [{ n, fields }] = await db.select({ n: countAll, fields: customFieldsField(sql`${query.moduleId}::integer`) }).from(kind.table).where(ideaWhere(query, kind));
    return { count: n, ideas: [], customFields: toCustomFields(fields) };
  }
  return { count: rows[0].total, ideas: rows.map(({ total: _, fields: __, ...row }) => row), customFields: toCustomFields(rows[0].fields) };
}

/** An idea's select fields over its kind's table joined with `users` and `categories` (see `ideaJoins`): the idea with its counts, the user's rating (0: nobody) and its labels. */
function ideaFields(kind: IdeaKind, uid: Uid) {
  const { table: ideas, labels: ideaLabels } = kind;
  const ct = sql.raw(`'${kind.kind}'`);
  const { commentCount, positiveRatingCount, negativeRatingCount } = countsOf(kind);
  return {
    id: ideas.id,
    moduleId: ideas.moduleId,
    creatorId: ideas.creatorId,
    creatorName: users.username,
    creatorIsGuest: users.isGuest,
    name: ideas.name,
    description: ideas.description,
    image: ideas.image,
    imageCopyright: ideas.imageCopyright,
    created: ideas.created,
    moderatorStatus: ideas.moderatorStatus,
    moderatorFeedbackText: ideas.moderatorFeedbackText,
    moderatorFeedbackDate: ideas.moderatorFeedbackDate,
    categoryId: categories.id,
    categoryName: categories.name,
    commentCount,
    positiveRatingCount,
    negativeRatingCount,
    userRatingId: sql<number | null>`(select x.id from ${ratings} x where x.content_type = ${ct} and x.object_pk = ${ideas.id} and x.creator_id = ${uid})`,
    userRatingValue: sql<number | null>`(select x.value from ${ratings} x where x.content_type = ${ct} and x.object_pk = ${ideas.id} and x.creator_id = ${uid})`,
    labels: sql<NamedRef[] | null>`(select json_agg(json_build_object('id', l.id, 'name', l.name) order by l.id) from ${ideaLabels}
        inner join ${labels} l on l.id = ${ideaLabels.labelId} where ${ideaLabels.ideaId} = ${ideas.id})`,
    answers: customAnswersField(q(ideas.moduleId), q(ideas.id)),
  };
}

type IdeaFieldsRow = Omit<IdeaRow, 'category' | 'userRating' | 'labels' | 'answers'> & {
  categoryId: number | null;
  categoryName: string | null;
  userRatingId: number | null;
  userRatingValue: number | null;
  labels: NamedRef[] | null;
  answers: CustomAnswer[] | string | null;
};

const toIdeaRow = <R extends IdeaFieldsRow>({ categoryId, categoryName, userRatingId, userRatingValue, labels, answers, ...row }: R) => ({
  ...row,
  answers: toCustomAnswers(answers),
  category: categoryId !== null && categoryName !== null ? { id: categoryId, name: categoryName } : null,
  userRating: userRatingId === null || userRatingValue === null ? null : { id: Number(userRatingId), value: Number(userRatingValue) },
  labels: labels ?? [],
});

async function loadIdeaRows(db: DbOrTx, query: IdeaQuery, userId: number | null, counted: boolean, kind: IdeaKind): Promise<(IdeaRow & { total: number; fields: CustomField[] | string | null })[]> {
  const { table: ideas } = kind;
  const where = ideaWhere(query, kind);
  // A counted page also brings the module's questions (the list's filter): an uncorrelated subquery, computed once.
  const select = db
    .select({
      total: (counted ? sql<number>`(select count(*) from ${ideas} where ${where})` : sql<number>`0`).mapWith(Number),
      fields: counted ? customFieldsField(sql`${query.moduleId}::integer`) : sql<null>`null`,
      ...ideaFields(kind, userId ?? 0),
    })
    .from(ideas)
    .innerJoin(users, eq(users.id, ideas.creatorId))
    .leftJoin(categories, eq(categories.id, ideas.categoryId))
    .where(where)
    .orderBy(...orderingsOf(kind)[query.ordering ?? '-created']);
  const rows = query.limit === undefined ? await select : await select.limit(query.limit).offset(query.offset ?? 0);
  return rows.map(toIdeaRow);
}

/**
 * An idea by id inside an organisation with everything its pages know before its thread, in one
 * statement: its place (module, project, organisation), the idea as `loadIdeas` loads it, its
 * module with the viewer's rule context, whether the viewer follows the project and the
 * organisation's terms of use as the viewer sees them, the kind's `detailFields` (its page's
 * facts: a place, a budget) as `facts`, and the version of its project's pages; null when there is no such idea. The statement is prepared
 * once for `db` and the kind (its text built once per process, parsed once per connection).
 */
export function ideaHeadLoader(db: Db, kind: IdeaKind, detailFields: DetailFields = {}) {
  const { table: ideas } = kind;
  const uid = sql.placeholder('uid');
  const statement = db
    .select({
      idea: ideaFields(kind, uid),
      moduleSlug: modules.slug,
      moduleName: modules.name,
      projectSlug: projects.slug,
      projectName: projects.name,
      organisationName: organisations.name,
      rules: projectFields(uid),
      moduleIsDraft: modules.isDraft,
      blueprintType: modules.blueprintType,
      details: moduleDetailFields,
      customFields: customFieldsField(q(modules.id)),
      following: followingField(uid),
      terms: organisationTermsFields(uid),
      // The Follow/Unfollow button is the viewer's own: their kept page changes with their follow, nobody else's.
      pageVersion: pageVersionField(q(modules.projectId), q(modules.id), q(ideas.id), followingField(uid)),
      // The id keeps the nested selection from being empty when the kind adds nothing.
      facts: { ...detailFields, idea: sql<number>`${ideas.id}` },
    })
    .from(ideas)
    .innerJoin(users, eq(users.id, ideas.creatorId))
    .leftJoin(categories, eq(categories.id, ideas.categoryId))
    .innerJoin(modules, eq(modules.id, ideas.moduleId))
    .innerJoin(projects, eq(projects.id, modules.projectId))
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(and(eq(ideas.id, sql.placeholder('ideaId')), eq(organisations.slug, sql.placeholder('orgSlug'))))
    .prepare(`idea_head_${kind.kind}`);
  return async (orgSlug: string, ideaId: number, user: RuleUser, now = new Date()) => {
    const [row] = await statement.execute({ orgSlug, ideaId, uid: uidOf(user) });
    if (!row) return null;
    const idea: IdeaRow = toIdeaRow(row.idea);
    const { moduleSlug, moduleName, projectSlug, projectName, organisationName } = row;
    const place = { id: idea.id, moduleId: idea.moduleId, created: idea.created, moduleSlug, moduleName, projectSlug, projectName, organisationName };
    const module: LoadedModule = { id: idea.moduleId, projectId: row.rules.projectId, isDraft: row.moduleIsDraft, ...toModuleDetails(row.details) };
    const target: IdeaModule = { module, rules: moduleContextOf(row.rules, { ...module, blueprintType: row.blueprintType }, user, now), customFields: toCustomFields(row.customFields) };
    const { idea: _, ...facts } = row.facts;
    return {
      place,
      idea,
      target,
      following: Boolean(row.following),
      terms: toOrganisationTerms(row.terms, user?.id ?? null),
      facts: facts as Record<string, unknown>,
      pageVersion: row.pageVersion,
    };
  };
}

/** An idea's place: its module, project and organisation, by id inside an organisation; null when there is none. */
export async function loadIdeaPlace(db: DbOrTx, orgSlug: string, ideaId: number, { table: ideas }: IdeaKind) {
  const [row] = await db
    .select({
      id: ideas.id,
      moduleId: ideas.moduleId,
      created: ideas.created,
      moduleSlug: modules.slug,
      moduleName: modules.name,
      projectSlug: projects.slug,
      projectName: projects.name,
      organisationName: organisations.name,
    })
    .from(ideas)
    .innerJoin(modules, eq(modules.id, ideas.moduleId))
    .innerJoin(projects, eq(projects.id, modules.projectId))
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(and(eq(ideas.id, ideaId), eq(organisations.slug, orgSlug)));
  return row ?? null;
}

/** What only moderators see of an idea (its moderation page): how to reach its author, and who last gave the official feedback, when. */
export interface IdeaModerationFacts {
  creatorEmail: string;
  creatorPhone: string;
  creatorContactConsent: boolean;
  feedbackBy: string | null;
  feedbackDate: Date | null;
}

export async function loadIdeaModerationFacts(db: DbOrTx, { table: ideas }: IdeaKind, ideaId: number): Promise<IdeaModerationFacts | null> {
  const [row] = await db
    .select({
      creatorEmail: ideas.creatorEmail,
      creatorPhone: ideas.creatorPhone,
      creatorContactConsent: ideas.creatorContactConsent,
      feedbackBy: users.username,
      feedbackDate: ideas.moderatorFeedbackDate,
    })
    .from(ideas)
    .leftJoin(users, eq(users.id, ideas.moderatorFeedbackCreatorId))
    .where(eq(ideas.id, ideaId));
  return row ?? null;
}
