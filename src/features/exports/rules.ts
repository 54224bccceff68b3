import { canModerate, type ProjectContext } from '../../core/projects/rules.js';
import { appModuleType } from '../moduletypes/contract.js';

/**
 * Who may export a module's contributions (§B1, §B16): the project's moderators, the initiators of
 * its organisation and superusers — the moderate permission. Asked by the export page, the
 * downloads and the dashboard menu alike.
 */
export const canExport = (c: ProjectContext) => canModerate(c);

/** The module types with export files (§B9: Brainstorming and Idea Challenge have theirs). */
export const hasExport = (blueprintType: string) => Boolean(appModuleType(blueprintType)?.exports?.length);

/** §B9: the export is offered for an added module of a published project, of a type with an export. */
export const isExportOffered = (project: { isDraft: boolean }, module: { isDraft: boolean; blueprintType: string }) =>
  !project.isDraft && !module.isDraft && hasExport(module.blueprintType);

/**
 * May this user export this module: the one check behind the export page and downloads, the
 * dashboard menu, the module page and the moderation page (so a link is shown exactly where the
 * export answers).
 */
export const mayExportModule = (c: ProjectContext, module: { isDraft: boolean; blueprintType: string }) => canExport(c) && isExportOffered(c, module);
