import { and, asc, desc, eq, gt, ilike, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { qualified as q } from '../../db/sql.js';
import { categories, labels, ratings, users } from '../../db/schema/index.js';
import { topicLabels, topics } from './schema.js';
import type { NamedRef } from '../../core/modules/queries.js';
import { ideaReferenceNumber } from '../../core/urls.js';
import { commentCountOn, countPerModule, itemPlaces, type ItemRow } from '../moduletypes/items.js';

/** A topic's page, by its reference number (`/<org>/topicprio/<yyyy>-<pk:05>/`, §8.2). */
export const topicPath = (orgSlug: string, created: Date, id: number) => `/${orgSlug}/topicprio/${ideaReferenceNumber(created, id)}/`;
export const topicCreatePath = (orgSlug: string, moduleSlug: string) => `/${orgSlug}/topicprio/create/module/${moduleSlug}/`;

/** The list's orderings (§8.2): alphabetical (default), most popular, most commented. */
export const TOPIC_ORDERINGS = ['name', '-positive_rating_count', '-comment_count'] as const;
export type TopicOrdering = (typeof TOPIC_ORDERINGS)[number];

export interface TopicRow extends ItemRow {
  /** Its picture (a media path), kept from adhocracy+. */
  image: string | null;
  category: NamedRef | null;
  labels: NamedRef[];
  positiveRatingCount: number;
  negativeRatingCount: number;
  /** The viewer's rating (1, -1) or 0. */
  userRating: number;
}

const id = q(topics.id);
const commentCount = commentCountOn('topic', topics.id);
const ratingCount = (value: 1 | -1) => sql<number>`(select count(*) from ${ratings} x where x.content_type = 'topic' and x.object_pk = ${id} and x.value = ${value})`.mapWith(Number);

interface TopicQuery {
  moduleId: number;
  topicId?: number;
  categoryId?: number;
  search?: string;
  ordering?: TopicOrdering | 'id';
  afterId?: number;
  limit?: number;
}

/** A module's topics (or one of them), filtered and ordered, with counts, the viewer's rating and labels, in one statement. */
export async function loadTopics(db: DbOrTx, query: TopicQuery, userId: number | null): Promise<TopicRow[]> {
  const escaped = query.search?.replace(/[\\%_]/g, (c) => `\\${c}`);
  const positive = ratingCount(1);
  const orders: Record<TopicOrdering | 'id', SQL[]> = {
    id: [asc(topics.id)],
    name: [asc(topics.name), asc(topics.id)],
    '-positive_rating_count': [desc(positive), asc(topics.name), asc(topics.id)],
    '-comment_count': [desc(commentCount), asc(topics.name), asc(topics.id)],
  };
  const select = db
    .select({
      id: topics.id,
      moduleId: topics.moduleId,
      name: topics.name,
      description: topics.description,
      image: topics.image,
      created: topics.created,
      creatorName: users.username,
      categoryId: categories.id,
      categoryName: categories.name,
      commentCount,
      positiveRatingCount: positive,
      negativeRatingCount: ratingCount(-1),
      userRating: sql<number>`coalesce((select x.value from ${ratings} x where x.content_type = 'topic' and x.object_pk = ${id} and x.creator_id = ${userId ?? 0}), 0)`.mapWith(Number),
      labels: sql<NamedRef[] | null>`(select json_agg(json_build_object('id', l.id, 'name', l.name) order by l.id) from ${topicLabels} tl inner join ${labels} l on l.id = tl.label_id where tl.topic_id = ${id})`,
    })
    .from(topics)
    .innerJoin(users, eq(users.id, topics.creatorId))
    .leftJoin(categories, eq(categories.id, topics.categoryId))
    .where(
      and(
        eq(topics.moduleId, query.moduleId),
        query.topicId === undefined ? undefined : eq(topics.id, query.topicId),
        query.categoryId === undefined ? undefined : eq(topics.categoryId, query.categoryId),
        escaped ? ilike(topics.name, `%${escaped}%`) : undefined,
        query.afterId === undefined ? undefined : gt(topics.id, query.afterId),
      ),
    )
    .orderBy(...orders[query.ordering ?? 'name']);
  const rows = query.limit === undefined ? await select : await select.limit(query.limit);
  return rows.map(({ categoryId, categoryName, labels: labelList, ...row }) => ({
    ...row,
    category: categoryId !== null && categoryName !== null ? { id: categoryId, name: categoryName } : null,
    labels: typeof labelList === 'string' ? (JSON.parse(labelList) as NamedRef[]) : (labelList ?? []),
  }));
}

/** How many topics each module has (the publish check). */
export const countTopics = (db: DbOrTx, moduleIds: number[]) => countPerModule(db, topics.moduleId, moduleIds);

/** Where topics live: their module and organisation (inside one organisation when it is given). */
export const topicPlaces = (db: DbOrTx, ids: number[], orgSlug?: string) => itemPlaces(db, topics, ids, orgSlug);
