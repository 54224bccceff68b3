import { canManageProject, type ProjectContext } from '../../core/projects/rules.js';

/**
 * Who may open a project's dashboard (§B1, a+ `change_project`): the organisation's initiators and
 * superusers. The dashboard's routes and the project page's Edit button ask this one rule.
 */
export const canEditProjectInDashboard = (c: ProjectContext) => canManageProject(c);
