import { canModerate, type ProjectContext } from '../../core/projects/rules.js';
import type { TextLimit } from '../../text/limits.js';

/**
 * add_/change_moderatorremark (a+ `is_allowed_moderate_project`), and who sees a remark at all: the
 * project's moderators, its organisation's initiators and superusers. Never the item's author (unless
 * they moderate), never the public: the item pages, the moderation queue, the export and the API all
 * ask this one rule.
 */
export const canSeeRemarks = (c: ProjectContext) => canModerate(c);
export const canChangeRemark = canSeeRemarks;

/** A remark is a note, not an essay. */
export const REMARK_LIMIT = { maxChars: 4000 } satisfies TextLimit;
