import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db, DbOrTx } from '../db/client.js';

/** Side work of a write that its answer need not wait for (a notice to someone else), given the app's database. */
type SideWork = (db: DbOrTx) => Promise<void>;

/** The side work the current request queued. */
const requestWork = new AsyncLocalStorage<SideWork[]>();

/**
 * Runs `work` once the request's answer is sent (issue 40: a comment's notice costs its writer no
 * round trip), on the app's database; outside a request (CLI, loaddata, jobs) at once, on `db` (the
 * caller's transaction). The work runs only after an answer below 400: a request that failed may
 * have rolled back what the work is about, and the work checks that its subject is still there. It
 * is not kept anywhere: a process that dies between the answer and the work loses it (a notice).
 */
export async function afterAnswer(db: DbOrTx, work: SideWork): Promise<void> {
  const queued = requestWork.getStore();
  if (queued) queued.push(work);
  else await work(db);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves once the side work of the answers sent so far has run (tests wait for it; the app's close does). */
    sideWorkDone(): Promise<void>;
  }
}

/** Queues each request's side work (`afterAnswer`) and runs it after its answer, one request's work after the other's. */
export function registerAfterAnswer(app: FastifyInstance, db: Db): void {
  const queued = new WeakMap<FastifyRequest, SideWork[]>();
  let running: Promise<void> = Promise.resolve();
  app.addHook('onRequest', (request, _reply, done) => {
    const works: SideWork[] = [];
    queued.set(request, works);
    requestWork.run(works, done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const works = queued.get(request);
    if (works?.length && reply.statusCode < 400) {
      running = running.then(async () => {
        for (const work of works) await work(db).catch((error: unknown) => request.log.error({ err: error }, 'side work after the answer failed'));
      });
    }
    done();
  });
  app.decorate('sideWorkDone', () => running);
  app.addHook('onClose', async () => {
    await running;
  });
}
