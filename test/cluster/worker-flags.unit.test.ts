import assert from 'node:assert/strict';
import { test } from 'node:test';
import { workerFlags } from '../../src/cluster.js';

test("a worker gets the primary's node flags and a young generation of 8 MB per semi-space, unless the flags or NODE_OPTIONS name one", () => {
  assert.deepEqual(workerFlags([]), ['--max-semi-space-size=8']);
  assert.deepEqual(workerFlags(['--enable-source-maps'], '--max-old-space-size=512'), ['--enable-source-maps', '--max-semi-space-size=8']);
  assert.deepEqual(workerFlags(['--max-semi-space-size=16']), ['--max-semi-space-size=16'], "the primary's own size");
  assert.deepEqual(workerFlags(['--cpu-prof'], '--max-semi-space-size=32'), ['--cpu-prof'], "NODE_OPTIONS' size (node reads it in the worker too)");
});
