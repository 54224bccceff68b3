import type { FastifyInstance } from 'fastify';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Identical reads that overlap in time share one statement: while the rows of a key are being
 * loaded, another request for them waits for that load instead of sending its own. Nothing is kept
 * once the load ends, so there is no TTL to choose and nothing to invalidate across instances.
 * A write this process answers ends the sharing of the loads already running (`written`), so a
 * client always reads its own writes; a write answered by another instance can be missed by at
 * most one load's duration, as if the read had arrived that much earlier.
 */
export class SharedReads {
  private era = 0;
  private readonly running = new Map<string, { era: number; result: Promise<unknown> }>();

  written(): void {
    this.era++;
  }

  load<T>(key: string, read: () => Promise<T>): Promise<T> {
    const shared = this.running.get(key);
    if (shared && shared.era === this.era) return shared.result as Promise<T>;
    const result = read();
    const entry = { era: this.era, result };
    this.running.set(key, entry);
    const done = () => {
      if (this.running.get(key) === entry) this.running.delete(key);
    };
    result.then(done, done);
    return result;
  }
}

/**
 * The app's shared reads. Every answer to a write (any method but GET, HEAD, OPTIONS) ends the
 * sharing before it is sent: its handler has committed by then. Register before the features.
 */
export function registerSharedReads(app: FastifyInstance): SharedReads {
  const reads = new SharedReads();
  app.addHook('onSend', async (request, _reply, payload) => {
    if (!SAFE_METHODS.has(request.method)) reads.written();
    return payload;
  });
  return reads;
}
