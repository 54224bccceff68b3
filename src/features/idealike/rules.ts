import { canViewModule, type ModuleContext, participatesIn, phaseAllowsFor } from '../../core/modules/rules.js';
import { canModerate } from '../../core/projects/rules.js';
import type { ContentKind } from '../../db/schema/index.js';

/** What the idea rules look at: the module context (project, roles, module, phases, now). */
export type IdeaRuleContext = ModuleContext;

/** `kind`: the content kind of the idea-like items the rules ask the phases about (IdeaKind.kind). */
const phaseAllowsIdea = (c: IdeaRuleContext, feature: 'crud' | 'comment' | 'rate', kind: ContentKind) => phaseAllowsFor(c, feature, kind);

/** Moderators may do anything to ideas of a module they may see, at any time (also before, between and after phases). */
const moderates = (c: IdeaRuleContext) => canModerate(c.project);

/** a4_candy_ideas.view_idea (list and retrieve): who may see the module. */
export const canViewIdeas = (c: IdeaRuleContext) => canViewModule(c);

/** a4_candy_ideas.add_idea (add_mapidea, add_proposal): moderators any time; members while the active phase has crud. */
export const canAddIdea = (c: IdeaRuleContext, kind: ContentKind) => moderates(c) || (participatesIn(c) && phaseAllowsIdea(c, 'crud', kind));

const isOwner = (c: IdeaRuleContext, idea: { creatorId: number }) => c.project.user !== null && c.project.user.id === idea.creatorId;

/** change_idea = delete_idea: moderators any time; the creator while the active phase has crud. */
export const canChangeIdea = (c: IdeaRuleContext, idea: { creatorId: number }, kind: ContentKind) =>
  moderates(c) || (participatesIn(c) && isOwner(c, idea) && phaseAllowsIdea(c, 'crud', kind));

export const canDeleteIdea = canChangeIdea;

/** rate_idea: moderators any time; members while the active phase allows rating. */
export const canRateIdea = (c: IdeaRuleContext, kind: ContentKind) => moderates(c) || (participatesIn(c) && phaseAllowsIdea(c, 'rate', kind));

/** comment_idea: moderators any time; members while the active phase allows comments. */
export const canCommentIdea = (c: IdeaRuleContext, kind: ContentKind) => moderates(c) || (participatesIn(c) && phaseAllowsIdea(c, 'comment', kind));

/** The idea moderation form (status and moderator feedback on an idea): moderators of the project. */
export const canModerateIdea = (c: IdeaRuleContext) => moderates(c);

/** The longest title search of the idea list (the title's own limit). */
export const IDEA_SEARCH_MAX_LENGTH = 120;
