import assert from 'node:assert/strict';
import { test } from 'node:test';
import { browserSessions } from '../../src/db/schema/index.js';
import { SESSION_PURGE_INTERVAL_MS } from '../../src/jobs/background.js';
import { createTestApp } from '../helpers.js';

test('the background work deletes expired browser sessions every hour, and keeps the live ones', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const { app, db } = await createTestApp();
  const hour = 60 * 60 * 1000;
  await db.insert(browserSessions).values([
    { id: 'expired-session', data: {}, expiresAt: new Date(Date.now() - hour) },
    { id: 'live-session', data: {}, expiresAt: new Date(Date.now() + hour) },
  ]);
  t.mock.timers.tick(SESSION_PURGE_INTERVAL_MS - 1);
  assert.equal((await db.select().from(browserSessions)).length, 2, 'nothing before the hour is up');
  t.mock.timers.tick(1);
  // Closing the app waits for a purge that is running.
  await app.close();
  assert.deepEqual((await db.select({ id: browserSessions.id }).from(browserSessions)).map((s) => s.id), ['live-session']);
});
