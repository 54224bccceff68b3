/**
 * Compiles the suite once per run (docs/testing.md, "How a run works"): esbuild bundles every test
 * file, with the src/ and test/ modules it imports, into `.test-build/run-<pid>/` (shared modules become
 * chunks), so that each test process loads plain JavaScript instead of resolving and transforming
 * ≈ 1,700 TypeScript modules through tsx. Packages stay in node_modules (imported by Node).
 *
 * Each module's `import.meta.url` stays the URL of its source file, so the paths that modules compute
 * from it (the migrations, the static files, a document a test reads) are the same as under tsx.
 *
 * The production build (scripts/build.ts) goes to the run's `dist/`: the process tier's child
 * processes start from it as an operator's `npm run start:prod` does (test/processes.ts).
 */
import { build, type Plugin } from 'esbuild';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildProduction } from '../scripts/build.js';

/** This run's own folder under `.test-build/`, so that runs side by side (two worktrees' checks, a tier and a file) do not remove each other's. */
export const BUILD_DIR = join('.test-build', `run-${process.pid}`);

/** Removes the folders of runs whose process is gone (a run removes its own at its end). */
function removeStaleBuilds(): void {
  if (!existsSync('.test-build')) return;
  for (const name of readdirSync('.test-build')) {
    if (name === 'widgets') continue; // the widget bundles of test/web/widgets/build.ts, kept between runs
    const pid = Number(/^run-(\d+)$/.exec(name)?.[1]);
    if (pid && pid !== process.pid && isRunning(pid)) continue;
    rmSync(join('.test-build', name), { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The bundled file of a test file (`test/x/y.test.ts` → `.test-build/run-<pid>/test/x/y.test.js`). */
export const builtFile = (file: string) => join(BUILD_DIR, file.replace(/\.tsx?$/, '.js'));

/** Puts each project module's own source URL in place of `import.meta.url`. */
const sourceUrls: Plugin = {
  name: 'source-urls',
  setup(builder) {
    builder.onLoad({ filter: /\.tsx?$/ }, (args) => {
      if (args.path.includes('node_modules')) return undefined;
      const contents = readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
      return { contents, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
    });
  },
};

/** The test modules' `node:test` is test/grouping.ts, which runs several files in one process (test/run.ts). */
const grouping: Plugin = {
  name: 'grouping',
  setup(builder) {
    const shim = resolve('test/grouping.ts');
    const testDir = `${resolve('test')}${sep}`;
    builder.onResolve({ filter: /^node:test$/ }, (args) =>
      args.importer.startsWith(testDir) && args.importer !== shim ? { path: shim } : undefined,
    );
  },
};

/** Bundles `files` (and, unless `withProduction` is false, the production build); returns the milliseconds it took. */
export async function buildSuite(files: string[], { withProduction = true } = {}): Promise<number> {
  const started = Date.now();
  removeStaleBuilds();
  await build({
    entryPoints: files,
    outdir: BUILD_DIR,
    outbase: '.',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked', // stack traces name the .ts lines (node --enable-source-maps)
    logLevel: 'warning',
    plugins: [grouping, sourceUrls],
  });
  if (withProduction) await buildProduction(join(BUILD_DIR, 'dist'));
  return Date.now() - started;
}
