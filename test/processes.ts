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
