import { and, asc, desc, eq, ilike } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { subjects } from './schema.js';
import { ideaReferenceNumber } from '../../core/urls.js';
import { commentCountOn, countPerModule, itemPlaces, type ItemRow } from '../moduletypes/items.js';

/** A subject's page, by its reference number (`/<org>/subjects/<yyyy>-<pk:05>/`, §9.2). */
export const subjectPath = (orgSlug: string, created: Date, id: number) => `/${orgSlug}/subjects/${ideaReferenceNumber(created, id)}/`;
export const subjectCreatePath = (orgSlug: string, moduleSlug: string) => `/${orgSlug}/subjects/create/module/${moduleSlug}/`;

/** The list's orderings (§9.2): alphabetical (default) or most commented. */
export const SUBJECT_ORDERINGS = ['name', '-comment_count'] as const;
export type SubjectOrdering = (typeof SUBJECT_ORDERINGS)[number];

export type SubjectRow = ItemRow;

const commentCount = commentCountOn('subject', subjects.id);

/** A module's subjects (or one of them), searched by title and ordered, in one statement. */
export async function loadSubjects(db: DbOrTx, query: { moduleId: number; subjectId?: number; search?: string; ordering?: SubjectOrdering | 'id' }): Promise<SubjectRow[]> {
  const escaped = query.search?.replace(/[\\%_]/g, (c) => `\\${c}`);
  const order = { name: [asc(subjects.name), asc(subjects.id)], '-comment_count': [desc(commentCount), asc(subjects.name), asc(subjects.id)], id: [asc(subjects.id)] }[query.ordering ?? 'name'];
  return db
    .select({ id: subjects.id, moduleId: subjects.moduleId, name: subjects.name, description: subjects.description, created: subjects.created, creatorName: users.username, commentCount })
    .from(subjects)
    .innerJoin(users, eq(users.id, subjects.creatorId))
    .where(
      and(
        eq(subjects.moduleId, query.moduleId),
        query.subjectId === undefined ? undefined : eq(subjects.id, query.subjectId),
        escaped ? ilike(subjects.name, `%${escaped}%`) : undefined,
      ),
    )
    .orderBy(...order);
}

/** How many subjects each module has (the publish check). */
export const countSubjects = (db: DbOrTx, moduleIds: number[]) => countPerModule(db, subjects.moduleId, moduleIds);

/** Where subjects live: their module and organisation (inside one organisation when it is given). */
export const subjectPlaces = (db: DbOrTx, ids: number[], orgSlug?: string) => itemPlaces(db, subjects, ids, orgSlug);
