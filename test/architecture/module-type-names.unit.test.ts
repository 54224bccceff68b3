import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import * as floorSchema from '../../src/db/schema/index.js';
import { MODULE_TYPES } from '../../src/module-types.js';

/**
 * Shared code never names a module type (docs/architecture.md, "The module-type contract"): outside
 * the type folders (`src/features/<type>/`, the folders that declare a module type) and
 * src/module-types.ts, no source file holds a registered type's blueprint code ('BS'), key
 * ('brainstorming') or content kind ('idea') as a string, nor a table the type declares — as a
 * string ('polls') or as the Drizzle table imported from the schema (`polls`).
 */

const SRC = 'src';
const typeFolders = readdirSync(join(SRC, 'features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && readdirSync(join(SRC, 'features', entry.name)).some((f) => /^module-types?\.tsx?$/.test(f)))
  .map((entry) => entry.name);

/**
 * The hits that stay, each with its reason: `file: words`. Keep it short; a new entry needs a
 * reason a reviewer accepts (usually: a word that means something else there).
 */
const ALLOWED: Record<string, { words: string[]; why: string }> = {
  // The content-kind list is the database's CHECK on generic relations (comments, ratings, reports, actions).
  'src/db/schema/common.ts': { words: ['idea', 'mapidea', 'proposal', 'poll', 'chapter', 'paragraph', 'subject', 'topic', 'livequestion', 'pollquestion'], why: 'CONTENT_KINDS, the CHECK of content_type columns' },
  // Words that mean something else in these files.
  'src/db/schema/platform.ts': { words: ['subject'], why: "a newsletter's subject" },
  'src/db/schema/users.ts': { words: ['subject'], why: "an OpenID Connect identity's subject" },
  'src/manage/newsletters/rules.ts': { words: ['subject'], why: "a newsletter's subject" },
  'src/manage/newsletters/views.tsx': { words: ['subject'], why: "a newsletter's subject" },
  'src/core/legal/rules.ts': { words: ['subject'], why: "a contact message's subject" },
  'src/site/legal/pages.tsx': { words: ['subject'], why: "a contact message's subject" },
  'src/site/legal/views.tsx': { words: ['subject'], why: "a contact message's subject" },
  'src/http/live.ts': { words: ['topic'], why: "the live channel's topic" },
  'src/db/schema/live.ts': { words: ['topic'], why: "the live channel's topic" },
  'src/site/home/pages.tsx': { words: ['topic'], why: "a project's topic (the home page's filter)" },
  'src/features/moduletypes/item-views.tsx': { words: ['subject'], why: 'the grammatical subject of a form label' },
  // Defaults of the floor: a module without a type is an idea collection (adhocracy+'s default blueprint).
  'src/core/modules/registry.ts': { words: ['BS', 'brainstorming'], why: 'an example in a doc comment' },
  // Demo and generated data are written for the platform's own types.
  'src/cli/demo.ts': { words: ['BS', 'IC', 'idea'], why: 'the demo data' },
  'src/cli/generate.ts': { words: ['IC', 'idea', 'ideas'], why: 'the generated load-test data' },
  'src/cli/loaddata.ts': { words: ['BS'], why: "a fixture module's default blueprint" },
  'src/db/schema/projects.ts': { words: ['BS', 'topics'], why: "modules.blueprint_type's default; a project's topics (its subject areas)" },
  'src/manage/projects/component-views.tsx': { words: ['topics'], why: "a project's topics (its subject areas)" },
  'src/manage/projects/input.ts': { words: ['topics'], why: "a project's topics (its subject areas)" },
  'src/web/topic-list.tsx': { words: ['topics'], why: "a project's topics (its subject areas)" },
  'src/features/moduletypes/fixtures.ts': { words: ['polls', 'chapters'], why: 'examples in a doc comment' },
  // "ideas" as the statistics' word: the count of idea-like contributions (`countsIdeas`).
  'src/core/insights/queries.ts': { words: ['ideas'], why: "the statistics' idea count" },
  'src/core/insights/services.ts': { words: ['ideas'], why: "the statistics' idea count" },
  'src/db/schema/insights.ts': { words: ['ideas'], why: "the statistics' idea count" },
  'src/features/idealike/services.ts': { words: ['ideas'], why: "the statistics' idea count (every idea-like item counts as an idea)" },
  // The idea-like engine's pages share the ideas' markup.
  'src/features/idealike/views.tsx': { words: ['idea'], why: "the item page's CSS class (`article.idea`)" },
  // Known gaps of the contract, each to become a hook (issue 33): a new type is not seen here yet.
  'src/cli/aplus/import.ts': { words: ['*'], why: "GAP: the adhocracy+ import maps every a+ model onto a type's tables and kinds (a hook per type, as loaddata's fixture kinds)" },
  'src/cli/aplus/phases.ts': { words: ['*'], why: 'GAP: as src/cli/aplus/import.ts' },
  'src/cli/aplus/run.ts': { words: ['*'], why: 'GAP: as src/cli/aplus/import.ts' },
  'src/cli/aplus/features.ts': { words: ['idea'], why: "GAP: as src/cli/aplus/import.ts (a+'s custom field answers belong to ideas)" },
  'src/cli/aplus/cms.ts': { words: ['paragraph', 'subject'], why: "wagtail's StreamField block of rich text is named 'paragraph' (not the documents' paragraphs); 'subject' is the contact form's e-mail subject (not a debate's)" },
  'src/core/urls.ts': { words: ['ideas'], why: "GAP: the idea-like kinds' URL segments (ITEM_SEGMENTS) belong to their folders" },
  // The idea phase is the default content of a phase feature check (adhocracy4's `Idea`).
  'src/core/modules/phases.ts': { words: ['idea'], why: "phaseAllows' default content kind" },
  'src/core/modules/rules.ts': { words: ['idea'], why: "phase rules' default content kind" },
};

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (dir === join(SRC, 'features') && typeFolders.includes(entry.name)) continue;
      if (path !== join(SRC, 'db', 'migrations')) yield* sourceFiles(path);
    } else if (/\.tsx?$/.test(entry.name) && path !== join(SRC, 'module-types.ts')) yield path;
  }
}

