import type { ModuleContext } from '../../core/modules/rules.js';
import { canModerate } from '../../core/projects/rules.js';
import { imagesWithoutAltText } from '../../text/html.js';
import { RICH_TEXT_LIMIT, textLimitError, type TextLimit } from '../../text/limits.js';

/** add_chapter, change_chapter (§7.2): is_allowed_moderate_project — project moderators edit the text too, initiators of another organisation do not. */
export const canEditDocument = (c: ModuleContext) => canModerate(c.project);

/** The most each text of the document may hold. */
export const DOCUMENT_LIMITS = {
  chapter: { maxChars: 120 },
  paragraph: { maxChars: 120 },
  text: RICH_TEXT_LIMIT,
} satisfies Record<string, TextLimit>;

/** A problem with a field: a catalogue key and its placeholders. */
export interface Problem {
  message: string;
  vars?: Record<string, string | number>;
}

const limit = (value: string, which: keyof typeof DOCUMENT_LIMITS): Problem | null => {
  const error = textLimitError(value, DOCUMENT_LIMITS[which]);
  return error && { message: error[0], vars: error[1] };
};

/** A chapter needs a name (§7.1: required, at most 120 characters). */
export const chapterNameProblem = (name: string): Problem | null => (name.trim() ? limit(name, 'chapter') : { message: 'This field is required.' });

/** A paragraph's name is optional (at most 120 characters). */
export const paragraphNameProblem = (name: string): Problem | null => limit(name, 'paragraph');

/** A paragraph's text: rich text within its limit, every image with an alternative text (§1.3). */
export function paragraphTextProblem(text: string): Problem | null {
  if (imagesWithoutAltText(text) > 0) return { message: 'Please add an alternative text for all images.' };
  return limit(text, 'text');
}
