import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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

test('the Drizzle schema and the migrations agree: generating a migration produces nothing', () => {
  assert.deepEqual(generatedAgainst('./src/db/schema/index.ts'), []);
});

test('the drift check sees a schema change that no migration has', () => {
  const dir = mkdtempSync(join(process.cwd(), 'data-drift-'));
  try {
    const schema = join(dir, 'schema.ts');
    writeFileSync(schema, "export * from '../src/db/schema/index.js';\nimport { pgTable, integer } from 'drizzle-orm/pg-core';\nexport const driftCheck = pgTable('drift_check', { id: integer('id').primaryKey() });\n");
    assert.equal(generatedAgainst(`./${relative(process.cwd(), schema)}`).filter((file) => file.endsWith('.sql')).length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