const declaredTables = new Set(MODULE_TYPES.flatMap((type) => type.tables));
const words = new Set(MODULE_TYPES.flatMap((type) => [type.blueprintType, type.key, ...(type.contentTypes ?? []).map((c) => c.kind), ...type.tables]));
/**
 * The tables of the type folders' own `schema.ts` (as drizzle.config.ts reads them), by exported name:
 * read from the text (`export const polls = pgTable('polls', …`, `… = labelLinks('idea_labels', …`).
 */
const typeTables = Object.fromEntries(
  typeFolders
    .filter((folder) => existsSync(join(SRC, 'features', folder, 'schema.ts')))
    .flatMap((folder) => [...readFileSync(join(SRC, 'features', folder, 'schema.ts'), 'utf8').matchAll(/export const (\w+) = (?:pgTable|labelLinks)\(\s*'(\w+)'/g)].map(([, name, table]) => [name, table])),
);
/** The schema's exported names of the declared tables (`mapIdeas` for 'map_ideas'). */
const tableExports = [
  ...Object.entries(floorSchema)
    .filter(([, value]) => is(value, PgTable) && declaredTables.has(getTableName(value)))
    .map(([name]) => name),
  ...Object.entries(typeTables)
    .filter(([, table]) => declaredTables.has(table))
    .map(([name]) => name),
];
const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');

/** The registered words a file names: as strings anywhere, and the declared tables imported from the schema. */
function namedIn(text: string): Set<string> {
  const found = new Set<string>();
  for (const word of words) if (new RegExp(`['"\`]${escape(word)}['"\`]`).test(text)) found.add(word);
  for (const imported of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'[./]*(?:\.\.\/)*(?:db\/schema\/index|features\/\w+\/schema)\.js'/g)) {
    const names = imported[1].split(',').map((n) => n.trim().replace(/^type\s+/, ''));
    for (const name of tableExports) if (names.includes(name)) found.add(name);
  }
  return found;
}

test('shared code names no registered module type: no code, key, kind or table outside the type folders but the allow-list', () => {
  assert.ok(typeFolders.length >= 8, `type folders found: ${typeFolders.join(', ')}`);
  assert.ok(tableExports.includes('polls') && tableExports.includes('mapIdeas'), 'the schema exports of the declared tables are found');
  const found = new Set([...Object.values(floorSchema).filter((value) => is(value, PgTable)).map((table) => getTableName(table as PgTable)), ...Object.values(typeTables)]);
  assert.deepEqual([...declaredTables].filter((table) => !found.has(table)), [], 'every declared table is found in a schema');
  const hits: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const allowed = ALLOWED[file]?.words ?? [];
    if (allowed.includes('*')) continue;
    for (const word of namedIn(readFileSync(file, 'utf8'))) if (!allowed.includes(word)) hits.push(`${file}: ${word}`);
  }
  assert.deepEqual(hits, []);
});

test('the allow-list holds no stale entry: every allowed word is still named in its file', () => {
  const stale = Object.entries(ALLOWED).flatMap(([file, { words: allowed }]) => {
    if (allowed.includes('*')) return [];
    const named = namedIn(readFileSync(file, 'utf8'));
    return allowed.filter((word) => !named.has(word)).map((word) => `${file}: ${word}`);
  });
  assert.deepEqual(stale, []);
});

test('the check catches a planted name', () => {
  assert.ok(namedIn("const kinds = ['poll', 'chapter'];").has('poll'));
  assert.ok(namedIn("import { comments, mapIdeas } from '../../db/schema/index.js';").has('mapIdeas'));
  assert.ok(namedIn("import { topics } from '../../features/topicprio/schema.js';").has('topics'));
  assert.equal(namedIn('const poll = 1; // polls').size, 0);
});
