import cluster, { type Worker } from 'node:cluster';

/** What a worker tells the primary. */
export type WorkerMessage = { type: 'listening'; address: string };

/** How long the workers get to finish their requests after SIGTERM before they are killed. */
const SHUTDOWN_GRACE_MS = 30_000;
/** A worker that dies sooner than this after its start counts as crashing: its replacement waits. */
const STABLE_AFTER_MS = 10_000;
const MAX_RESTART_DELAY_MS = 30_000;

/**
 * A worker's node flags: the primary's, and V8's young generation held at 8 MB per semi-space
 * (`--max-semi-space-size`; V8's own limit is 16), which keeps a worker under load about 15 MB
 * smaller at the same speed (docs/performance.md, "A busy evening"). A size the primary's flags or
 * NODE_OPTIONS give wins.
 */
export const workerFlags = (execArgv: readonly string[], nodeOptions = ''): string[] =>
  [...execArgv, nodeOptions].some((flag) => flag.includes('--max-semi-space-size')) ? [...execArgv] : [...execArgv, '--max-semi-space-size=8'];

const isListening = (message: unknown): message is WorkerMessage =>
  typeof message === 'object' && message !== null && (message as WorkerMessage).type === 'listening';

/**
 * The primary of WEB_CONCURRENCY > 1: forks `count` workers that share one port (node:cluster hands
 * them the connections), replaces a worker that dies (waiting longer each time one keeps crashing
 * right after its start), and on SIGTERM/SIGINT lets every worker drain and exits when all are gone
 * (0 when all stopped cleanly). Resolves with the address once every worker listens; if a worker
 * dies before that, the start fails.
 */
export function runPrimary(count: number): Promise<string> {
  let started = false;
  let stopping = false;
  let crashes = 0;
  let address = '';
  const listening = new Set<number>();
  const startedAt = new Map<number, number>();

  cluster.setupPrimary({ execArgv: workerFlags(process.execArgv, process.env.NODE_OPTIONS) });
  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
    return worker;
  };

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping ${Object.keys(cluster.workers ?? {}).length} workers`);
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    let failed = false;
    let left = workers.length;
    if (!left) process.exit(0);
    const force = setTimeout(() => {
      console.error(`workers still busy after ${SHUTDOWN_GRACE_MS / 1000} s: killed`);
      for (const worker of workers) worker.process.kill('SIGKILL');
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    for (const worker of workers) {
      worker.once('exit', (code, exitSignal) => {
        failed ||= code !== 0 && exitSignal !== 'SIGTERM'; // a worker still starting has no handler yet
        if (--left === 0) process.exit(failed ? 1 : 0);
      });
      worker.process.kill('SIGTERM');
    }
  };

  return new Promise((resolve, reject) => {
    cluster.on('message', (worker, message: unknown) => {
      if (!isListening(message)) return;
      address = message.address;
      listening.add(worker.id);
      console.log(`worker ${worker.process.pid} is listening`);
      if (!started && listening.size === count) {
        started = true;
        resolve(address);
      }
    });

    cluster.on('exit', (worker, code, signal) => {
      listening.delete(worker.id);
      if (stopping) return;
      if (!started) {
        stop('start failed');
        reject(new Error(`worker ${worker.process.pid} exited with ${signal ?? code} during the start`));
        return;
      }
      const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
      startedAt.delete(worker.id);
      crashes = lived < STABLE_AFTER_MS ? crashes + 1 : 0;
      const delay = crashes ? Math.min(MAX_RESTART_DELAY_MS, 500 * 2 ** (crashes - 1)) : 0;
      console.error(`worker ${worker.process.pid} exited with ${signal ?? code}; starting a new one${delay ? ` in ${delay} ms` : ''}`);
      setTimeout(() => {
        if (!stopping) fork();
      }, delay);
    });

    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
    for (let i = 0; i < count; i++) fork();
  });
}
