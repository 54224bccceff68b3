import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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
