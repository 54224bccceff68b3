/**
 * The test reporter of test/run.ts: each test's result as the spec reporter shows it (failures
 * with their error), without node's per-file summary, each followed by a line `# counts {…}` of the
 * counts so far: the runner reads the last one (`--test-force-exit` may end the process before a
 * reporter's epilogue). When files run in a group (test/grouping.ts), each file is a suite named
 * after it; its end is marked by a line `# file {…}` with its name, time, CPU time and counts.
 */
import { inspect } from 'node:util';

const REPORTED = Symbol.for('allmende.test.reportedFiles');

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
      yield `${indent}﹣ ${data.name}${ms} # ${data.skip ? 'SKIP' : 'TODO'}\n${countLine(counts)}`;
    } else if (type === 'test:pass') {
      if (!suite) counts.passed += 1;
      yield `${indent}✔ ${data.name}${ms}\n${countLine(counts)}`;
    } else {
      if (!suite) counts.failed += 1;
      const error = inspect(data.details?.error, { depth: 6 }).replace(/^/gm, `${indent}  `);
      yield `${indent}✖ ${data.name}${ms}\n${error}\n${countLine(counts)}`;
    }
    if (suite && data.nesting === 0 && data.name?.endsWith('.test.ts')) {
      const inFile = Object.fromEntries(Object.entries(counts).map(([key, n]) => [key, n - atFileStart[key as keyof typeof counts]]));
      // A file whose suite failed with no failed test (a hook failed) counts one failure.
      if (type === 'test:fail' && !inFile.failed) inFile.failed = 1;
      // The process's CPU time in the file (the first file also pays for loading the group): a measure that a busy machine does not inflate.
      const { user, system } = process.cpuUsage();
      const cpu = Math.round((user + system) / 1000);
      yield `# file ${JSON.stringify({ file: data.name, ms: data.details?.duration_ms ?? 0, cpuMs: cpu - cpuAtFileStart, ...inFile })}\n`;
      atFileStart = { ...counts };
      cpuAtFileStart = cpu;
      // test/grouping.ts ends the process when every file of its group is shown.
      const shown = globalThis as { [REPORTED]?: number };
      shown[REPORTED] = (shown[REPORTED] ?? 0) + 1;
    }
  }
}

const countLine = (counts: object) => `# counts ${JSON.stringify(counts)}\n`;
