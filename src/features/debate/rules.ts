import type { FieldErrors } from '../../http/errors.js';
import type { ModuleContext } from '../../core/modules/rules.js';
import { canModerate } from '../../core/projects/rules.js';
import { textLimitError, type TextLimit } from '../../text/limits.js';

/**
 * add_subject, change_subject (also delete; §9.2): is_allowed_moderate_project — the project's
 * moderators, its organisation's initiators, superusers; at any time. Participants only comment.
 */
export const canAddSubject = (c: ModuleContext) => canModerate(c.project);
export const canChangeSubject = canAddSubject;

/** §9.1: a title of at most 120 characters, a plain description of at most 350. */
export const SUBJECT_LIMITS = { name: { maxChars: 120 }, description: { maxChars: 350 } } satisfies Record<string, TextLimit>;

export interface SubjectInput {
  name: string;
  description: string;
}

/** Checks a subject's fields: the errors beside each (catalogue keys with their placeholders applied by `translate`). */
export function subjectInputErrors(input: SubjectInput, translate: (key: string, vars?: Record<string, string | number>) => string): FieldErrors {
  const errors: FieldErrors = {};
  if (!input.name.trim()) errors.name = [translate('This field is required.')];
  for (const field of ['name', 'description'] as const) {
    const error = textLimitError(input[field], SUBJECT_LIMITS[field]);
    if (error) errors[field] = [translate(error[0], error[1])];
  }
  return errors;
}
