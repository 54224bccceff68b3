import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { MODULE_TYPES } from '../../src/module-types.js';

/**
 * `page_project_of(kind, pk)` (a SQL function of the migrations, read by the page-change triggers of
 * ratings and reports) finds the project of an object by a hand-written CASE over the content kinds.
 * A kind it does not know counts as every page: safe, but a new module type's ratings and reports
 * would then make every page's version change. This test holds the function to the registry: one
 * branch per registered content kind, reading a table its module type declares.
 */

const MIGRATIONS = join('src', 'db', 'migrations');
const journal = JSON.parse(readFileSync(join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };

/** The body of the last definition of a SQL function in the migrations, in journal order. */
function lastDefinition(name: string): string {
  let body: string | null = null;
  for (const { tag } of journal.entries) {
    const text = readFileSync(join(MIGRATIONS, `${tag}.sql`), 'utf8');
    for (const match of text.matchAll(new RegExp(`CREATE (?:OR REPLACE )?FUNCTION "?${name}"?\\([^)]*\\)[^$]*\\$\\$([\\s\\S]*?)\\$\\$`, 'g'))) body = match[1];
  }
  assert.ok(body, `no migration defines ${name}`);
  return body;
}

/** The CASE branches of page_project_of: kind → the first table its statement reads (null: no statement). */
function branches(body: string): Map<string, string | null> {
  return new Map([...body.matchAll(/WHEN '(\w+)' THEN (.*)/g)].map(([, kind, then]) => [kind, /\bFROM (\w+)/.exec(then)?.[1] ?? null]));
}

/** The kinds every project has, outside the module types: the project itself, its modules and phases, comments. */
const PLATFORM_KINDS = ['project', 'module', 'phase', 'comment'];

test('page_project_of knows every registered content kind, each from a table its module type declares', () => {
  const found = branches(lastDefinition('page_project_of'));
  const registered = MODULE_TYPES.flatMap((type) => (type.contentTypes ?? []).map((content) => ({ kind: content.kind, tables: type.tables })));
  assert.deepEqual([...found.keys()].sort(), [...new Set([...PLATFORM_KINDS, ...registered.map((r) => r.kind)])].sort());
  const wrongTable = registered.filter(({ kind, tables }) => !tables.includes(found.get(kind) ?? '')).map(({ kind }) => `${kind}: ${found.get(kind)}`);
  assert.deepEqual([...new Set(wrongTable)], []);
});

test('page_module_item_of (issue 40: the module a write shows on) knows every registered content kind, each from a table its module type declares', () => {
  const found = branches(lastDefinition('page_module_item_of'));
  const registered = MODULE_TYPES.flatMap((type) => (type.contentTypes ?? []).map((content) => ({ kind: content.kind, tables: type.tables })));
  assert.deepEqual([...found.keys()].sort(), [...new Set(['module', ...registered.map((r) => r.kind)])].sort());
  const wrongTable = registered.filter(({ kind, tables }) => !tables.includes(found.get(kind) ?? '')).map(({ kind }) => `${kind}: ${found.get(kind)}`);
  assert.deepEqual([...new Set(wrongTable)], []);
});

test('the check sees a kind the function does not know and a branch that reads another type\'s table', () => {
  const found = branches("SELECT coalesce(CASE kind\n    WHEN 'project' THEN pk\n    WHEN 'poll' THEN (SELECT m.project_id FROM ideas x JOIN modules m ON m.id = x.module_id WHERE x.id = pk)\n  END, 0)");
  assert.deepEqual([...found.entries()], [['project', null], ['poll', 'ideas']]);
  assert.equal(found.has('chapter'), false);
});
