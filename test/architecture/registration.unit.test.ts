import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { importGraph, resolveImport } from '../../eslint-rules/features.js';

/**
 * Registration per folder (docs/architecture.md, "The module-type contract"): a module type is
 * reached through the registry, never by name. Outside the type folders (`src/features/<type>/`,
 * the folders that declare a module type) only src/module-types.ts imports one: the app registers
 * the types' plugins from the registry, loaddata reads their fixture kinds, the app API asks the
 * type whether one can add.
 */

const src = join(process.cwd(), 'src');

const typeFoldersOf = (root: string) =>
  readdirSync(join(root, 'features'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && readdirSync(join(root, 'features', entry.name)).some((f) => /^module-types?\.tsx?$/.test(f)))
    .map((entry) => entry.name);

/**
 * Folders that still reach into every type folder, each with its reason. GAP (issue 33): the
 * adhocracy+ import (cli/aplus, merged with the contract) maps each a+ model onto a type's tables and
 * rules; each type should declare its part of the import through a contract hook, as loaddata's
 * fixture kinds do.
 */
const IMPORTS_EVERY_TYPE = ['cli/aplus/'];

/** The imports of a type folder from a file outside every type folder (and outside src/module-types.ts and IMPORTS_EVERY_TYPE). */
function typeImportsFromShared(root: string): string[] {
  const types = typeFoldersOf(root);
  const typeOf = (file: string) => {
    const [top, folder] = relative(root, file).split(/[\\/]/);
    return top === 'features' && types.includes(folder) ? folder : null;
  };
  const found: string[] = [];
  for (const [file, targets] of importGraph(root)) {
    if (typeOf(file) || relative(root, file) === 'module-types.ts' || IMPORTS_EVERY_TYPE.some((folder) => relative(root, file).startsWith(folder))) continue;
    for (const target of targets) if (typeOf(target)) found.push(`${relative(root, file)} → ${relative(root, target)}`);
  }
  return found.sort();
}

test('no shared file imports a module type folder: the types are reached through the registry (src/module-types.ts lists them)', () => {
  assert.ok(typeFoldersOf(src).length >= 8);
  assert.deepEqual(typeImportsFromShared(src), []);
});

test('the check catches a shared file that imports a module type folder', () => {
  const root = mkdtempSync(join(tmpdir(), 'allmende-registration-'));
  const files: Record<string, string> = {
    'features/polls/module-type.ts': 'export const poll = 1;\n',
    'features/polls/rules.ts': 'export const canVote = 1;\n',
    'api/modules/routes.ts': "import { canVote } from '../../features/polls/rules.js';\nexport const r = canVote;\n",
    'module-types.ts': "import { poll } from './features/polls/module-type.js';\nexport const TYPES = [poll];\n",
  };
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    assert.deepEqual(typeImportsFromShared(root), ['api/modules/routes.ts → features/polls/rules.ts']);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('app.ts names no feature plugin: one entry plugin per wing, and the module types from the registry', () => {
  const app = join(src, 'app.ts');
  const text = readFileSync(app, 'utf8');
  const wings = /^(features|site|me|manage|operate|api|usersvc)[\\/]/;
  const imported = [...text.matchAll(/from '(\.[^']+)'/g)]
    .map(([, specifier]) => resolveImport(app, specifier))
    .filter((file): file is string => file !== null)
    .map((file) => relative(src, file))
    .filter((file) => wings.test(file))
    .sort();
  assert.deepEqual(imported, [
    'api/plugin.ts',
    'features/moduletypes/contract.ts',
    'features/plugin.ts',
    'manage/plugin.ts',
    'me/plugin.ts',
    'operate/plugin.ts',
    'site/plugin.ts',
    'usersvc/routes.ts',
  ]);
});
