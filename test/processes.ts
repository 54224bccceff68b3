import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = { main: 'src/main.ts', manage: 'src/cli/manage.ts', usersvc: 'src/usersvc/main.ts' } as const;

/**
 * The arguments for `spawn(process.execPath, …)` that start one of the platform's programs in a
 * child process: from the production build that test/run.ts made for the process tier (as an
 * operator's `npm run start:prod` starts it: one bundled module, a start in a fraction of a
 * second), or through tsx when no build is there (a file run on its own with `node --import tsx`).
 */
export function programArgs(program: keyof typeof SOURCES, ...args: string[]): string[] {
  const built = process.env.TEST_BUILD_DIR ? join(process.env.TEST_BUILD_DIR, 'dist', `${program}.js`) : null;
  if (built && existsSync(built)) return ['--enable-source-maps', built, ...args];
  return ['--import', 'tsx', SOURCES[program], ...args];
}

export interface Running {
  child: ChildProcess;
  /** The server's address from its "running at" line. */
  url: string;
  /** Everything it printed so far. */
  output: () => string;
}

/**
 * The Node.js that runs the servers of the process tier: this one, or TEST_SERVER_NODE (CI runs
 * the production build's smoke set on the next LTS line as well: docs/operations.md, issue 36.17).
 */
export const serverNode = () => process.env.TEST_SERVER_NODE || process.execPath;

/**
 * A server started with `spawn(serverNode(), args, { env })`, once it says it is running. A
 * readiness check, not a stopwatch: the test's timeout bounds a start that never comes; an exit
 * before it rejects with what the process printed.
 */
export function startServer(args: string[], env: NodeJS.ProcessEnv): Promise<Running> {
  const child = spawn(serverNode(), args, { env });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', () => {
      const match = /running at (http:\/\/[^/\s]+)\//.exec(output);
      if (match) resolve({ child, url: match[1], output: () => output });
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
}
