import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // The floor's tables, and each module type's own in its folder (a new type's schema.ts is found here).
  schema: ['./src/db/schema/index.ts', './src/features/*/schema.ts'],
  out: './src/db/migrations',
});
