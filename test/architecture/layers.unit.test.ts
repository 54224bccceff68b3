import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { layersPlugin, layerViolations } from '../../eslint-rules/layers.js';

const src = join(process.cwd(), 'src');

/** A throwaway source tree with the given files (path under src/ → text). */
function plantedTree(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'allmende-layers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, 'src', path)), { recursive: true });
    writeFileSync(join(root, 'src', path), text);
  }
  return { root, src: join(root, 'src'), done: () => rmSync(root, { recursive: true, force: true }) };
}

/** The lint rule run on one planted file, as `npm run lint` runs it. */
async function lintMessages(root: string, file: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins: { layers: layersPlugin }, rules: { 'layers/no-upward-or-cyclic-imports': 'error' } }],
  });
  const [result] = await eslint.lintFiles([join(root, 'src', file)]);
  return result.messages.map((m) => m.message);
}

test('the floor plan of src/: every folder in a layer, every arrow down a layer, no cycle between folders, no wing importing another, no module type importing another', () => {
  assert.deepEqual(layerViolations(src), { unplaced: [], upward: [], cycles: [], acrossWings: [], acrossTypes: [] });
});

test('the checks catch an arrow that points up a layer (a floor folder importing a feature)', async () => {
  const tree = plantedTree({
    'web/layout.ts': "import { rule } from '../features/ideas/rules.js';\nexport const layout = rule;\n",
    'features/ideas/rules.ts': 'export const rule = 1;\n',
  });
  try {
    assert.deepEqual(layerViolations(tree.src).upward, ['web/layout.ts → features/ideas/rules.ts']);
    const messages = await lintMessages(tree.root, 'web/layout.ts');
    assert.equal(messages.length, 1);
    assert.match(messages[0], /web \(web\) imports features\/ideas \(participation\): imports point down the layers/);
  } finally {
    tree.done();
  }
});

test('the checks catch two folders of one layer that import each other through a third', async () => {
  const tree = plantedTree({
    'features/comments/queries.ts': "import { b } from '../ratings/services.js';\nexport const a = b;\n",
    'features/ratings/services.ts': "import { c } from '../reports/rules.js';\nexport const b = c;\n",
    'features/reports/rules.ts': "import { a } from '../comments/queries.js';\nexport const c = 1; export const d = a;\n",
  });
  try {
    assert.deepEqual(layerViolations(tree.src).cycles, [['features/comments', 'features/ratings', 'features/reports']]);
    const messages = await lintMessages(tree.root, 'features/comments/queries.ts');
    assert.equal(messages.length, 1);
    assert.match(messages[0], /Folders import each other: (?=.*features\/comments)(?=.*features\/ratings)(?=.*features\/reports)/);
  } finally {
    tree.done();
  }
});

test('the checks catch a top wing that imports another (the public site importing the citizen\'s own)', async () => {
  const tree = plantedTree({
    'site/profiles/pages.ts': "import { avatarUrl } from '../../me/accounts/settings.js';\nexport const page = avatarUrl;\n",
    'me/accounts/settings.ts': 'export const avatarUrl = 1;\n',
  });
  try {
    assert.deepEqual(layerViolations(tree.src).acrossWings, ['site/profiles/pages.ts → me/accounts/settings.ts']);
    const messages = await lintMessages(tree.root, 'site/profiles/pages.ts');
    assert.equal(messages.length, 1);
    assert.match(messages[0], /site\/profiles imports me\/accounts: the top wings never import each other/);
  } finally {
    tree.done();
  }
});

test("the checks catch a module type's folder that imports another's (map ideas importing the ideas' views)", async () => {
  const tree = plantedTree({
    'features/ideas/module-types.ts': 'export const ideas = 1;\n',
    'features/ideas/views.ts': 'export const IdeaList = 1;\n',
    'features/mapideas/module-type.ts': 'export const mapIdeas = 1;\n',
    'features/mapideas/list.ts': "import { IdeaList } from '../ideas/views.js';\nexport const list = IdeaList;\n",
  });
  try {
    assert.deepEqual(layerViolations(tree.src).acrossTypes, ['features/mapideas/list.ts → features/ideas/views.ts']);
    const messages = await lintMessages(tree.root, 'features/mapideas/list.ts');
    assert.equal(messages.length, 1);
    assert.match(messages[0], /features\/mapideas imports features\/ideas: a module type's folder never imports another's/);
  } finally {
    tree.done();
  }
});

test('the checks catch a folder that no layer names', async () => {
  const tree = plantedTree({ 'gadgets/tool.ts': "import { x } from '../http/x.js';\nexport const tool = x;\n", 'http/x.ts': 'export const x = 1;\n' });
  try {
    assert.deepEqual(layerViolations(tree.src).unplaced, ['gadgets']);
    assert.match((await lintMessages(tree.root, 'gadgets/tool.ts'))[0], /The folder gadgets is in no layer/);
  } finally {
    tree.done();
  }
});
