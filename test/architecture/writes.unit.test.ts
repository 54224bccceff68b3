import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { writesPlugin } from '../../eslint-rules/writes.js';

/** The rule alone, as `npm run lint` runs it on the services files. */
const linter = (cwd: string) =>
  new ESLint({
    cwd,
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins: { writes: writesPlugin }, rules: { 'writes/writes-take-tx': 'error' } }],
  });

function servicesFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) servicesFiles(path, out);
    else if (/^(?:[\w-]+-)?services\.ts$/.test(name)) out.push(path);
  }
  return out;
}

/** The rule's messages on one planted services.ts. */
async function planted(text: string, name = 'features/things/services.ts'): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), 'allmende-writes-'));
  try {
    const file = join(root, 'src', name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    const [result] = await linter(root).lintFiles([file]);
    return result.messages.map((m) => m.message);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const HEAD = "import type { Db, DbOrTx, Tx } from '../../db/client.js';\nimport { things } from './schema.js';\n";

test('every write of a services file takes `tx: Tx` (or is a one-statement write on the short list)', async () => {
  const src = join(process.cwd(), 'src');
  const results = await linter(process.cwd()).lintFiles(servicesFiles(src));
  const found = results.flatMap((r) => r.messages.map((m) => `${relative(src, r.filePath)}:${m.line} ${m.message.split(' writes')[0]}`));
  assert.deepEqual(found, []);
});

test('the rule catches a write on a handle typed DbOrTx or Db, also in a -services.ts file and through SQL', async () => {
  const messages = await planted(`${HEAD}export async function saveThing(db: DbOrTx, name: string) {\n  await db.insert(things).values({ name });\n}\n`);
  assert.equal(messages.length, 1);
  assert.match(messages[0], /saveThing writes through its first parameter, typed `DbOrTx`: a write takes `tx: Tx`/);
  const outer = await planted(`${HEAD}export async function dropThing(db: Db, id: number) {\n  await db.with().delete(things).where(id);\n}\n`, 'features/things/thing-services.ts');
  assert.match(outer[0], /dropThing writes through its first parameter, typed `Db`/);
  const raw = await planted(`${HEAD}import { sql } from 'drizzle-orm';\nexport const renameThing = async (db: DbOrTx, id: number) => {\n  await db.execute(sql\`UPDATE things SET name = 'x' WHERE id = \${id}\`);\n};\n`);
  assert.match(raw[0], /renameThing writes through its first parameter/);
});

test('the rule lets pass a write on Tx, a read on DbOrTx, a command that opens its own transaction on Db, and other files', async () => {
  assert.deepEqual(await planted(`${HEAD}export async function saveThing(tx: Tx, name: string) {\n  await tx.insert(things).values({ name });\n}\n`), []);
  assert.deepEqual(await planted(`${HEAD}export async function loadThing(db: DbOrTx, id: number) {\n  return db.select().from(things).where(id);\n}\nexport function forget(seen: Set<number>, id: number) {\n  seen.delete(id);\n}\n`), []);
  assert.deepEqual(await planted(`${HEAD}export async function submitThing(db: Db, name: string) {\n  await db.transaction(async (tx) => {\n    await tx.insert(things).values({ name });\n  });\n}\n`), []);
  assert.deepEqual(await planted(`${HEAD}export async function saveThing(db: DbOrTx, name: string) {\n  await db.insert(things).values({ name });\n}\n`, 'features/things/queries.ts'), []);
});

test('a transaction opened on DbOrTx is no way around the rule; a name on the one-statement list is', async () => {
  const nested = await planted(`${HEAD}export async function saveThing(db: DbOrTx, name: string) {\n  await db.transaction(async (tx) => {\n    await tx.insert(things).values({ name });\n  });\n}\n`);
  assert.match(nested[0], /saveThing writes through its first parameter, typed `DbOrTx`/);
  assert.deepEqual(await planted(`${HEAD}export async function setLike(db: DbOrTx, id: number) {\n  await db.insert(things).values({ id });\n}\n`), []);
});
