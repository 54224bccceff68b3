import { type PhaseDates, phaseAllows, type PhaseFeature } from '../modules/phases.js';
import { canModerate, canParticipate, canView, type ProjectContext } from '../projects/rules.js';

/** What the idea rules look at: the project context, the module's phases and the moment. */
export interface IdeaRuleContext {
  project: ProjectContext;
  phases: PhaseDates[];
  now: Date;
}

const participates = (c: IdeaRuleContext) => canParticipate(c.project);

const phaseAllowsIdea = (c: IdeaRuleContext, feature: PhaseFeature) => phaseAllows(c.phases, feature, 'idea', c.now);

/** a4_candy_ideas.view_idea (list and retrieve). */
export const canViewIdeas = (c: IdeaRuleContext) => canView(c.project);

/** a4_candy_ideas.add_idea: moderators any time; members while the active phase has crud. */
export const canAddIdea = (c: IdeaRuleContext) => canModerate(c.project) || (participates(c) && phaseAllowsIdea(c, 'crud'));

const isOwner = (c: IdeaRuleContext, idea: { creatorId: number }) => c.project.user?.id === idea.creatorId;

/** change_idea = delete_idea: moderators any time; the creator while the active phase has crud. */
export const canChangeIdea = (c: IdeaRuleContext, idea: { creatorId: number }) =>
  canModerate(c.project) || (participates(c) && isOwner(c, idea) && phaseAllowsIdea(c, 'crud'));

export const canDeleteIdea = canChangeIdea;

/** rate_idea: moderators any time; members while the active phase allows rating. */
export const canRateIdea = (c: IdeaRuleContext) => canModerate(c.project) || (participates(c) && phaseAllowsIdea(c, 'rate'));

/** comment_idea: moderators any time; members while the active phase allows comments. */
export const canCommentIdea = (c: IdeaRuleContext) => canModerate(c.project) || (participates(c) && phaseAllowsIdea(c, 'comment'));
