import '../../src/module-types.js'; // the Interactive Event's fixture kinds
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openPostgres } from '../../src/db/client.js';
import { clonePostgresTemplate, postgresSuite } from '../database.js';
import { load } from '../fixtures.js';
import { EVENT, eventWorld } from '../features/interactiveevents/world.js';
import { openStream } from '../features/interactiveevents/sse.js';
import { programArgs } from '../processes.js';

/** Starts one server process on the database; resolves with its address once it listens. */
function startServer(databaseUrl: string): { child: ChildProcess; address: Promise<string> } {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    WEB_CONCURRENCY: '1',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'allmende-live-')),
    PORT: '0',
    HOST: '127.0.0.1',
    NODE_ENV: 'development',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
  };
  const child = spawn(process.execPath, programArgs('main'), { env });
  let output = '';
  const address = new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/[^/\s]+)\//.exec(output);
      if (match) resolve(match[1]);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
  });
  return { child, address };
}

/**
 * Two server processes on one PostgreSQL, as two instances (or two workers) are: a question asked
 * through one reaches an event stream held open by the other, through LISTEN/NOTIFY. Needs
 * PostgreSQL, so it is registered in the PostgreSQL suite only (see postgresSuite).
 */
if (postgresSuite) test('a change made on one server process reaches the event streams of another', { timeout: 120_000 }, async () => {
  const clone = await clonePostgresTemplate();
  assert.ok(clone);
  const loader = openPostgres(clone.url, { max: 1 });
  await load(loader.db, eventWorld());
  await loader.close();
  const servers = [startServer(clone.url), startServer(clone.url)];
  try {
    const [a, b] = await Promise.all(servers.map((s) => s.address));
    const port = Number(new URL(b).port);
    const stream = await openStream(port, `/api/modules/${EVENT}/interactiveevents/live/`);
    assert.equal(stream.response.statusCode, 200);
    await stream.next((e) => e.event === undefined && e.comment === undefined);
    const asked = await fetch(`${a}/api/modules/${EVENT}/interactiveevents/livequestions/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Asked on the first server', category: 11 }),
    });
    assert.equal(asked.status, 201);
    const event = await stream.next((e) => e.event === 'question');
    assert.equal((JSON.parse(event.data ?? '{}') as { text: string }).text, 'Asked on the first server');
    // A like counts for the session of a page view (issue 36.3).
    const pairs = (await fetch(`${a}/org/interactiveevents/town-hall/`)).headers.getSetCookie().map((c) => c.split(';')[0]);
    const csrf = pairs.find((p) => p.startsWith('csrftoken='))?.split('=')[1] ?? '';
    const liked = await fetch(`${a}/api/livequestions/1/likes/`, { method: 'POST', headers: { cookie: pairs.join('; '), 'x-csrftoken': csrf, 'content-type': 'application/json' }, body: JSON.stringify({ value: true }) });
    assert.equal(liked.status, 201);
    assert.deepEqual(JSON.parse((await stream.next((e) => e.event === 'likes')).data ?? '{}'), { id: 1, count: 1 });
    stream.close();
  } finally {
    for (const server of servers) {
      const gone = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await gone;
    }
    await clone.drop();
  }
});
