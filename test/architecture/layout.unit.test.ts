import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { test } from 'node:test';
import { cycles, importGraph } from '../../eslint-rules/features.js';

const src = join(process.cwd(), 'src');
const featureOf = (file: string) => /[\\/]src[\\/]features[\\/]([^\\/]+)[\\/]/.exec(file)?.[1] ?? null;

test('features import each other without cycles', () => {
  const found = cycles(importGraph(src)).filter((c) => new Set(c.map(featureOf)).size > 1);
  assert.deepEqual(found.map((c) => c.map((f) => relative(src, f))), []);
});

test('no file of src imports its way back to itself, type-only imports included (issue 33: ideas/list.ts ↔ views.tsx was one; media/images.ts ↔ store.ts another)', () => {
  const found = cycles(importGraph(src));
  assert.deepEqual(found.map((c) => c.map((f) => relative(src, f))), []);
});

test("no feature imports another feature's routes.ts", () => {
  const offending: string[] = [];
  for (const [file, targets] of importGraph(src)) {
    const feature = featureOf(file);
    if (!feature) continue;
    for (const target of targets) if (/routes\.ts$/.test(target) && featureOf(target) !== feature) offending.push(`${relative(src, file)} → ${relative(src, target)}`);
  }
  assert.deepEqual(offending, []);
});

/** Files outside the API that send its JSON, each with why. */
const API_JSON_SENDERS = [
  'features/interactiveevents/services.ts', // publishes a question's API answer on the live channel inside the write's transaction
];

test("a serialize.ts is the API's only: pages, views and their view models never import one", () => {
  const isApi = (file: string) => /(^|[-/])routes\.ts$|serialize\.ts$|^api\//.test(file) || API_JSON_SENDERS.includes(file);
  const offending: string[] = [];
  for (const [file, targets] of importGraph(src)) {
    const path = relative(src, file).replaceAll('\\', '/');
    for (const target of targets) if (/serialize\.ts$/.test(target) && !isApi(path)) offending.push(`${path} → ${relative(src, target)}`);
  }
  assert.deepEqual(offending, []);
});

test('the cycle check finds a cycle that runs through two features', () => {
  const root = mkdtempSync(join(tmpdir(), 'allmende-cycles-'));
  try {
    for (const feature of ['a', 'b']) mkdirSync(join(root, 'src', 'features', feature), { recursive: true });
    writeFileSync(join(root, 'src/features/a/rules.ts'), "import { b } from '../b/queries.js';\nexport const a = b;\n");
    writeFileSync(join(root, 'src/features/b/queries.ts'), "import { a } from '../a/rules.js';\nexport const b = 1; export const c = a;\n");
    const found = cycles(importGraph(join(root, 'src')));
    assert.equal(found.length, 1);
    assert.equal(found[0].length, 2);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('one name, one job: page routes are registered from files named *pages.ts(x), API routes from routes.ts, components live in views', () => {
  const misplaced: string[] = [];
  for (const file of importGraph(src).keys()) {
    const name = basename(file);
    const text = readFileSync(file, 'utf8');
    // A route may name its request's types (`app.get<IdeaRoute>(…)`).
    const registersPages = /pageRoute\(/.test(text) && /app\.(get|post)(<\w+>)?\(/.test(text);
    if (registersPages && !/pages\.tsx?$/.test(name)) misplaced.push(`${relative(src, file)} registers pages`);
    if (/pages\.tsx?$/.test(name) && !registersPages) misplaced.push(`${relative(src, file)} is named pages but registers none`);
    if (name === 'routes.ts' && /pageRoute\(/.test(text)) misplaced.push(`${relative(src, file)} is an API file with page routes`);
    if (/views\.tsx$/.test(name) && /app\.(get|post)(<\w+>)?\(/.test(text)) misplaced.push(`${relative(src, file)} is a view file with routes`);
  }
  assert.deepEqual(misplaced, []);
  assert.equal(existsSync(join(src, 'features', 'pages')), false);
  assert.match(readFileSync(join(process.cwd(), 'docs', 'architecture.md'), 'utf8'), /## Where things go/);
});
