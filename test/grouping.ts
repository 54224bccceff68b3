/**
 * Several test files in one process (docs/testing.md, "How a run works"). A test process spends
 * seconds before its first test (loading the modules, starting PGlite); the unit and medium tiers
 * run their files in groups, one process per group, and that cost is paid once per group.
 *
 * The bundle (test/build.ts) resolves `node:test` to this module for the modules under test/, so a
 * file's top-level `test()`, `before()`, `after()`, … are collected while the file is imported and
 * then declared inside one suite named after the file: a file's hooks stay its own, its tests run
 * together, its setup runs when its turn comes, and the reporter sees where each file ends.
 * Outside a group's file setup (a file run on its own, or a call made while a test runs, such as
 * `after()` in createTestApp) every function is node's own.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import * as node from 'node:test';

type Declare = 'test' | 'it' | 'describe' | 'suite' | 'before' | 'after' | 'beforeEach' | 'afterEach';
type Variant = 'only' | 'skip' | 'todo';
interface Declaration {
  declare: Declare;
  variant?: Variant;
  args: unknown[];
}

/** The file of a group whose setup is running, carried along every async chain its import starts. */
interface GroupFile {
  declarations: Declaration[];
  /** Its suite is declared: an `after()` of its import that comes later (a promise the file began and did not await) runs at its end. */
  declared: boolean;
  late: (() => unknown)[];
}
const fileContext = new AsyncLocalStorage<GroupFile>();

type Declarer = ((...args: unknown[]) => unknown) & Partial<Record<Variant, (...args: unknown[]) => unknown>>;

/** node's own function of that name (and variant), called with `args`. */
function declareNow({ declare, variant, args }: Declaration): unknown {
  const real = node[declare] as unknown as Declarer;
  const fn = variant ? real[variant] : real;
  return (fn as (...a: unknown[]) => unknown)(...args);
}

function declarer(declare: Declare, variants: Variant[]): Declarer {
  const make = (variant?: Variant) => (...args: unknown[]) => {
    const file = fileContext.getStore();
    if (file && !file.declared) {
      file.declarations.push({ declare, variant, args });
      return declare === 'test' || declare === 'it' ? Promise.resolve() : undefined;
    }
    const hook = args.find((a) => typeof a === 'function') as (() => unknown) | undefined;
    if (file && declare === 'after' && hook) return void file.late.push(hook);
    return declareNow({ declare, variant, args });
  };
  return Object.assign(make(), Object.fromEntries(variants.map((v) => [v, make(v)])));
}

const tests: Variant[] = ['only', 'skip', 'todo'];
export const test = declarer('test', tests) as unknown as typeof node.test;
export const it = declarer('it', tests) as unknown as typeof node.it;
export const describe = declarer('describe', tests) as unknown as typeof node.describe;
export const suite = declarer('suite', tests) as unknown as typeof node.describe;
export const before = declarer('before', []) as unknown as typeof node.before;
export const after = declarer('after', []) as unknown as typeof node.after;
export const beforeEach = declarer('beforeEach', []) as unknown as typeof node.beforeEach;
export const afterEach = declarer('afterEach', []) as unknown as typeof node.afterEach;
export const mock = node.mock;
// node:test's default export is `test`.
// eslint-disable-next-line no-restricted-exports
export default test;

/** The file of the group whose tests are running. */
let running: GroupFile | null = null;

/**
 * Runs `hook` when the running file's tests and its own `after()` hooks are done (test/helpers.ts
 * closes the file's apps there); false outside a group's file, where nothing is registered.
 */
export function atFileEnd(hook: () => unknown): boolean {
  running?.late.push(hook);
  return running !== null;
}

/**
 * Runs the files of a group one after the other: imports a file, collecting what it declares, then
 * declares its tests in a suite named after it and waits for the suite to end before the next file
 * is imported (test/run.ts reads where each file ends from test/reporter.ts's lines).
 */
export async function runGroup(files: [name: string, load: () => Promise<unknown>][]): Promise<void> {
  for (const [name, load] of files) {
    const file: GroupFile = { declarations: [], declared: false, late: [] };
    await fileContext.run(file, async () => {
      try {
        await load();
      } catch (error) {
        file.declarations.push({ declare: 'test', args: ['the file loads', () => Promise.reject(error)] });
      }
    });
    file.declared = true;
    running = file;
    await new Promise<void>((ended) => {
      void node.describe(name, () => {
        file.declarations.forEach(declareNow);
        node.after(async () => {
          for (const hook of file.late) await hook();
          running = null;
          ended();
        });
      });
    });
  }
  await exitWhenReported(files.length);
}

/** Where test/reporter.ts counts the files it has shown. */
export const REPORTED = Symbol.for('allmende.test.reportedFiles');

/**
 * Ends the process once the reporter has shown every file, as `--test-force-exit` does for a file
 * run alone (which cannot serve here: it ends the process when the known tests are done, before
 * the next file is imported). Something a test left open (a timer, a socket) must not hold it.
 */
async function exitWhenReported(files: number): Promise<void> {
  const reported = () => (globalThis as { [REPORTED]?: number })[REPORTED] ?? 0;
  for (let waited = 0; reported() < files && waited < 30_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
  setTimeout(() => process.exit(), 500).unref();
}

