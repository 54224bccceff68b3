import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db, DbOrTx } from '../db/client.js';

/** Side work of a write that its answer need not wait for (a notice to someone else), given the app's database. */
type SideWork = (db: DbOrTx) => Promise<void>;

/** The side work a request queued, and the promise that settles once its answer is sent and its work has run. */
interface Queued {
  works: SideWork[];
  /** The app's requests that queued work and whose answer is not sent yet (app.sideWorkDone waits for them). */
  unsent: Set<Promise<void>>;
  /** Made when the first work is queued, and put in `unsent`; settled after the answer. */
  done?: { promise: Promise<void>; settle(): void };
  /** Settles once the work has run (app.sideWorkOf). */
  ran?: Promise<void>;
}

/** The side work the current request queued. */
const requestWork = new AsyncLocalStorage<Queued>();

/**
 * Runs `work` once the request's answer is sent (issue 40: a comment's notice costs its writer no
 * round trip), on the app's database; outside a request (CLI, loaddata, jobs) at once, on `db` (the
 * caller's transaction). The work runs only after an answer below 400: a request that failed may
 * have rolled back what the work is about, and the work checks that its subject is still there. It
 * is not kept anywhere: a process that dies between the answer and the work loses it (a notice).
 */
export async function afterAnswer(db: DbOrTx, work: SideWork): Promise<void> {
  const queued = requestWork.getStore();
  if (!queued) return work(db);
  if (!queued.done) {
    let settle = () => {};
    const promise = new Promise<void>((resolve) => (settle = resolve));
    queued.done = { promise, settle };
    queued.unsent.add(promise);
  }
  queued.works.push(work);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves once the side work queued so far has run, including that of answers being sent now (tests wait for it; the app's close does). */
    sideWorkDone(): Promise<void>;
    /** Resolves once a request's own side work has run (at once when it queued none): from its onResponse on (the mail delivery's kick waits for the notices). */
    sideWorkOf(request: FastifyRequest): Promise<void>;
  }
}

/** Queues each request's side work (`afterAnswer`) and runs it after its answer, one request's work after the other's. */
export function registerAfterAnswer(app: FastifyInstance, db: Db): void {
  const queued = new WeakMap<FastifyRequest, Queued>();
  /** Requests that queued work whose answer is not sent yet. */
  const unsent = new Set<Promise<void>>();
  let running: Promise<void> = Promise.resolve();
  /** The work runs outside its request's context, as the CLI's writes do: a live event it publishes is announced at its commit (the request's own announcements were sent with the answer). */
  const outsideRequests = AsyncLocalStorage.snapshot();
  app.addHook('onRequest', (request, _reply, done) => {
    const entry: Queued = { works: [], unsent };
    queued.set(request, entry);
    requestWork.run(entry, done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const entry = queued.get(request);
    if (entry?.works.length && reply.statusCode < 400) {
      const { works } = entry;
      running = running.then(() =>
        outsideRequests(async () => {
          for (const work of works) await work(db).catch((error: unknown) => request.log.error({ err: error }, 'side work after the answer failed'));
        }),
      );
      entry.ran = running;
    }
    if (entry?.done) {
      unsent.delete(entry.done.promise);
      entry.done.settle();
    }
    done();
  });
  app.decorate('sideWorkDone', async () => {
    // A request that queued work and whose answer is on its way (its onResponse not run yet) is waited for first.
    while (unsent.size) await Promise.all(unsent);
    await running;
  });
  app.decorate('sideWorkOf', async (request: FastifyRequest) => {
    await queued.get(request)?.ran;
  });
  app.addHook('onClose', async () => {
    await running;
  });
}
