import type { FieldErrors } from '../../http/errors.js';
import { type Lang, t } from '../../i18n/index.js';
import type { DocumentChapter } from './queries.js';
import { chapterNameProblem, paragraphNameProblem, paragraphTextProblem, type Problem } from './rules.js';

/**
 * The document editor's form (one page, no script needed): every chapter and paragraph with its
 * name, text, position and a "delete" box, plus an empty paragraph under each chapter and an empty
 * chapter at the end. Saving changes what the form shows; what it does not show is left alone.
 */

interface ParagraphForm {
  key: string;
  id: string;
  name: string;
  text: string;
  weight: string;
  delete: boolean;
}

export interface ChapterForm {
  key: string;
  id: string;
  name: string;
  weight: string;
  delete: boolean;
  paragraphs: ParagraphForm[];
}

/** What a save asks for, in reading order. */
export interface DocumentInput {
  chapters: {
    id: number | null;
    name: string;
    delete: boolean;
    paragraphs: { id: number | null; name: string; text: string; delete: boolean }[];
  }[];
}

const blankParagraph = (key: string, weight: number): ParagraphForm => ({ key, id: '', name: '', text: '', weight: String(weight), delete: false });

/** The form of a stored document, with its empty rows for new content. */
export function documentForm(document: DocumentChapter[]): ChapterForm[] {
  const rows = document.map((chapter, i) => ({
    key: `c${i}`,
    id: String(chapter.id),
    name: chapter.name,
    weight: String(i + 1),
    delete: false,
    paragraphs: [
      ...chapter.paragraphs.map((p, j) => ({ key: `c${i}p${j}`, id: String(p.id), name: p.name, text: p.text, weight: String(j + 1), delete: false })),
      blankParagraph(`c${i}p${chapter.paragraphs.length}`, chapter.paragraphs.length + 1),
    ],
  }));
  const n = document.length;
  return [...rows, { key: `c${n}`, id: '', name: '', weight: String(n + 1), delete: false, paragraphs: [blankParagraph(`c${n}p0`, 1)] }];
}

const MAX_ROWS = 500;
const indices = (keys: string[], pattern: RegExp) =>
  [...new Set(keys.flatMap((k) => (pattern.exec(k) ? [Number(pattern.exec(k)?.[1])] : [])))].filter((n) => n < MAX_ROWS).sort((a, b) => a - b);

/** The form as posted. */
export function readDocumentForm(body: Record<string, string | string[]>): ChapterForm[] {
  const value = (name: string) => {
    const v = body[name];
    return (Array.isArray(v) ? (v[0] ?? '') : (v ?? '')).trim();
  };
  const keys = Object.keys(body);
  return indices(keys, /^c(\d+)-(?:id|name)$/).map((i) => ({
    key: `c${i}`,
    id: value(`c${i}-id`),
    name: value(`c${i}-name`),
    weight: value(`c${i}-weight`),
    delete: value(`c${i}-delete`) === 'on',
    paragraphs: indices(keys, new RegExp(`^c${i}p(\\d+)-(?:id|name|text)$`)).map((j) => {
      const key = `c${i}p${j}`;
      return { key, id: value(`${key}-id`), name: value(`${key}-name`), text: value(`${key}-text`), weight: value(`${key}-weight`), delete: value(`${key}-delete`) === 'on' };
    }),
  }));
}

const isBlankParagraph = (p: ParagraphForm) => !p.id && !p.name && !p.text;
const isBlankChapter = (c: ChapterForm) => !c.id && !c.name && c.paragraphs.every(isBlankParagraph);
const position = (weight: string) => (/^\d{1,6}$/.test(weight) ? Number(weight) : null);
const idOf = (id: string) => (/^\d{1,9}$/.test(id) ? Number(id) : null);

/** In position order; equal positions keep the form's order. */
function byPosition<T extends { weight: string }>(rows: T[]): T[] {
  return rows.map((row, i) => ({ row, i, w: position(row.weight) ?? 0 })).sort((a, b) => a.w - b.w || a.i - b.i).map((x) => x.row);
}

/** Checks the posted form: the input to save, or the errors beside the fields (in the page's language). */
export function checkDocumentForm(form: ChapterForm[], lang: Lang): { input: DocumentInput; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const note = (field: string, problem: Problem | null) => {
    if (problem) errors[field] = [t(lang, problem.message, problem.vars)];
  };
  const chapters = byPosition(form.filter((c) => !isBlankChapter(c))).map((chapter) => {
    if (!chapter.delete) note(`${chapter.key}-name`, chapterNameProblem(chapter.name));
    if (position(chapter.weight) === null) note(`${chapter.key}-weight`, { message: 'Enter a whole number.' });
    const paragraphs = byPosition(chapter.paragraphs.filter((p) => !isBlankParagraph(p))).map((p) => {
      if (!p.delete) {
        note(`${p.key}-name`, paragraphNameProblem(p.name));
        note(`${p.key}-text`, paragraphTextProblem(p.text));
      }
      if (position(p.weight) === null) note(`${p.key}-weight`, { message: 'Enter a whole number.' });
      return { id: idOf(p.id), name: p.name, text: p.text, delete: p.delete };
    });
    return { id: idOf(chapter.id), name: chapter.name, delete: chapter.delete, paragraphs };
  });
  return { input: { chapters }, errors };
}
