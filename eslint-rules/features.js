// Local ESLint rules for the feature layout (docs/architecture.md).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|(?:^|\n)\s*import\s*['"](\.[^'"]+)['"]/g;

/** The file a relative specifier names (`./x.js` is `./x.ts` or `./x.tsx` in the sources). */
export function resolveImport(from, specifier) {
  const base = resolve(dirname(from), specifier).replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  return null;
}

function sourceFiles(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

/** The import graph of a source tree: file → imported files. */
export function importGraph(root) {
  const graph = new Map();
  for (const file of sourceFiles(root)) {
    const text = readFileSync(file, 'utf8');
    const targets = new Set();
    for (const match of text.matchAll(IMPORT)) {
      const target = resolveImport(file, match[1] ?? match[2]);
      if (target) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The cycles of a graph: its strongly connected components with more than one file (Tarjan). */
export function cycles(graph) {
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), indices.get(next)));
    }
    if (low.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component);
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

const featureOf = (file) => /[\\/]src[\\/]features[\\/]([^\\/]+)[\\/]/.exec(file)?.[1] ?? null;

let cache = null;

/** no-feature-cycles: a file of src/features may not import its way back to itself through another feature. */
const noFeatureCycles = {
  meta: { type: 'problem', docs: { description: 'forbid import cycles between features' }, schema: [] },
  create(context) {
    const file = resolve(context.filename);
    const feature = featureOf(file);
    if (!feature) return {};
    const srcRoot = file.slice(0, file.search(/[\\/]src[\\/]features[\\/]/) + 4);
    // One graph per lint run (editors re-lint one file at a time, so a changed file invalidates it).
    const stamp = statSync(file).mtimeMs;
    if (!cache || cache.root !== srcRoot || cache.stamp < stamp) cache = { root: srcRoot, stamp, cycles: cycles(importGraph(srcRoot)) };
    const cycle = cache.cycles.find((c) => c.includes(file) && new Set(c.map(featureOf)).size > 1);
    return {
      ImportDeclaration(node) {
        if (!cycle || typeof node.source.value !== 'string' || !node.source.value.startsWith('.')) return;
        const target = resolveImport(file, node.source.value);
        if (target && cycle.includes(target)) {
          context.report({ node, message: `Import cycle between features: ${cycle.map((f) => relative(srcRoot, f)).join(' → ')}` });
        }
      },
    };
  },
};

export const featuresPlugin = { rules: { 'no-feature-cycles': noFeatureCycles } };
