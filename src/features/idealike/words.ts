import { type Lang, t, tn } from '../../i18n/index.js';

/** The official feedback's e-mail and notification, as mail/notices.ts (NOTICES.idea_feedback) and core/notifications/kinds.ts word them for ideas. */
export const FEEDBACK_TEXTS = {
  subject: 'Feedback from the moderation on your idea',
  body: 'Hello %(name)s,\n\nthe moderation of the project "%(project)s" has given your idea "%(idea)s" the status "%(status)s":\n\n%(text)s\n\nView the idea: %(url)s',
  message: 'The moderation of the project "%(project)s" gave your idea "%(idea)s" feedback.',
} as const;

/**
 * The texts of the idea pages that name the item (catalogue keys, English as the key). A kind whose
 * items are not called ideas (proposals) gives each of them its own text (`IdeaKind.words`), so its
 * forms, buttons, lists and messages never call them ideas.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- read as a type only (IdeaText): the list is the one place the texts are written
const IDEA_TEXTS = [
  '%(count)s idea',
  '%(count)s ideas',
  'Submit your idea',
  'Log in to submit your idea',
  'Submit a new idea for this project',
  'Edit idea',
  'Filter ideas',
  'Pages of ideas',
  'Map of the ideas',
  'Rate this idea',
  'Image of the idea %(name)s',
  'Why do you report this idea?',
  'Delete idea',
  'Do you really want to delete the idea "%(name)s"? Its comments and ratings are deleted with it.',
  'Moderate the idea',
  'Thank you. The moderators have been told about this idea.',
  'Your idea has been saved.',
  'Your idea has been deleted.',
  'The moderation of the idea has been saved.',
  FEEDBACK_TEXTS.subject,
  FEEDBACK_TEXTS.body,
  FEEDBACK_TEXTS.message,
] as const;

type IdeaText = (typeof IDEA_TEXTS)[number];

/** A kind's own texts for the idea texts; unset: the idea's. */
export type IdeaWords = Readonly<Record<IdeaText, string>>;

/** The catalogue key of an idea text in a kind's words (for messages translated later, as the flash's). */
export const wordOf = (words: IdeaWords | undefined, text: IdeaText) => words?.[text] ?? text;

/** An idea text in a kind's words, through the catalogue. */
export const say = (lang: Lang, words: IdeaWords | undefined, text: IdeaText, vars?: Record<string, string | number>) => t(lang, wordOf(words, text), vars);

/** The count of items in a kind's words ("1 idea", "3 proposals"). */
export const sayCount = (lang: Lang, words: IdeaWords | undefined, count: number) => tn(lang, words?.['%(count)s idea'] ?? '%(count)s idea', words?.['%(count)s ideas'] ?? '%(count)s ideas', count);
