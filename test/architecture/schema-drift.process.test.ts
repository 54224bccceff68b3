import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'node:test';

const DRIZZLE_KIT = join(process.cwd(), 'node_modules', '.bin', 'drizzle-kit');

/** Runs `drizzle-kit generate` for a schema against a copy of the migrations; the files it adds (none: they agree). */
function generatedAgainst(schema: string): string[] {
  const out = mkdtempSync(join(tmpdir(), 'allmende-drift-'));
  try {
    cpSync(join('src', 'db', 'migrations'), out, { recursive: true });
    const before = new Set(readdirSync(out));
    const run = spawnSync(DRIZZLE_KIT, ['generate', '--dialect', 'postgresql', '--schema', schema, '--out', relative(process.cwd(), out)], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr || run.stdout);
    return readdirSync(out).filter((file) => !before.has(file));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * A schema file in a throwaway folder of the repository that exports every table, as drizzle.config.ts
 * reads them: the floor's schema and each module type's own `features/<type>/schema.ts`.
 */
function everyTable(dir: string, extra = ''): string {
  const typeSchemas = readdirSync(join('src', 'features')).filter((folder) => existsSync(join('src', 'features', folder, 'schema.ts')));
  const file = join(dir, 'schema.ts');
  writeFileSync(file, ["export * from '../src/db/schema/index.js';", ...typeSchemas.map((folder) => `export * from '../src/features/${folder}/schema.js';`), extra].join('\n'));
  return `./${relative(process.cwd(), file)}`;
}

test('drizzle.config.ts reads the floor\'s schema and every module type\'s own', () => {
  assert.match(readFileSync('drizzle.config.ts', 'utf8'), /schema: \['\.\/src\/db\/schema\/index\.ts', '\.\/src\/features\/\*\/schema\.ts'\]/);
});

test('the Drizzle schema and the migrations agree: generating a migration produces nothing', () => {
  const dir = mkdtempSync(join(process.cwd(), 'data-drift-'));
  try {
    assert.deepEqual(generatedAgainst(everyTable(dir)), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the drift check sees a schema change that no migration has', () => {
  const dir = mkdtempSync(join(process.cwd(), 'data-drift-'));
  try {
    const schema = everyTable(dir, "import { pgTable, integer } from 'drizzle-orm/pg-core';\nexport const driftCheck = pgTable('drift_check', { id: integer('id').primaryKey() });\n");
    assert.equal(generatedAgainst(schema).filter((file) => file.endsWith('.sql')).length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
