import { canViewModule, type ModuleContext } from '../modules/rules.js';
import { canModerate } from '../projects/rules.js';

/** Reading moderator feedback on a comment: whoever may see the comment. */
export const canViewModeratorFeedback = (c: ModuleContext) => canViewModule(c);

/** Giving, changing and deleting moderator feedback: moderators, initiators and superusers. */
export const canGiveModeratorFeedback = (c: ModuleContext) => canModerate(c.project);
