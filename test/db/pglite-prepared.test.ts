import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { types } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { type Database, openMemoryPglite } from '../../src/db/client.js';

// The embedded database prepares each statement text once (src/db/preparing-pglite.ts); these run on PGlite whatever TEST_DATABASE_URL says.
let opened: Database | undefined;
const database = async () => {
  if (!opened) {
    opened = await openMemoryPglite();
    await opened.db.execute(sql`create table t (id integer primary key, at timestamptz, tags integer[], doc json, big bigint, note text)`);
  }
  return opened;
};
after(() => opened?.close());

type Rows<T> = { rows: T[] };
const rowsOf = async <T>(result: Promise<unknown>) => ((await result) as Rows<T>).rows;
const count = async (db: Database['db']) => (await rowsOf<{ n: number }>(db.execute(sql`select count(*)::integer as n from t where id > ${0}`)))[0].n;

test('on PGlite a statement text is parsed once under a name, and its rows read as PGlite reads them', async () => {
  const { db } = await database();
  const at = new Date('2026-11-25T17:00:00Z');
  await db.execute(sql`insert into t values (${1}, ${at}, ${sql.param([1, 2])}, ${JSON.stringify({ a: [1] })}, ${2n ** 40n}, ${null})`);
  const select = (id: number) => db.execute(sql`select * from t where id = ${id}`);
  const first = await rowsOf<Record<string, unknown>>(select(1));
  assert.deepEqual(await rowsOf(select(1)), first);
  const client = (db as unknown as { $client: { query(text: string, params: unknown[], options: object): Promise<Rows<unknown>> } }).$client;
  // drizzle asks both paths to leave timestamps as text
  const own = await client.query('select * from t where id = $1', [1], { parsers: { [types.TIMESTAMPTZ]: (value: string) => value } });
  assert.deepEqual(first, own.rows, 'the same values as PGlite’s own query');
  assert.deepEqual(first[0].tags, [1, 2]);
  assert.deepEqual(first[0].doc, { a: [1] });
  const names = await rowsOf<{ statement: string }>(db.execute(sql`select statement from pg_prepared_statements where statement like ${'select * from t%'}`));
  assert.equal(names.length, 1, 'one named statement for the text, however often it ran');
});

test('on PGlite a failed prepared statement rolls its transaction back and leaves the database usable', async () => {
  const { db } = await database();
  const before = await count(db);
  const insert = (tx: Database['db'], id: number) => tx.execute(sql`insert into t (id) values (${id})`);
  await assert.rejects(
    db.transaction(async (tx) => {
      await insert(tx as unknown as Database['db'], 100);
      await insert(tx as unknown as Database['db'], 100);
    }),
    (error: Error & { cause?: { code?: string } }) => error.cause?.code === '23505',
  );
  assert.equal(await count(db), before, 'the first insert rolled back with the transaction');
  await insert(db, 100);
  assert.equal(await count(db), before + 1);
});

test('on PGlite a statement outside a transaction waits until the running transaction ends', async () => {
  const { db } = await database();
  const before = await count(db);
  let inserted!: () => void;
  const insertedOnce = new Promise<void>((resolve) => (inserted = resolve));
  const rolledBack = db
    .transaction(async (tx) => {
      await tx.execute(sql`insert into t (id) values (${200})`);
      inserted();
      // Give a statement that does not wait every chance to run inside this transaction first.
      await new Promise((resolve) => setImmediate(resolve));
      tx.rollback();
    })
    .catch(() => undefined);
  await insertedOnce;
  const outside = count(db);
  await rolledBack;
  assert.equal(await outside, before, 'the statement did not see the uncommitted row');
});
