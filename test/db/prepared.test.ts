import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { openPostgres } from '../../src/db/client.js';
import { preparedStatement } from '../../src/db/sql.js';
import { clonePostgresTemplate, postgresSuite } from '../database.js';
import { createTestApp } from '../helpers.js';

const nextNumber = preparedStatement<{ n: number }, { n: number }>('test_next_number', () => sql`select ${sql.placeholder('n')}::integer + 1 as n`);

test('a statement prepared in code runs with its values on the database and inside a transaction', async () => {
  const { db } = await createTestApp();
  assert.deepEqual(await nextNumber(db, { n: 41 }), [{ n: 42 }]);
  assert.deepEqual(await db.transaction((tx) => nextNumber(tx, { n: 1 })), [{ n: 2 }]);
});

/** PostgreSQL's own prepared statements: registered in the PostgreSQL suite only (see postgresSuite). */
if (postgresSuite) test('on PostgreSQL it is parsed once per connection under its name; DATABASE_PREPARE=0 names no statement', async () => {
  const clone = await clonePostgresTemplate();
  assert.ok(clone);
  after(() => clone.drop());
  const preparedNames = async (prepare: '1' | '0') => {
    const before = process.env.DATABASE_PREPARE;
    process.env.DATABASE_PREPARE = prepare;
    const database = openPostgres(clone.url, { max: 1 });
    if (before === undefined) delete process.env.DATABASE_PREPARE;
    else process.env.DATABASE_PREPARE = before;
    try {
      for (const n of [1, 2, 3]) assert.deepEqual(await nextNumber(database.db, { n }), [{ n: n + 1 }]);
      const result = (await database.db.execute(sql`select name from pg_prepared_statements`)) as unknown as { rows: { name: string }[] };
      return result.rows.map((row) => row.name);
    } finally {
      await database.close();
    }
  };
  assert.ok((await preparedNames('1')).includes('test_next_number'));
  assert.deepEqual(await preparedNames('0'), []);
});
