import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { featuresPlugin } from './eslint-rules/features.js';

export default tseslint.config(
  { ignores: ['node_modules', 'data', 'dist', 'src/db/migrations', 'coverage', 'test-results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-exports': ['error', { restrictDefaultExports: { direct: true, named: true, defaultFrom: true, namedFrom: true, namespaceFrom: true } }],
    },
  },
  {
    // The feature layout (docs/architecture.md): a feature uses other features' queries, rules,
    // services and views, never their HTTP routes; and features import each other without cycles.
    files: ['src/features/**/*.ts', 'src/features/**/*.tsx'],
    plugins: { features: featuresPlugin },
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.\\./[^/]+/routes(\\.js)?$', message: "A feature never imports another feature's routes.ts; move what you need into its queries, rules, services or views." }] },
      ],
      'features/no-feature-cycles': 'error',
    },
  },
  { files: ['eslint.config.js', 'drizzle.config.ts'], rules: { 'no-restricted-exports': 'off' } },
  { files: ['**/*.mjs', '**/*.js'], languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } } },
);
