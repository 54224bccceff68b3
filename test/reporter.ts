/**
 * The test reporter of test/run.ts: each test's result as the spec reporter shows it (failures
 * with their error), without node's summary. Every file runs through test/grouping.ts as a suite
 * named after it; its end is marked by a line `# file {…}` with its name, time, CPU time and
 * counts, which the runner reads.
 */
import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { REPORTED } from './grouping.js';

interface TestEvent {
  type: string;
  data: {
    name?: string;
    nesting?: number;
    message?: string;
    skip?: boolean | string;
    todo?: boolean | string;
    details?: { duration_ms?: number; type?: string; error?: unknown };
  };
}

// node's test runner loads a reporter module's default export.
// eslint-disable-next-line no-restricted-exports
export default async function* reporter(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const counts = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  let atFileStart = { ...counts };
  let cpuAtFileStart = 0;
  for await (const { type, data } of source) {
    const indent = '  '.repeat(data.nesting ?? 0);
    const ms = data.details?.duration_ms === undefined ? '' : ` (${data.details.duration_ms.toFixed(0)} ms)`;
    if (type === 'test:stdout' || type === 'test:stderr') yield data.message ?? '';
    if (type !== 'test:pass' && type !== 'test:fail') continue;
    const suite = data.details?.type === 'suite';
    if (data.skip || data.todo) {
      if (!suite) counts[data.skip ? 'skipped' : 'todo'] += 1;
      yield `${indent}﹣ ${data.name}${ms} # ${data.skip ? 'SKIP' : 'TODO'}\n`;
    } else if (type === 'test:pass') {
      if (!suite) counts.passed += 1;
      yield `${indent}✔ ${data.name}${ms}\n`;
    } else {
      if (!suite) counts.failed += 1;
      const error = inspect(data.details?.error, { depth: 6 }).replace(/^/gm, `${indent}  `);
      yield `${indent}✖ ${data.name}${ms}\n${error}\n`;
    }
    if (suite && data.nesting === 0 && data.name?.endsWith('.test.ts')) {
      const inFile = Object.fromEntries(Object.entries(counts).map(([key, n]) => [key, n - atFileStart[key as keyof typeof counts]]));
      // A file whose suite failed with no failed test (a hook failed) counts one failure.
      if (type === 'test:fail' && !inFile.failed) inFile.failed = 1;
      // The CPU time in the file (the first file also pays for loading the group): a measure that a busy machine does not inflate.
      const cpu = cpuMs();
      yield `# file ${JSON.stringify({ file: data.name, ms: data.details?.duration_ms ?? 0, cpuMs: cpu - cpuAtFileStart, ...inFile })}\n`;
      atFileStart = { ...counts };
      cpuAtFileStart = cpu;
      // test/grouping.ts ends the process when every file of its group is shown.
      const shown = globalThis as { [REPORTED]?: number };
      shown[REPORTED] = (shown[REPORTED] ?? 0) + 1;
    }
  }
}

/**
 * The CPU time of this process and of the child processes it has ended (Chromium, a server, a CLI
 * run): /proc/self/stat's own and children's times on Linux, this process's alone elsewhere.
 */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  let children = 0;
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /s, '').split(' ');
    children = ((Number(fields[13]) + Number(fields[14])) * 1000) / 100; // cutime, cstime in clock ticks (100 a second)
  } catch {
    // not Linux
  }
  return Math.round((user + system) / 1000 + children);
}
