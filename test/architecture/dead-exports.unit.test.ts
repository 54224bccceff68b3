import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

/** Every source file of the repository that can use an export (src, tests, benches, scripts). */
function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'migrations') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.(ts|tsx|js|mjs)$/.test(name)) out.push(path);
  }
  return out;
}

const EXPORT = /^export (?:async )?(?:function\*? |const |let |class |interface |type |enum )(\w+)/gm;

/** Schema files: drizzle-kit and the namespace imports (`import * as s from '…/schema/index.js'`) read every export without naming it. */
const SCHEMA_FILE = /^src[\\/](?:db[\\/]schema[\\/]|features[\\/][^\\/]+[\\/]schema\.ts$)/;

/**
 * The module-type contract's public types that no other file names yet: a module type declares
 * through them, so they stay exported although only their own file uses them today.
 */
const CONTRACT_TYPES = [
  'src/core/modules/registry.ts: MissingField', // what a dashboard component's publish check (`missing`) answers
  'src/features/moduletypes/fixtures.ts: FixtureContext', // what a module type's fixture loader (`load`) is given
];

/** The exports of src/ that no other file names: used only in their own file (unexport them) or nowhere (remove them). */
function deadExports(texts: Map<string, string>): string[] {
  const filesWith = new Map<string, number>();
  for (const text of texts.values()) for (const word of new Set(text.match(/\b\w+\b/g))) filesWith.set(word, (filesWith.get(word) ?? 0) + 1);
  const dead: string[] = [];
  for (const [file, text] of texts) {
    if (!file.startsWith('src') || SCHEMA_FILE.test(file)) continue;
    for (const [, name] of text.matchAll(EXPORT)) if ((filesWith.get(name) ?? 0) < 2 && !CONTRACT_TYPES.includes(`${file}: ${name}`)) dead.push(`${file}: ${name}`);
  }
  return dead;
}

const repository = () => new Map(['src', 'test', 'bench', 'scripts'].flatMap((dir) => sourceFiles(dir)).map((file) => [file, readFileSync(file, 'utf8')]));

test('no dead exports: everything src/ exports is used in another file (src, tests, benches, scripts)', () => {
  assert.deepEqual(deadExports(repository()), [], 'unexport these (used only in their own file) or remove them (used nowhere)');
});

test('every export the allow-list keeps is still exported', () => {
  const texts = repository();
  const exported = new Set([...texts].flatMap(([file, text]) => [...text.matchAll(EXPORT)].map(([, name]) => `${file}: ${name}`)));
  assert.deepEqual(CONTRACT_TYPES.filter((entry) => !exported.has(entry)), []);
});

test('the dead-export check finds an export nobody uses and one used only in its own file', () => {
  const texts = new Map([
    ['src/a.ts', 'export const shared = 1;\nexport const ownOnly = 2;\nexport function neverCalled() {}\nconsole.log(ownOnly);\n'],
    ['test/a.test.ts', "import { shared } from '../src/a.js';\nconsole.log(shared);\n"],
    ['src/db/schema/x.ts', 'export const readByDrizzle = 1;\n'],
  ]);
  assert.deepEqual(deadExports(texts), ['src/a.ts: ownOnly', 'src/a.ts: neverCalled']);
});
