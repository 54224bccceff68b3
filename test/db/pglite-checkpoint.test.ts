import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { checkpointIfDue } from '../../src/db/client.js';

const redo = async (client: PGlite) => (await client.query<{ redo: string }>('SELECT redo_lsn::text AS redo FROM pg_control_checkpoint()')).rows[0].redo;
const position = async (client: PGlite) => (await client.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0].lsn;

// PGlite (single-user PostgreSQL) never checkpoints by itself; the server does it for it.
test('the embedded database checkpoints once one is due after writes, and not without writes', async () => {
  const client = await PGlite.create();
  try {
    const now = Date.now();
    const opened = { at: now, lsn: await position(client) };
    assert.equal(await checkpointIfDue(client, opened, now), null, 'nothing written');
    await client.exec('CREATE TABLE t (n int); INSERT INTO t SELECT generate_series(1, 1000)');
    assert.equal(await checkpointIfDue(client, opened, now), null, 'a little WAL, the last checkpoint just made: not due yet');
    const before = await redo(client);
    const made = await checkpointIfDue(client, { ...opened, at: now - 300_000 }, now);
    assert.ok(made, 'five minutes after the last one, with WAL written');
    assert.notEqual(await redo(client), before);
    assert.equal(await checkpointIfDue(client, { ...made, at: now - 300_000 }, now), null, 'nothing written since');
  } finally {
    await client.close();
  }
});
