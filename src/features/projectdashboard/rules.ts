import { canManageProject, type ProjectContext } from '../projects/rules.js';
import { activePhase, type PhaseDates } from '../modules/phases.js';

/**
 * Who may open a project's dashboard (§B1, a+ `change_project`): the organisation's initiators and
 * superusers. The dashboard's routes and the project page's Edit button ask this one rule.
 */
export const canEditProjectInDashboard = (c: ProjectContext) => canManageProject(c);

/**
 * Unpublishing takes a project away from its participants: while one of its published modules is
 * in a running phase, the dashboard asks once more (issue 22, item 15).
 */
export const unpublishNeedsConfirmation = (modules: { isDraft: boolean; phases: PhaseDates[] }[], now: Date) =>
  modules.some((m) => !m.isDraft && activePhase(m.phases, now) !== null);
