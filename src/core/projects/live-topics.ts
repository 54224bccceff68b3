/** The live channel's topic of a project's moderation queue (new comments, reports, moderators' actions). */
export const moderationTopic = (projectId: number) => `moderation:${projectId}`;
