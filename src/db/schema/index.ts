/*
 * The floor's tables: accounts, organisations, projects, modules, comments, ratings, reports,
 * actions, the outbox, the live channel, media and versions. A module type's own tables live in
 * its folder (features/<type>/schema.ts); drizzle.config.ts reads both.
 */
export * from './common.js';
export * from './users.js';
export * from './projects.js';
export * from './content.js';
export * from './usersvc.js';
export * from './dashboard.js';
export * from './insights.js';
export * from './platform.js';
export * from './versions.js';
export * from './live.js';
export * from './media.js';
export * from './notifications.js';
