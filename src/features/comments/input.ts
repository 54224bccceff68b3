import { Type } from 'typebox';
import { fieldErrors } from '../../http/errors.js';
import { stripTags } from '../../text/html.js';
import { type Lang, t } from '../../i18n/index.js';

/** The longest comment (the reference's max_length), counted on the text as sent. */
export const COMMENT_MAX_LENGTH = 4000;
/** The comment categories the platform offers (A4_COMMENT_CATEGORIES): suggestion, note, question. */
export const COMMENT_CATEGORIES = ['sug', 'not', 'que'] as const;
/** Each category's name (a catalogue key). */
export const COMMENT_CATEGORY_NAMES: Record<string, string> = { sug: 'Suggestion', not: 'Note', que: 'Question' };

/** The categories offered, key to name in the language (a4's `categories` of the list answer, asked with `categories=true`). */
export const commentCategoryChoices = (lang: Lang): Record<string, string> => Object.fromEntries(COMMENT_CATEGORIES.map((c) => [c, t(lang, COMMENT_CATEGORY_NAMES[c])]));

/** A stored list of categories as a4's serializer answers it: key to name, an unknown key named by itself; {} for none. */
export const commentCategoryLabels = (raw: string, lang: Lang): Record<string, string> =>
  Object.fromEntries(commentCategoryList(raw).map((key) => [key, Object.hasOwn(COMMENT_CATEGORY_NAMES, key) ? t(lang, COMMENT_CATEGORY_NAMES[key]) : key]));

export const CommentText = Type.String({ maxLength: COMMENT_MAX_LENGTH });
/** The stored list of categories ("[sug,que]") may hold at most this many characters. */
export const COMMENT_CATEGORIES_MAX_LENGTH = 256;
export const CommentCategories = Type.String({ maxLength: COMMENT_CATEGORIES_MAX_LENGTH, description: `A list of ${COMMENT_CATEGORIES.join(', ')} as "[sug,que]" (or "sug,que"); empty for none` });

/**
 * What is wrong with a comment's text (a catalogue key), or null. Used by the API, the pages and the
 * moderation edit; a blank text is said the API's way (DRF) unless the caller says it the form's way.
 */
export function commentTextProblem(raw: string, blank = 'This field may not be blank.'): string | null {
  if (raw.length > COMMENT_MAX_LENGTH) return `Ensure this field has no more than ${COMMENT_MAX_LENGTH} characters.`;
  if (raw.includes('\0')) return 'Null characters are not allowed.';
  if (!stripTags(raw).trim()) return blank;
  return null;
}

/** The text of a new or edited comment from the API: not blank, within the limit; a 400 otherwise. */
export function commentText(raw: string): string {
  const problem = commentTextProblem(raw);
  if (problem) throw fieldErrors({ comment: [problem] });
  return raw;
}

/**
 * Comment categories as stored: "[sug,que]" (the reference's format), known choices only, each once,
 * in the order given; "" for none. Anything else is a 400 with a field error.
 */
export function commentCategories(raw: string): string {
  const checked = checkCommentCategories(raw);
  if ('problem' in checked) throw fieldErrors({ comment_categories: [checked.problem] });
  return checked.value;
}

/** The same check for forms: the stored value, or the problem to show beside the field. */
export function checkCommentCategories(raw: string): { value: string } | { problem: string } {
  const chosen = commentCategoryList(raw);
  const unknown = chosen.find((c) => !(COMMENT_CATEGORIES as readonly string[]).includes(c));
  if (unknown !== undefined) return { problem: `"${stripTags(unknown).slice(0, 20)}" is not a valid choice.` };
  return { value: chosen.length ? `[${[...new Set(chosen)].join(',')}]` : '' };
}

/** The categories in a stored or sent value ("[sug,que]", "sug,que"), as given. */
const commentCategoryList = (raw: string): string[] =>
  raw
    .trim()
    .replace(/^\[(.*)\]$/s, '$1')
    .split(',')
    .map((c) => c.trim().replace(/^['"](.*)['"]$/s, '$1'))
    .filter((c) => c !== '');
