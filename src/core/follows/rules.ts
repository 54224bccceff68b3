import { canViewProject, type ProjectContext, signedIn } from '../projects/rules.js';

/** Following a project (API and the project page's toggle): any signed-in user who may see it. */
export const canFollowProject = (c: ProjectContext) => signedIn(c) && canViewProject(c);
