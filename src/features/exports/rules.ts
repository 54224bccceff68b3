import { canModerate, type ProjectContext } from '../projects/rules.js';

/**
 * Who may export a module's contributions (§B1, §B16): the project's moderators, the initiators of
 * its organisation and superusers — the moderate permission. Asked by the export page, the
 * downloads and the dashboard menu alike.
 */
export const canExport = (c: ProjectContext) => canModerate(c);

/** The module types with an idea export (§B9: Brainstorming and Idea Challenge). */
export const IDEA_EXPORT_TYPES = ['BS', 'IC'] as const;
export const hasIdeaExport = (blueprintType: string) => (IDEA_EXPORT_TYPES as readonly string[]).includes(blueprintType);
