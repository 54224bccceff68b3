import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { programArgs, type Running, startServer } from '../processes.js';

function start(dataDir: string, extraEnv: Record<string, string> = {}): Promise<Running> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', NODE_ENV: 'development', LOG_LEVEL: 'warn', ...extraEnv };
  delete env.DATABASE_URL;
  return startServer(programArgs('main'), env);
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

test('npm start: demo logins printed, /healthz ok, a second process refused, SIGTERM exits cleanly, kill -9 recovers', { timeout: 600_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'allmende-start-'));
  const first = await start(dataDir);
  assert.match(first.output(), /Demo logins/);
  assert.match(first.output(), /alice\s+alice-demo-pw/);
  const health = await fetch(`${first.url}/healthz`);
  assert.equal(health.status, 200);
  assert.deepEqual(await health.json(), { status: 'ok' });

  await assert.rejects(start(dataDir), /in use by process/);

  const code = exited(first.child);
  first.child.kill('SIGTERM');
  assert.equal(await code, 0);

  const second = await start(dataDir);
  assert.doesNotMatch(second.output(), /Demo logins/, 'the demo is loaded only into an empty database');
  const killed = exited(second.child);
  second.child.kill('SIGKILL');
  await killed;

  const third = await start(dataDir);
  assert.equal((await fetch(`${third.url}/healthz`)).status, 200, 'a stale lock of a killed process does not block the next start');
  const done = exited(third.child);
  third.child.kill('SIGTERM');
  assert.equal(await done, 0);
});
