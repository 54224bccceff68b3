import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { cycles, importGraph } from '../../eslint-rules/features.js';

const src = join(process.cwd(), 'src');
const featureOf = (file: string) => /[\\/]src[\\/]features[\\/]([^\\/]+)[\\/]/.exec(file)?.[1] ?? null;

test('features import each other without cycles', () => {
  const found = cycles(importGraph(src)).filter((c) => new Set(c.map(featureOf)).size > 1);
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

test('every page lives in its feature: src/features/pages is gone', () => {
  assert.equal(existsSync(join(src, 'features', 'pages')), false);
  assert.match(readFileSync(join(process.cwd(), 'docs', 'architecture.md'), 'utf8'), /## Where things go/);
});

test("the user dashboard's and the profile's pages register from their feature's pages.tsx, not from a routes.ts", () => {
  assert.equal(existsSync(join(src, 'features', 'dashboard', 'routes.ts')), false);
  assert.doesNotMatch(readFileSync(join(src, 'features', 'profiles', 'routes.ts'), 'utf8'), /pageRoute\(/);
  for (const feature of ['dashboard', 'profiles']) assert.match(readFileSync(join(src, 'features', feature, 'pages.tsx'), 'utf8'), /app\.get\('\/(userdashboard|profile)\//);
  const app = readFileSync(join(src, 'app.ts'), 'utf8');
  assert.match(app, /import \{ dashboardPages \} from '\.\/features\/dashboard\/pages\.js'/);
  assert.match(app, /import \{ profilePages \} from '\.\/features\/profiles\/pages\.js'/);
});
