import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { withDatabase } from '../../../src/db/admin.js';
import { postgresSuite } from '../../database.js';
import { createTestApp } from '../../helpers.js';
import { load } from '../../fixtures.js';
import { EVENT, eventWorld } from './world.js';
import { openStream } from './sse.js';

/**
 * Issue 36.14: the PostgreSQL LISTEN connection is cut again and again while questions are asked;
 * the stream still gets every one of them, in time, without the heartbeat's read (the interval
 * timers are mocked and never run). PostgreSQL only: PGlite has no connection to lose.
 */
if (postgresSuite)
  test('a stream gets every event while the LISTEN connection is cut and comes back under writes', { timeout: 120_000 }, async (context) => {
    context.mock.timers.enable({ apis: ['setInterval'] });
    const t = await createTestApp();
    await load(t.db, eventWorld());
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (t.app.server.address() as AddressInfo).port;
    const [named] = ((await t.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] }).rows;
    assert.ok(named && process.env.TEST_DATABASE_URL);
    const admin = new pg.Client({ connectionString: withDatabase(process.env.TEST_DATABASE_URL, named.name) });
    await admin.connect();
    const listener = async () => ((await admin.query(`select pid from pg_stat_activity where datname = current_database() and query = 'LISTEN allmende_live'`)).rows as { pid: number }[]).map((r) => r.pid);
    try {
      const stream = await openStream(port, `/api/modules/${EVENT}/interactiveevents/live/`);
      await stream.next((e) => e.id !== undefined);
      const asked: string[] = [];
      for (let round = 0; round < 4; round++) {
        const before = await listener();
        for (const pid of before) await admin.query('select pg_terminate_backend($1)', [pid]);
        // Writes while the listener is away and while it comes back (its catch-up read).
        for (let n = 0; n < 30; n++) {
          const text = `Round ${round}, question ${n}`;
          const answer = await t.request({ method: 'POST', url: `/api/modules/${EVENT}/interactiveevents/livequestions/`, payload: { text, category: 11 } });
          assert.equal(answer.status, 201);
          asked.push(text);
          if (n % 10 === 9) await new Promise((resolve) => setImmediate(resolve));
        }
        // The listener is back (a new backend) before the next round cuts it again.
        while ((await listener()).every((pid) => before.includes(pid)) || !(await listener()).length) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // No write after the rounds and no heartbeat: what reaches the stream now came by the reconnects' catch-up reads.
      const last = asked.at(-1) ?? '';
      await stream.next((e) => e.event === 'question' && (e.data ?? '').includes(last));
      const seen = new Set(stream.events.filter((e) => e.event === 'question').map((e) => (JSON.parse(e.data ?? '{}') as { text: string }).text));
      assert.deepEqual(asked.filter((text) => !seen.has(text)), [], 'every question reached the stream');
      stream.close();
    } finally {
      await admin.end();
    }
  });
