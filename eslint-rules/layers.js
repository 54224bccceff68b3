// The house in rings (docs/architecture.md): which folder belongs to which layer, and the two checks
// on the folder-level import graph that the lint rule and test/architecture/layers.unit.test.ts share.
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { cycles, importGraph, resolveImport } from './features.js';

/**
 * The layers, lowest first. A folder may import from its own layer and the ones below, never from
 * one above; and no two folders may import each other, directly or through others.
 */
export const LAYERS = [
  { name: 'floor', folders: ['config', 'db', 'http', 'i18n', 'mail', 'media', 'text'] },
  { name: 'core', folders: ['core'] },
  { name: 'web', folders: ['web'] },
  { name: 'participation', folders: ['features'] },
  { name: 'apps', folders: ['site', 'manage', 'operate', 'me', 'api', 'usersvc'] },
  { name: 'start', folders: ['app', 'main', 'cluster', 'cli', 'jobs', 'module-types'] },
];

/**
 * The top wings: the folders of the apps layer (the public site, the citizen's own, the dashboard,
 * the back-office, the API, the user service). Each stands beside the others, never on them: what
 * two wings share lives a layer down (core, web or features).
 */
const WINGS = new Set(LAYERS.find((layer) => layer.name === 'apps').folders);

/** Whether an arrow between two folders goes from one top wing into another. */
export function crossesWings(from, to) {
  const [a, b] = [from.split('/')[0], to.split('/')[0]];
  return a !== b && WINGS.has(a) && WINGS.has(b);
}

/**
 * The module types' folders: the subfolders of features/ that declare a module type (a
 * `module-type.ts(x)` or `module-types.ts(x)`). Each is imported only by `src/module-types.ts` (and
 * the a+ import, a GAP), never by another type's folder: what two types share is an engine of its
 * own (`features/idealike`, `features/moduletypes`).
 */
function typeFolders(srcRoot) {
  const features = join(srcRoot, 'features');
  if (!existsSync(features)) return new Set();
  const folders = readdirSync(features, { withFileTypes: true }).filter((entry) => entry.isDirectory() && readdirSync(join(features, entry.name)).some((file) => /^module-types?\.tsx?$/.test(file)));
  return new Set(folders.map((entry) => `features/${entry.name}`));
}

/** Arrows from one type's folder into another's that stay for now, each with its reason. */
const ACROSS_TYPES_ALLOWED = {
  'features/budgeting → features/mapideas': 'GAP: proposals are placed like map ideas; the places (area, point, map list, export columns) still live in features/mapideas',
};

/** Whether an arrow between two folders goes from one module type's folder into another's (and is not a known gap). */
function crossesTypes(types, from, to) {
  return types.has(from) && types.has(to) && !(`${from} → ${to}` in ACROSS_TYPES_ALLOWED);
}

/** Top-level folders whose subfolders are the units (core/projects, features/ideas, site/home, …). */
const GROUPED = new Set(['core', 'features', 'site', 'manage', 'operate', 'me', 'api']);

/** The folder a source file belongs to, relative to src/ ("core/projects", "http", "app"); null outside src/. */
export function folderOf(srcRoot, file) {
  const parts = relative(srcRoot, file).split(/[\\/]/);
  if (parts[0] === '..') return null;
  if (GROUPED.has(parts[0])) return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0];
  return parts.length > 1 ? parts[0] : parts[0].replace(/\.tsx?$/, '');
}

/** The layer index of a folder; -1 for a folder no layer names (itself a finding). */
export function layerOf(folder) {
  const top = folder.split('/')[0];
  return LAYERS.findIndex((layer) => layer.folders.includes(top));
}

/** The folder-level import graph of a source tree, with the file imports behind each arrow. */
export function folderGraph(srcRoot) {
  const graph = new Map();
  const imports = new Map();
  for (const [file, targets] of importGraph(srcRoot)) {
    const from = folderOf(srcRoot, file);
    if (!graph.has(from)) graph.set(from, new Set());
    for (const target of targets) {
      const to = folderOf(srcRoot, target);
      if (!to || to === from) continue;
      graph.get(from).add(to);
      const key = `${from} → ${to}`;
      if (!imports.has(key)) imports.set(key, []);
      imports.get(key).push(`${relative(srcRoot, file)} → ${relative(srcRoot, target)}`);
    }
  }
  return { graph, imports };
}

/** Everything wrong with a tree's floor plan: folders in no layer, arrows that point up a layer, cycles between folders, arrows from one top wing into another, arrows from one module type's folder into another's. */
export function layerViolations(srcRoot) {
  const { graph, imports } = folderGraph(srcRoot);
  const types = typeFolders(srcRoot);
  const unplaced = [...graph.keys()].filter((folder) => layerOf(folder) < 0);
  const upward = [];
  const acrossWings = [];
  const acrossTypes = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      if (layerOf(to) > layerOf(from)) upward.push(...imports.get(`${from} → ${to}`));
      if (crossesWings(from, to)) acrossWings.push(...imports.get(`${from} → ${to}`));
      if (crossesTypes(types, from, to)) acrossTypes.push(...imports.get(`${from} → ${to}`));
    }
  }
  const folderCycles = cycles(graph).map((cycle) => cycle.slice().sort());
  return { unplaced, upward, cycles: folderCycles, acrossWings, acrossTypes };
}

let cache = null;

/** layers/no-upward-or-cyclic-imports: an import that points up a layer, closes a cycle between folders, or goes from one top wing into another. */
const noUpwardOrCyclicImports = {
  meta: { type: 'problem', docs: { description: 'imports point down the layers, folders import each other without cycles, and the top wings never import each other' }, schema: [] },
  create(context) {
    const file = context.filename;
    const at = file.search(/[\\/]src[\\/]/);
    if (at < 0) return {};
    const srcRoot = file.slice(0, at + 4);
    const from = folderOf(srcRoot, file);
    if (!from) return {};
    if (!cache || cache.root !== srcRoot || Date.now() - cache.at > 2000) {
      const { graph } = folderGraph(srcRoot);
      cache = { root: srcRoot, at: Date.now(), cycles: cycles(graph), types: typeFolders(srcRoot) };
    }
    return {
      ImportDeclaration(node) {
        const specifier = node.source.value;
        if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
        const resolved = resolveImport(file, specifier);
        const to = resolved && folderOf(srcRoot, resolved);
        if (!to || to === from) return;
        if (layerOf(from) < 0) context.report({ node, message: `The folder ${from} is in no layer: add it to LAYERS in eslint-rules/layers.js and docs/architecture.md.` });
        else if (layerOf(to) > layerOf(from)) context.report({ node, message: `${from} (${LAYERS[layerOf(from)].name}) imports ${to} (${LAYERS[layerOf(to)]?.name ?? 'no layer'}): imports point down the layers. Move the shared piece down.` });
        else if (crossesWings(from, to)) context.report({ node, message: `${from} imports ${to}: the top wings never import each other. Move the shared piece down a layer (core, web or features).` });
        else if (crossesTypes(cache.types, from, to)) context.report({ node, message: `${from} imports ${to}: a module type's folder never imports another's. Move the shared piece into an engine folder (features/idealike, features/moduletypes).` });
        const cycle = cache.cycles.find((c) => c.includes(from) && c.includes(to));
        if (cycle) context.report({ node, message: `Folders import each other: ${cycle.slice().sort().join(' ↔ ')}. Move the shared piece down a layer, or make the two one folder.` });
      },
    };
  },
};

export const layersPlugin = { rules: { 'no-upward-or-cyclic-imports': noUpwardOrCyclicImports } };
