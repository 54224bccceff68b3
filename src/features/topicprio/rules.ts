import type { FieldErrors } from '../../http/errors.js';
import type { NamedRef } from '../../core/modules/queries.js';
import type { ModuleContext } from '../../core/modules/rules.js';
import { canModerate } from '../../core/projects/rules.js';
import { imagesWithoutAltText, stripTags } from '../../text/html.js';
import { RICH_TEXT_LIMIT, textLimitError, type TextLimit } from '../../text/limits.js';
import { canRate } from '../comments/rules.js';

/**
 * add_topic, change_topic (also delete; §8.2): is_allowed_moderate_project — topics are written by
 * the project's moderators and its organisation's initiators, never by participants.
 */
export const canAddTopic = (c: ModuleContext) => canModerate(c.project);
export const canChangeTopic = canAddTopic;

/** rate_topic: moderators any time, members while the prioritisation phase runs (the shared rating rule). */
export const canRateTopic = (c: ModuleContext) => canRate({ ...c, root: { type: 'topic' } }, 'topic');

/** §8.1: a title of at most 120 characters; a rich-text description, required. */
export const TOPIC_LIMITS = { name: { maxChars: 120 }, description: RICH_TEXT_LIMIT } satisfies Record<string, TextLimit>;

export interface TopicInput {
  name: string;
  description: string;
  categoryId: number | null;
  labelIds: number[];
}

/** Checks a topic's fields against its module's categories and labels: the errors beside each, translated by `translate`. */
export function topicInputErrors(input: TopicInput, module: { categories: NamedRef[]; labels: NamedRef[] }, translate: (key: string, vars?: Record<string, string | number>) => string): FieldErrors {
  const errors: FieldErrors = {};
  const required = translate('This field is required.');
  if (!input.name.trim()) errors.name = [required];
  if (!stripTags(input.description).trim()) errors.description = [required];
  else if (imagesWithoutAltText(input.description) > 0) errors.description = [translate('Please add an alternative text for all images.')];
  for (const field of ['name', 'description'] as const) {
    const error = textLimitError(input[field], TOPIC_LIMITS[field]);
    if (error) errors[field] = [translate(error[0], error[1])];
  }
  // §1.3: with categories, choosing one is required.
  if (module.categories.length && input.categoryId === null) errors.category = [required];
  if (input.categoryId !== null && !module.categories.some((c) => c.id === input.categoryId)) errors.category = [translate('Select a valid choice.')];
  if (input.labelIds.some((id) => !module.labels.some((l) => l.id === id))) errors.labels = [translate('Select a valid choice.')];
  return errors;
}
