import { canViewItem, type ModuleContext } from '../../core/modules/rules.js';
import { canModerate, type ProjectItemContext } from '../../core/projects/rules.js';

/** The most a moderator's feedback on a comment may hold (API and pages). */
export const FEEDBACK_TEXT_MAX_LENGTH = 10_000;

/** The field error of a feedback text, or null. */
export const feedbackTextError = (text: string): string | null =>
  text.length > FEEDBACK_TEXT_MAX_LENGTH ? `Ensure this field has no more than ${FEEDBACK_TEXT_MAX_LENGTH} characters.` : null;

/** Reading moderator feedback on a comment: whoever may see the comment. */
export const canViewModeratorFeedback = (c: ModuleContext | ProjectItemContext) => canViewItem(c);

/** Giving, changing and deleting moderator feedback: moderators, initiators and superusers. */
export const canGiveModeratorFeedback = (c: ModuleContext | ProjectItemContext) => canModerate(c.project);
