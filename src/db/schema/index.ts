export * from './common.js';
export * from './users.js';
export * from './projects.js';
export * from './content.js';
export * from './usersvc.js';
export * from './dashboard.js';
export * from './insights.js';
export * from './platform.js';
