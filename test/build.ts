/**
 * Compiles the suite once per run (docs/testing.md, "How a run works"): esbuild bundles every test
 * file, with the src/ and test/ modules it imports, into `.test-build/` (shared modules become
 * chunks), so that each test process loads plain JavaScript instead of resolving and transforming
 * ≈ 1,700 TypeScript modules through tsx. Packages stay in node_modules (imported by Node).
 *
 * Each module's `import.meta.url` stays the URL of its source file, so the paths that modules compute
 * from it (the migrations, the static files, a document a test reads) are the same as under tsx.
 *
 * The production build (scripts/build.ts) goes to `.test-build/dist/`: the process tier's child
 * processes start from it as an operator's `npm run start:prod` does (test/processes.ts).
 */
import { build, type Plugin } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildProduction } from '../scripts/build.js';

export const BUILD_DIR = '.test-build';

/** The bundled file of a test file (`test/x/y.test.ts` → `.test-build/test/x/y.test.js`). */
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
  rmSync(BUILD_DIR, { recursive: true, force: true });
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
