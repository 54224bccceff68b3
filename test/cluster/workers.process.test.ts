import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { clonePostgresTemplate, postgresSuite } from '../database.js';
import { programArgs } from '../processes.js';

/** Collects a child's output and resolves waits for a pattern as soon as it shows up (no sleeping). */
function watch(child: ChildProcess) {
  let output = '';
  const waiting: { pattern: RegExp; from: number; resolve: (m: RegExpExecArray) => void }[] = [];
  const check = () => {
    for (const wait of [...waiting]) {
      const match = wait.pattern.exec(output.slice(wait.from));
      if (match) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve(match);
      }
    }
  };
  const add = (chunk: Buffer) => {
    output += chunk.toString();
    check();
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  return {
    output: () => output,
    /** The next match of pattern in the output from offset `from` (default: from the start). */
    waitFor(pattern: RegExp, from = 0): Promise<RegExpExecArray> {
      return new Promise((resolve) => {
        waiting.push({ pattern, from, resolve });
        check();
      });
    },
  };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const pidsIn = (text: string) => [...text.matchAll(/worker (\d+) is listening/g)].map((m) => Number(m[1]));

/**
 * Workers need PostgreSQL, so this test belongs to the PostgreSQL suite (TEST_DATABASE_URL, run by
 * `.ci/run`) and is not registered in the PGlite one, where `test/config/config.unit.test.ts` proves
 * that more than one worker is refused.
 */
if (postgresSuite) test('WEB_CONCURRENCY=2 on PostgreSQL: two workers serve one port, a killed worker is replaced, SIGTERM stops all cleanly', { timeout: 180_000 }, async () => {
  const clone = await clonePostgresTemplate();
  assert.ok(clone);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: clone.url,
    WEB_CONCURRENCY: '2',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'allmende-cluster-')),
    PORT: '0',
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
  };
  const primary = spawn(process.execPath, programArgs('main'), { env });
  const exited = new Promise<number | null>((resolve) => primary.once('exit', (code) => resolve(code)));
  const out = watch(primary);
  try {
    const started = await Promise.race([
      out.waitFor(/running at (http:\/\/[^/\s]+)\/ \(PostgreSQL, 2 workers\)/),
      exited.then((code) => assert.fail(`exited with ${code}:\n${out.output()}`)),
    ]);
    const url = started[1];
    const workers = pidsIn(out.output());
    assert.equal(workers.length, 2);
    assert.ok(!workers.includes(primary.pid ?? 0), 'the workers are processes of their own');

    const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(`${url}/api/app-projects/`).then((r) => r.status)));
    assert.deepEqual(new Set(answers), new Set([401]), 'both workers answer through the one port');

    const mark = out.output().length;
    process.kill(workers[0], 'SIGKILL');
    await out.waitFor(new RegExp(`worker ${workers[0]} exited with SIGKILL; starting a new one`), mark);
    const [, replacement] = await out.waitFor(/worker (\d+) is listening/, mark);
    assert.ok(alive(Number(replacement)));
    assert.equal((await fetch(`${url}/healthz`)).status, 200);

    primary.kill('SIGTERM');
    assert.equal(await exited, 0, out.output());
    for (const pid of [workers[1], Number(replacement)]) assert.ok(!alive(pid), `worker ${pid} is gone`);
  } finally {
    if (primary.exitCode === null) primary.kill('SIGKILL');
    await clone.drop();
  }
});
