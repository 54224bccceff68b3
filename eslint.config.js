import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { featuresPlugin } from './eslint-rules/features.js';
import { layersPlugin } from './eslint-rules/layers.js';
import { writesPlugin } from './eslint-rules/writes.js';

export default tseslint.config(
  { ignores: ['node_modules', 'data', 'dist', '.test-build', 'src/db/migrations', 'coverage', 'test-results'] },
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
    // The house in rings (docs/architecture.md): imports point down the layers, folders import each
    // other without cycles, the top wings never import each other, and no folder imports another's
    // routes.ts (its HTTP plugin).
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    plugins: { features: featuresPlugin, layers: layersPlugin },
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.\\./(\\.\\./)*([^/]+/)*[^/]+/routes(\\.js)?$', message: "A folder never imports another folder's routes.ts; move what you need into its queries, rules, services or views." }] },
      ],
      'features/no-feature-cycles': 'error',
      'layers/no-upward-or-cyclic-imports': 'error',
    },
  },
  {
    // Writes take Tx (docs/architecture.md): a services.ts function that writes through its first
    // parameter types it `tx: Tx`, and its caller opens the transaction. The few hot single
    // statements that run outside one are named in eslint-rules/writes.js (ONE_STATEMENT_WRITES).
    files: ['src/**/services.ts', 'src/**/*-services.ts'],
    plugins: { writes: writesPlugin },
    rules: { 'writes/writes-take-tx': 'error' },
  },
  { files: ['eslint.config.js', 'drizzle.config.ts'], rules: { 'no-restricted-exports': 'off' } },
  { files: ['**/*.mjs', '**/*.js'], languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } } },
);
