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

test('no dead exports: everything src/ exports is used somewhere, in its own file or another', () => {
  const texts = new Map(['src', 'test', 'bench', 'scripts'].flatMap((dir) => sourceFiles(dir)).map((file) => [file, readFileSync(file, 'utf8')]));
  const words = new Map<string, number>();
  for (const text of texts.values()) for (const word of text.match(/\b\w+\b/g) ?? []) words.set(word, (words.get(word) ?? 0) + 1);
  const dead: string[] = [];
  for (const [file, text] of texts) {
    if (!file.startsWith('src')) continue;
    for (const [, name] of text.matchAll(EXPORT)) if ((words.get(name) ?? 0) < 2) dead.push(`${file}: ${name}`);
  }
  assert.deepEqual(dead, [], 'remove these exports, or use them');
});

test('the dead-export check finds an export nobody uses', () => {
  const text = 'export const usedOnce = 1;\nexport function neverCalled() {}\nconsole.log(usedOnce);\n';
  const names = [...text.matchAll(EXPORT)].map(([, name]) => name);
  const count = (name: string) => text.match(new RegExp(`\\b${name}\\b`, 'g'))?.length ?? 0;
  assert.deepEqual(names.filter((name) => count(name) < 2), ['neverCalled']);
});
