import { canModerate, type ProjectContext } from '../../core/projects/rules.js';

/** view/change_moderation_comment (the moderation API and the moderation detail page): moderators, initiators, superusers. */
export const canModerateComments = (c: ProjectContext) => canModerate(c);

/**
 * The moderation dashboard: a user who may moderate at least one project — its moderator, an
 * initiator of its organisation, or a superuser (issue 13 opens it beyond a+'s is_moderator).
 */
export const canViewModerationDashboard = (user: { id: number } | null, mayModerateAProject: boolean) => user !== null && mayModerateAProject;
