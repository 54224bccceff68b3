import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { folderGraph, LAYERS, layerOf } from '../../eslint-rules/layers.js';

const src = join(process.cwd(), 'src');
const doc = readFileSync(join(process.cwd(), 'docs', 'architecture.md'), 'utf8');

/** The folder map of docs/architecture.md: `| \`folder\` | ring | …` rows. */
const documented = new Map([...doc.matchAll(/^\| `([\w/-]+)` \| (\w+) \|/gm)].map(([, folder, ring]) => [folder, ring]));

test('docs/architecture.md maps exactly the folders of src/, each in the ring the lint rule puts it', () => {
  const folders = [...folderGraph(src).graph.keys()].sort();
  assert.deepEqual([...documented.keys()].sort(), folders);
  const wrongRing = folders.filter((folder) => documented.get(folder) !== LAYERS[layerOf(folder)]?.name);
  assert.deepEqual(wrongRing, []);
});

/**
 * The files a document names in backticks (`features/ideas/kinds.ts`, `test/db/page-project-of.unit.test.ts`):
 * a path with a folder and an extension, relative to the repository, src/ or test/; placeholders (`<type>`) and globs are no file.
 */
function namedFiles(text: string): string[] {
  return [...text.matchAll(/`((?:[\w.-]+\/)+[\w.-]+\.(?:tsx|ts|js|md|sql|json))`/g)].map(([, path]) => path).filter((path) => !/[<*]/.test(path));
}
const missingFiles = (text: string) => [...new Set(namedFiles(text))].filter((path) => ![path, join('src', path), join('test', path)].some((p) => existsSync(join(process.cwd(), p))));

test('every file docs/architecture.md names exists (in the repository, src/ or test/)', () => {
  assert.ok(namedFiles(doc).length > 40);
  assert.deepEqual(missingFiles(doc), []);
});

test('the file check sees a file that is not there', () => {
  assert.deepEqual(missingFiles('`core/users/deletion.ts` and `me/accounts/deletion.ts`, `features/<type>/schema.ts`'), ['me/accounts/deletion.ts']);
});
