import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { chapters, paragraphs } from './schema.js';
import { cleanRichText } from '../../text/html.js';
import type { DocumentInput } from './editor.js';
import { commentCountsOn } from './queries.js';
import type { Problem } from './rules.js';

/**
 * Saves a module's document as the editor sent it, in reading order, inside the caller's
 * transaction. A chapter or paragraph is deleted only when asked to, and never when it has comments
 * (§7.3: adhocracy+ deletes them silently, with their comments): then nothing is saved and the
 * problems name each one. Returns the problems (empty: saved).
 */
export async function saveDocument(tx: Tx, moduleId: number, creatorId: number, input: DocumentInput): Promise<Problem[]> {
  const storedChapters = await tx.select({ id: chapters.id, name: chapters.name, weight: chapters.weight }).from(chapters).where(eq(chapters.moduleId, moduleId));
  const chapterById = new Map(storedChapters.map((c) => [c.id, c]));
  const storedParagraphs = storedChapters.length
    ? await tx
        .select({ id: paragraphs.id, chapterId: paragraphs.chapterId, name: paragraphs.name, text: paragraphs.text, weight: paragraphs.weight })
        .from(paragraphs)
        .where(inArray(paragraphs.chapterId, storedChapters.map((c) => c.id)))
    : [];
  const paragraphById = new Map(storedParagraphs.map((p) => [p.id, p]));

  const problems: Problem[] = [];
  const stale = input.chapters.some((c) => (c.id !== null && !chapterById.has(c.id)) || c.paragraphs.some((p) => p.id !== null && paragraphById.get(p.id)?.chapterId !== c.id));
  if (stale) return [{ message: 'The document was changed meanwhile. Please open the editor again.' }];

  const deletedChapterIds = input.chapters.flatMap((c) => (c.delete && c.id !== null ? [c.id] : []));
  const deletedParagraphIds = new Set([
    ...input.chapters.flatMap((c) => c.paragraphs.flatMap((p) => (p.delete && p.id !== null ? [p.id] : []))),
    ...storedParagraphs.filter((p) => deletedChapterIds.includes(p.chapterId)).map((p) => p.id),
  ]);
  const counts = await commentCountsOn(tx, [...deletedChapterIds.map((id) => ({ type: 'chapter' as const, id })), ...[...deletedParagraphIds].map((id) => ({ type: 'paragraph' as const, id }))]);
  for (const id of deletedChapterIds) {
    const count = counts.get(`chapter:${id}`) ?? 0;
    if (count) problems.push({ message: 'The chapter “%(name)s” cannot be deleted: its comments (%(count)s) would be lost.', vars: { name: chapterById.get(id)?.name ?? '', count } });
  }
  for (const id of deletedParagraphIds) {
    const count = counts.get(`paragraph:${id}`) ?? 0;
    const paragraph = paragraphById.get(id);
    if (count && paragraph) {
      const name = paragraph.name || `${chapterById.get(paragraph.chapterId)?.name ?? ''} (${paragraph.id})`;
      problems.push({ message: 'The paragraph “%(name)s” cannot be deleted: its comments (%(count)s) would be lost.', vars: { name, count } });
    }
  }
  if (problems.length) return problems;

  const now = new Date();
  let chapterWeight = 0;
  for (const chapter of input.chapters) {
    if (chapter.delete) continue;
    const weight = chapterWeight++;
    let chapterId = chapter.id;
    if (chapterId === null) {
      [{ id: chapterId }] = await tx.insert(chapters).values({ moduleId, creatorId, name: chapter.name, weight }).returning({ id: chapters.id });
    } else {
      const stored = chapterById.get(chapterId);
      if (stored && (stored.name !== chapter.name || stored.weight !== weight)) await tx.update(chapters).set({ name: chapter.name, weight, modified: now }).where(eq(chapters.id, chapterId));
    }
    let paragraphWeight = 0;
    for (const paragraph of chapter.paragraphs) {
      if (paragraph.delete) continue;
      const values = { name: paragraph.name, text: cleanRichText(paragraph.text), weight: paragraphWeight++ };
      if (paragraph.id === null) {
        await tx.insert(paragraphs).values({ chapterId, ...values });
      } else {
        const stored = paragraphById.get(paragraph.id);
        if (stored && (stored.name !== values.name || stored.text !== values.text || stored.weight !== values.weight)) {
          await tx.update(paragraphs).set({ ...values, modified: now }).where(eq(paragraphs.id, paragraph.id));
        }
      }
    }
  }
  if (deletedParagraphIds.size) await tx.delete(paragraphs).where(inArray(paragraphs.id, [...deletedParagraphIds]));
  if (deletedChapterIds.length) await tx.delete(chapters).where(and(eq(chapters.moduleId, moduleId), inArray(chapters.id, deletedChapterIds)));
  return [];
}
