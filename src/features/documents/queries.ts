import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { comments, modules, organisations, projects } from '../../db/schema/index.js';
import { chapters, paragraphs } from './schema.js';
import { commentCountOn, countPerModule } from '../moduletypes/items.js';

/** The page of a chapter and of a paragraph (adhocracy+'s addresses, §7.1). */
export const chapterPath = (orgSlug: string, id: number) => `/${orgSlug}/text/chapters/${id}/`;
export const paragraphPath = (orgSlug: string, id: number) => `/${orgSlug}/text/paragraphs/${id}/`;
/** The document editor of a module (initiators from the dashboard, moderators from the module page). */
export const documentEditPath = (orgSlug: string, moduleSlug: string) => `/${orgSlug}/text/module/${moduleSlug}/edit/`;

export interface DocumentParagraph {
  id: number;
  chapterId: number;
  name: string;
  text: string;
  weight: number;
  /** Comments on it and their replies, removed ones included (a thread keeps its place). */
  commentCount: number;
}

export interface DocumentChapter {
  id: number;
  name: string;
  weight: number;
  commentCount: number;
  paragraphs: DocumentParagraph[];
}

/** A module's document in reading order: its chapters, each with its paragraphs and comment counts (two statements). */
export async function loadDocument(db: DbOrTx, moduleId: number): Promise<DocumentChapter[]> {
  const chapterRows = await db
    .select({ id: chapters.id, name: chapters.name, weight: chapters.weight, commentCount: commentCountOn('chapter', chapters.id) })
    .from(chapters)
    .where(eq(chapters.moduleId, moduleId))
    .orderBy(asc(chapters.weight), asc(chapters.id));
  if (!chapterRows.length) return [];
  const paragraphRows = await db
    .select({ id: paragraphs.id, chapterId: paragraphs.chapterId, name: paragraphs.name, text: paragraphs.text, weight: paragraphs.weight, commentCount: commentCountOn('paragraph', paragraphs.id) })
    .from(paragraphs)
    .where(inArray(paragraphs.chapterId, chapterRows.map((c) => c.id)))
    .orderBy(asc(paragraphs.weight), asc(paragraphs.id));
  return chapterRows.map((chapter) => ({ ...chapter, paragraphs: paragraphRows.filter((p) => p.chapterId === chapter.id) }));
}

/** How many chapters each module has (the publish check: at least one). */
export const countChapters = (db: DbOrTx, moduleIds: number[]) => countPerModule(db, chapters.moduleId, moduleIds);

const place = { moduleSlug: modules.slug, orgSlug: organisations.slug };

/** Where chapters live: their module's slug and organisation, by chapter id. */
export const chapterPlaces = (db: DbOrTx, ids: number[], orgSlug?: string) =>
  db
    .select({ id: chapters.id, name: chapters.name, moduleId: chapters.moduleId, ...place })
    .from(chapters)
    .innerJoin(modules, eq(modules.id, chapters.moduleId))
    .innerJoin(projects, eq(projects.id, modules.projectId))
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(and(inArray(chapters.id, ids), orgSlug === undefined ? undefined : eq(organisations.slug, orgSlug)));

/** Where paragraphs live: their chapter, module and organisation, by paragraph id. */
export const paragraphPlaces = (db: DbOrTx, ids: number[], orgSlug?: string) =>
  db
    .select({ id: paragraphs.id, name: paragraphs.name, chapterId: paragraphs.chapterId, chapterName: chapters.name, moduleId: chapters.moduleId, ...place })
    .from(paragraphs)
    .innerJoin(chapters, eq(chapters.id, paragraphs.chapterId))
    .innerJoin(modules, eq(modules.id, chapters.moduleId))
    .innerJoin(projects, eq(projects.id, modules.projectId))
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(and(inArray(paragraphs.id, ids), orgSlug === undefined ? undefined : eq(organisations.slug, orgSlug)));

/** A chapter inside an organisation (another organisation's chapter is not found). */
export async function findChapter(db: DbOrTx, orgSlug: string, id: number) {
  const [row] = await chapterPlaces(db, [id], orgSlug);
  return row ?? null;
}

/** A paragraph inside an organisation. */
export async function findParagraph(db: DbOrTx, orgSlug: string, id: number) {
  const [row] = await paragraphPlaces(db, [id], orgSlug);
  return row ?? null;
}

/** How many comments (replies included) are on each of the chapters and paragraphs. */
export async function commentCountsOn(db: DbOrTx, objects: { type: 'chapter' | 'paragraph'; id: number }[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const type of ['chapter', 'paragraph'] as const) {
    const ids = objects.filter((o) => o.type === type).map((o) => o.id);
    if (!ids.length) continue;
    const rows = await db
      .select({ id: comments.objectPk, n: sql<number>`count(*)`.mapWith(Number) })
      .from(comments)
      .where(and(eq(comments.contentType, type), inArray(comments.objectPk, ids)))
      .groupBy(comments.objectPk);
    for (const row of rows) counts.set(`${type}:${row.id}`, row.n);
  }
  return counts;
}
