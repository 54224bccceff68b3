/**
 * The production build: `npm run build` (or `npx tsx scripts/build.ts [outDir]`, default dist/).
 * esbuild bundles src/main.ts with the dependencies it imports into one ES module, outDir/main.js,
 * so a start reads and compiles one file instead of resolving, reading and linking ≈ 1 700 modules
 * (docs/performance.md, "Cold start"); the manage CLI likewise into outDir/manage.js (what they
 * share is in chunk files beside them). Also beside them: outDir/migrations and outDir/web/static,
 * where db/client.ts and app.ts look for them relative to their module (src/db/migrations and
 * src/web/static under tsx; in the build every module is a file directly in outDir).
 *
 * Types are not checked here (esbuild strips them, as tsx does for `npm start`): `npm run typecheck`
 * and `npm test` do that.
 */
import { build, type Plugin } from 'esbuild';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join, sep } from 'node:path';

/**
 * Left to Node's resolver at run time, so node_modules must be beside the build:
 * PGlite loads its pglite.wasm and pglite.data relative to its own module; sharp and argon2 are
 * native addons (pg-native an optional one that pg looks for); exceljs (an export) and ioredis
 * (REDIS_URL) are imported only when first needed, so a start never reads them.
 */
const EXTERNAL = ['@electric-sql/pglite', 'sharp', '@node-rs/argon2', 'pg-native', 'exceljs', 'ioredis'];

/**
 * A CommonJS module in the bundle that reads files beside itself (swagger-ui serves its static
 * files from `__dirname`) gets its own `__dirname` and `__filename`, found at run time in the
 * node_modules beside the bundle (the same lookup that finds the external packages).
 */
const packageDirnames: Plugin = {
  name: 'package-dirnames',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]node_modules[\\/].*\.c?js$/ }, (args) => {
      const contents = readFileSync(args.path, 'utf8');
      if (!/\b__(dirname|filename)\b/.test(contents)) return undefined;
      const inPackages = args.path.split(sep).join('/').replace(/^.*?\/node_modules\//, '');
      const prelude = `var __filename = __bundledPackageFile(${JSON.stringify(inPackages)}), __dirname = __bundlePath.dirname(__filename);\n`;
      return { contents: prelude + contents, loader: 'js' };
    });
  },
};

/** Bundled CommonJS modules require Node's built-ins, and a few packages their files (above). */
const banner = `import { createRequire as __createRequire } from 'node:module';
import * as __bundlePath from 'node:path';
import { existsSync as __exists } from 'node:fs';
import { fileURLToPath as __fileURLToPath } from 'node:url';
const require = __createRequire(import.meta.url);
const __bundledPackageFile = (file) => {
  for (let dir = __bundlePath.dirname(__fileURLToPath(import.meta.url)); ; dir = __bundlePath.dirname(dir)) {
    const path = __bundlePath.join(dir, 'node_modules', file);
    if (__exists(path) || __bundlePath.dirname(dir) === dir) return path;
  }
};`;

export async function buildProduction(outDir: string): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  await build({
    entryPoints: {
      main: 'src/main.ts',
      manage: 'src/cli/manage.ts',
      usersvc: 'src/usersvc/main.ts',
      // What `PROFILE_BUILD=1 bench/profile.ts` imports to profile the build in-process.
      app: 'src/app.ts',
      config: 'src/config.ts',
      'db/client': 'src/db/client.ts',
    },
    outdir: outDir,
    bundle: true,
    splitting: true, // a dynamic import() stays lazy: its module is a chunk of its own
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    plugins: [packageDirnames],
    banner: { js: banner },
    sourcemap: 'linked', // read only with `node --enable-source-maps`
    logLevel: 'warning',
  });
  cpSync('src/db/migrations', join(outDir, 'migrations'), { recursive: true });
  cpSync('src/web/static', join(outDir, 'web', 'static'), { recursive: true });
}

// Run as a script only: when bundled into a test, import.meta.url is the bundle's (test/build.ts).
if (/[\\/]scripts[\\/]build\.ts$/.test(process.argv[1] ?? '')) await buildProduction(process.argv[2] ?? 'dist');
