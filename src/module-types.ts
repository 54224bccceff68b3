import { participatoryBudgeting } from './features/budgeting/module-type.js';
import { budgetVotingTypes } from './features/budgeting/voting-module-types.js';
import { debate } from './features/debate/module-type.js';
import { textReview } from './features/documents/module-type.js';
import { brainstorming, ideaChallenge } from './features/ideas/module-types.js';
import { mapBrainstorming, mapIdeaChallenge } from './features/mapideas/module-type.js';
import { interactiveEvent } from './features/interactiveevents/module-type.js';
import { registerModuleTypes } from './features/moduletypes/contract.js';
import { poll } from './features/polls/module-type.js';
import { resultContentType } from './features/results/content-type.js';
import { registerProjectContentType } from './core/contenttypes/registry.js';
import { prioritisation } from './features/topicprio/module-type.js';

/**
 * The platform's module types, in the order the dashboard offers them: a new module type is its
 * folder plus one line here. Importing this module registers them (the app, the CLI and the tests
 * import it before anything asks the registry).
 */
export const MODULE_TYPES = [brainstorming, ideaChallenge, mapBrainstorming, mapIdeaChallenge, participatoryBudgeting, ...budgetVotingTypes(participatoryBudgeting), poll, textReview, debate, prioritisation, interactiveEvent];

registerModuleTypes(MODULE_TYPES);

// A project's own commentable content, held by no module (issue 39.3: the discussion of a result).
registerProjectContentType(resultContentType);
