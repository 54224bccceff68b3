/** Types of the writes rule (eslint-rules/writes.js). */
export const writesPlugin: import('eslint').ESLint.Plugin;
