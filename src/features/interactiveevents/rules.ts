import { canModerate } from '../../core/projects/rules.js';
import { canViewModule, isPublished, phaseAllowsFor, type ModuleContext } from '../../core/modules/rules.js';
import { isLive } from '../../core/projects/rules.js';

/**
 * Who may do what in an Interactive Event (adhocracy+'s interactiveevents/rules.py, with its
 * defects fixed). Asking and liking need no account: the running phase decides, for everyone alike,
 * in a published module of a live project. Moderating (the toggles, hidden questions, the
 * presentation screen) is the project's moderators', initiators' and superusers'.
 */

/** view_livequestion: whoever may see the module. */
export const canViewEvent = (c: ModuleContext) => canViewModule(c);

/** moderate_livequestions / change_livequestion (a+ only gave superusers the hidden questions). */
export const canModerateEvent = (c: ModuleContext) => canViewModule(c) && canModerate(c.project);

const open = (c: ModuleContext) => canViewModule(c) && isPublished(c) && isLive(c.project) && !c.project.isArchived;

/** add_livequestion: the running phase has `crud` on live questions. */
export const canAskQuestion = (c: ModuleContext) => open(c) && phaseAllowsFor(c, 'crud', 'livequestion');

/** add_like: the running phase has `like` on live questions. */
export const canLikeQuestion = (c: ModuleContext) => open(c) && phaseAllowsFor(c, 'like', 'livequestion');

/** A question is on the screen while it is marked for it and not yet answered (the presentation shows those; the event page's badge says the same). */
export const isOnScreen = (q: { isLive: boolean; isAnswered: boolean }) => q.isLive && !q.isAnswered;

/** The most characters of a question (the API's limit in adhocracy+). */
export const QUESTION_MAX = 1000;

/**
 * A like from a browser counts for the session its page view opened (issue 36.3): a post without a
 * live session is refused, and never opens one, so a cookie-less script cannot like again and again.
 */
export const LIKE_NEEDS_SESSION = "Liking needs the session of a page view: open the event's page first.";
