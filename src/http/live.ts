import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import type { Database, Db, DbOrTx } from '../db/client.js';
import { liveEvents, livePurged } from '../db/schema/index.js';
import { pageVersionField } from '../db/versions.js';
import { redisUnreachableMessage } from './throttle.js';

/**
 * The live channel: pages that update themselves. A write publishes an event on a topic inside its
 * transaction (`publishLive`): the event is kept in `live_events` with the writing transaction's id.
 * Once the request's answer is sent (its transactions are over), its topics are announced with
 * PostgreSQL's NOTIFY to every process that listens (every worker of every instance on the same
 * PostgreSQL; PGlite does the same in its one process). Writers take no lock, and NOTIFY is not
 * part of their transactions (PostgreSQL serialises the commits of transactions that notify): many
 * may write one topic at once. A process sends one announcement at a time; topics written meanwhile
 * go together in the next.
 *
 * Positions are snapshots, not ids. Each process has one `LiveHub`; woken by an announcement, it
 * reads in one statement the events whose transactions its last snapshot did not see and that the
 * statement's own snapshot sees, and takes that snapshot as its new position (the method of PgQ: a
 * transaction that is still running when one batch is read is in none yet and comes with a later
 * one, whatever its ids; so no event is skipped and none is read twice). Wake-ups while it reads
 * make one more read, not one each. A stream's `id:` is the hub's position after the batch it
 * ends, so a client that reconnects with Last-Event-ID (or a page that passes the position it was
 * rendered at) gets exactly the kept events it has not seen; one that was away longer than events
 * are kept gets a `reset` event (read the whole state again). docs/api.md ("Live channel")
 * describes the streams.
 *
 * With REDIS_URL the processes wake each other through Redis pub/sub instead (one transport per
 * process, never both): the topics are published on `liveRedisChannel(REDIS_PREFIX)`, and each hub reads as
 * above. A write outside a request (the CLI) notifies at its commit, which only hubs without Redis
 * hear: for the others the next wake-up, or the heartbeat's read, brings it along.
 * docs/operations.md ("Live updates") describes the setup.
 */

const LIVE_CHANNEL = 'allmende_live';
/** The Redis pub/sub channel with REDIS_URL, after the installation's REDIS_PREFIX (two installations on one Redis pick different prefixes). */
export const liveRedisChannel = (prefix: string) => `${prefix}live`;
/** How long events are kept for reconnecting clients. */
const KEEP_MS = 60 * 60 * 1000;
const PURGE_EVERY_MS = 10 * 60 * 1000;
/**
 * A comment line this often keeps proxies and the server's idle timeout from closing a quiet stream;
 * it carries the hub's position (read anew first), so a quiet stream's position stays recent.
 */
const HEARTBEAT_MS = 15_000;
/** How often open streams check whether their projects' rights changed (see `LiveGuard`). */
export const RIGHTS_RECHECK_MS = 2_000;
/**
 * How long a process gathers wake-ups before it reads (the delay an update may gain; it saves
 * writes under load): 25 ms, or with many open streams longer, a fifth of a millisecond per stream
 * up to 250 ms: each batch costs a write per stream (a system call each), so 1,000 streams at 14
 * events a second take a few events per write (200 ms) instead of one.
 */
const gatherMs = (streams: number) => Math.min(250, Math.max(25, streams / 5));
/** The most kept events one reconnect replays; more than that is a `reset`. */
const MAX_REPLAY = 500;

export interface LiveEvent {
  id: number;
  topic: string;
  event: string;
  data: Record<string, unknown>;
}

/**
 * Publishes an event inside the writing transaction; it reaches the streams when the transaction
 * commits (and never if it rolls back). Outside a transaction the statement commits on its own.
 * Within a request the topic is announced after the answer (`registerHooks`); elsewhere (the CLI)
 * at the commit.
 */
export async function publishLive(tx: DbOrTx, topic: string, event: string, data: Record<string, unknown>): Promise<void> {
  await tx.insert(liveEvents).values({ topic, event, data });
  await announceLive(tx, topic);
}

/**
 * An event whose data a write's own statement computes (`data`: a SQL expression over `source`, a
 * query in the same statement, e.g. a count after an insert): the insert, for a `WITH` of that
 * statement. The statement then calls `announceLive` once it has run, as `publishLive` does.
 */
export const liveEventInsert = (topic: string | SQL, event: string, data: SQL, source: SQL): SQL =>
  sql`INSERT INTO ${liveEvents} (topic, event, data) SELECT ${topic}, ${event}, ${data} FROM ${source}`;

/** Tells the streams of a topic that an event was stored: after the request's answer, or (outside a request) at the commit. */
export async function announceLive(tx: DbOrTx, topic: string): Promise<void> {
  const request = requestTopics.getStore();
  if (request) request.add(topic);
  else await tx.execute(sql`SELECT pg_notify(${LIVE_CHANNEL}, ${topic})`);
}

/** Publishes several events at once (one insert; e.g. a notification to each of many followers), as `publishLive` does each. */
export async function publishLiveEach(tx: DbOrTx, events: { topic: string; event: string; data: Record<string, unknown> }[]): Promise<void> {
  if (!events.length) return;
  await tx.insert(liveEvents).values(events);
  const topics = new Set(events.map((e) => e.topic));
  const request = requestTopics.getStore();
  if (request) for (const topic of topics) request.add(topic);
  else await tx.execute(sql`SELECT ${sql.join([...topics].map((topic) => sql`pg_notify(${LIVE_CHANNEL}, ${topic})`), sql`, `)}`);
}

/** The topics the current request wrote. */
const requestTopics = new AsyncLocalStorage<Set<string>>();

/** A position as its text (PostgreSQL's `pg_snapshot`: `xmin:xmax:xip,…`); anything else from a client is no position. */
const POSITION = /^\d{1,20}:\d{1,20}:(\d{1,20}(,\d{1,20}){0,199})?$/;

/** What a viewer's stream shows of an event (null: nothing). A guard's re-check answers the same function for the same view. */
export type LiveView = (event: LiveEvent) => LiveEvent | null;
/** The view of a viewer who sees every event as it is. */
export const showAll: LiveView = (event) => event;

/**
 * A stream's right to its topic, checked again whenever the version of its project's pages
 * changes (db/versions.ts: the project's access and draft state, its moderators and participants,
 * its organisation's roles, its modules, the accounts' superuser and active flags all count there):
 * issue 36.2. A stream whose viewer may no longer see the topic ends; one whose viewer may see less
 * gets the new view and a `reset` (its page reads itself again).
 */
export interface LiveGuard {
  projectId: number;
  /** The version of the project's pages the right was checked at (read with the check, or before it). */
  version: string;
  /** The viewer's user id (0: anonymous). */
  viewer: number;
  /** Streams with one key share one re-check (e.g. the streams of one module). */
  key: string;
  /** Each viewer's view now (null or missing: no right any more), for all given viewers at once. */
  recheck: (viewers: number[]) => Promise<Map<number, LiveView | null>>;
}

/** One open stream: where its frames go, and the events held back while it reads what it missed (null: live). */
interface Subscriber {
  raw: ServerResponse;
  view: LiveView;
  held: KeptEvent[] | null;
  guard: LiveGuard | null;
}

/** An event as read from the table, with its writing transaction. */
type KeptEvent = LiveEvent & { xid: string };

interface LiveHubOptions {
  /** Open streams one client address may hold (0: no cap); CONNECTIONS_PER_IP. */
  streamsPerIp: number;
  /** Redis pub/sub between processes (REDIS_URL) instead of PostgreSQL NOTIFY. */
  redis?: { url: string; channel: string } | null;
}

type EventRow = { id: string | number; topic: string; event: string; data: Record<string, unknown>; xid: string };
const eventOf = (row: EventRow): KeptEvent => ({ id: Number(row.id), topic: row.topic, event: row.event, data: row.data, xid: String(row.xid) });
/** The events a position did not see: their transactions were running or to come when it was taken. */
const unseenBy = (position: string, xid: SQL) => sql`${xid} >= pg_snapshot_xmin(${position}::pg_snapshot) AND NOT pg_visible_in_snapshot(${xid}, ${position}::pg_snapshot)`;
/** The events of a query (`e`) as one JSON array, in id order. */
const eventsJson = sql`coalesce(json_agg(json_build_object('id', e.id, 'topic', e.topic, 'event', e.event, 'data', e.data, 'xid', e.xid::text) ORDER BY e.id), '[]'::json)`;

/** A process's listener and its open streams (one per app). */
export class LiveHub {
  private readonly topics = new Map<string, Set<Subscriber>>();
  private readonly perIp = new Map<string, number>();
  /** The snapshot of the last read: every event it saw has been delivered here (null: none read yet). */
  private position: string | null = null;
  private readonly unannounced = new Set<string>();
  /**
   * Reads and delivers what came since the last read. A call while a read is under way is answered
   * by one more read that starts after it (so after the call), shared by every such call.
   */
  private readonly read = oneAtATime(() => this.readBatch());
  /** Announces the unannounced topics to every process, one announcement at a time: what comes meanwhile goes in the next. */
  private readonly announceQueued = oneAtATime(() => this.announceBatch());
  private stopListening: (() => Promise<void>) | null = null;
  private redis: { publisher: Redis; channel: string } | null = null;
  private timers: NodeJS.Timeout[] = [];
  /** The read that wake-ups are gathered for (see `start`). */
  private gathering: NodeJS.Timeout | null = null;
  /** The open streams with a guard (see `LiveGuard`). */
  private readonly guarded = new Set<Subscriber>();
  private readonly recheckQueued = oneAtATime(() => this.recheckRights());

  constructor(
    private readonly database: Pick<Database, 'db' | 'listen'>,
    private readonly options: LiveHubOptions,
  ) {}

  private get db(): Db {
    return this.database.db;
  }

  /** Which transport wakes the other processes: `redis` with REDIS_URL, else `postgres` (NOTIFY). */
  get transport(): 'redis' | 'postgres' {
    return this.options.redis ? 'redis' : 'postgres';
  }

  async start(): Promise<void> {
    // Wake-ups within `gatherMs` make one read: under load a stream gets a few events in one write, not one write each.
    const wake = (topic: string) => {
      if (!this.topics.has(topic) || this.gathering) return;
      this.gathering = setTimeout(() => {
        this.gathering = null;
        void this.read().catch(() => undefined);
      }, gatherMs(this.openStreams));
    };
    const again = () => void this.read().catch(() => undefined); // after a lost connection: what came meanwhile
    if (this.options.redis) this.stopListening = await this.subscribeRedis(this.options.redis, wake, again);
    else this.stopListening = await this.database.listen(LIVE_CHANNEL, wake, again);
    const heartbeat = setInterval(() => void this.heartbeat(), HEARTBEAT_MS);
    const purge = setInterval(() => void this.purge().catch(() => undefined), PURGE_EVERY_MS);
    const rights = setInterval(() => void this.recheckQueued().catch(() => undefined), RIGHTS_RECHECK_MS);
    for (const timer of [heartbeat, purge, rights]) timer.unref();
    this.timers = [heartbeat, purge, rights];
  }

  /** One connection subscribes, another publishes (a subscribed ioredis connection sends nothing else); ioredis reconnects both. */
  private async subscribeRedis({ url, channel }: { url: string; channel: string }, wake: (topic: string) => void, again: () => void): Promise<() => Promise<void>> {
    const { Redis } = await import('ioredis');
    const subscriber = new Redis(url, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 2 });
    const publisher = new Redis(url, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 2 });
    for (const redis of [subscriber, publisher]) redis.on('error', () => undefined); // ioredis retries; 'ready' follows
    try {
      await Promise.all([subscriber.connect(), publisher.connect()]);
      await subscriber.subscribe(channel);
    } catch (error) {
      subscriber.disconnect();
      publisher.disconnect();
      throw new Error(redisUnreachableMessage(url, error), { cause: error });
    }
    subscriber.on('message', (from: string, topic: string) => {
      if (from === channel) wake(topic);
    });
    subscriber.on('ready', again); // ioredis subscribes again after a lost connection
    this.redis = { publisher, channel };
    return async () => {
      this.redis = null;
      await Promise.all([subscriber.quit().catch(() => subscriber.disconnect()), publisher.quit().catch(() => publisher.disconnect())]);
    };
  }

  /** The topics a request writes are collected while it runs and announced once its answer is sent. */
  registerHooks(app: FastifyInstance): void {
    const written = new WeakMap<FastifyRequest, Set<string>>();
    app.addHook('onRequest', (request, _reply, done) => {
      const topics = new Set<string>();
      written.set(request, topics);
      requestTopics.run(topics, done);
    });
    app.addHook('onResponse', async (request) => {
      const topics = written.get(request);
      if (topics?.size) await this.announce(topics).catch((error: unknown) => request.log.warn({ err: error }, 'live events not announced'));
    });
  }

  private announce(topics: Iterable<string>): Promise<void> {
    for (const topic of topics) this.unannounced.add(topic);
    return this.announceQueued();
  }

  private async announceBatch(): Promise<void> {
    const batch = [...this.unannounced];
    this.unannounced.clear();
    const redis = this.redis;
    if (!batch.length) return;
    if (redis) {
      const pipeline = redis.publisher.pipeline();
      for (const topic of batch) pipeline.publish(redis.channel, topic);
      await pipeline.exec();
    } else if (!this.options.redis) {
      await this.db.execute(sql`SELECT ${sql.join(
        batch.map((topic) => sql`pg_notify(${LIVE_CHANNEL}, ${topic})`),
        sql`, `,
      )}`);
    }
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    if (this.gathering) clearTimeout(this.gathering);
    this.gathering = null;
    for (const subscribers of this.topics.values()) for (const s of subscribers) s.raw.end();
    this.topics.clear();
    this.guarded.clear();
    await this.stopListening?.();
    this.stopListening = null;
  }

  /** Open streams in this process (the bench and the tests read it). */
  get openStreams(): number {
    let n = 0;
    for (const subscribers of this.topics.values()) n += subscribers.size;
    return n;
  }

  private async readBatch(): Promise<void> {
    const from = this.position;
    const result = (await this.db.execute(
      from === null
        ? sql`SELECT pg_current_snapshot()::text AS position, '[]'::json AS events`
        : sql`SELECT pg_current_snapshot()::text AS position, (
            SELECT ${eventsJson} FROM ${liveEvents} e
            WHERE ${unseenBy(from, sql`e.xid`)}
          ) AS events`,
    )) as unknown as { rows: { position: string; events: EventRow[] }[] };
    const [row] = result.rows;
    if (!row) return;
    this.position = row.position;
    const byTopic = new Map<string, KeptEvent[]>();
    for (const event of row.events.map(eventOf)) {
      if (!this.topics.has(event.topic)) continue;
      const list = byTopic.get(event.topic);
      if (list) list.push(event);
      else byTopic.set(event.topic, [event]);
    }
    const id = idFrame(row.position);
    for (const [topic, events] of byTopic) {
      for (const subscriber of this.topics.get(topic) ?? []) {
        if (subscriber.held) subscriber.held.push(...events);
        else send(subscriber, events, id);
      }
    }
  }

  /** The kept events of a topic that a position did not see; `gap` when some of them may have been purged already. */
  async replay(topic: string, position: string): Promise<{ events: KeptEvent[]; gap: boolean }> {
    const result = (await this.db.execute(sql`
      SELECT coalesce((SELECT ${livePurged.xid} >= pg_snapshot_xmin(${position}::pg_snapshot) FROM ${livePurged} WHERE ${livePurged.id} = 1), false) AS gap,
        (
          SELECT ${eventsJson} FROM (
            SELECT * FROM ${liveEvents}
            WHERE topic = ${topic} AND ${unseenBy(position, sql`xid`)}
            ORDER BY id LIMIT ${MAX_REPLAY + 1}
          ) e
        ) AS events`)) as unknown as { rows: { gap: boolean; events: EventRow[] }[] };
    const row = result.rows[0] ?? { gap: true, events: [] };
    return { events: row.events.slice(0, MAX_REPLAY).map(eventOf), gap: row.gap || row.events.length > MAX_REPLAY };
  }

  /** Reads what may have come unannounced (a write outside a request with Redis), then tells every live stream the position. */
  private async heartbeat(): Promise<void> {
    if (this.topics.size) await this.read().catch(() => undefined);
    const frame = Buffer.from(`${this.position === null ? '' : `id: ${this.position}\n`}: heartbeat\n\n`);
    for (const subscribers of this.topics.values()) for (const s of subscribers) if (!s.held) s.raw.write(frame);
  }

  /**
   * Re-checks the streams whose project's page version changed since their check: one statement
   * for the versions, then one re-check per guard key for all of its viewers (see `LiveGuard`).
   */
  private async recheckRights(): Promise<void> {
    if (!this.guarded.size) return;
    const projectIds = [...new Set([...this.guarded].map((s) => (s.guard as LiveGuard).projectId))];
    const result = (await this.db.execute(sql`SELECT x.id, ${pageVersionField(sql`x.id`)} AS version FROM (VALUES ${sql.join(
      projectIds.map((id) => sql`(${id}::integer)`),
      sql`, `,
    )}) AS x(id)`)) as unknown as { rows: { id: number; version: string }[] };
    const versions = new Map(result.rows.map((row) => [Number(row.id), String(row.version)]));
    const stale = new Map<string, Subscriber[]>();
    for (const subscriber of this.guarded) {
      const guard = subscriber.guard as LiveGuard;
      if (versions.get(guard.projectId) === guard.version) continue;
      const list = stale.get(guard.key);
      if (list) list.push(subscriber);
      else stale.set(guard.key, [subscriber]);
    }
    for (const subscribers of stale.values()) {
      const [first] = subscribers;
      if (!first?.guard) continue;
      const views = await first.guard.recheck([...new Set(subscribers.map((s) => (s.guard as LiveGuard).viewer))]);
      for (const subscriber of subscribers) {
        const guard = subscriber.guard;
        if (!guard || subscriber.raw.destroyed) continue;
        const view = views.get(guard.viewer) ?? null;
        if (!view) {
          this.guarded.delete(subscriber);
          subscriber.raw.end(`event: reset\ndata: {}\n\n`); // the client reads the page again, which answers what the viewer may see now
          continue;
        }
        guard.version = versions.get(guard.projectId) ?? guard.version;
        if (view !== subscriber.view) {
          subscriber.view = view;
          subscriber.raw.write(`event: reset\ndata: {}\n\n`);
        }
      }
    }
  }

  /** Deletes the events kept longer than KEEP_MS and remembers the newest transaction among them (see `replay`). */
  private async purge(): Promise<void> {
    await this.db.execute(sql`
      WITH gone AS (DELETE FROM ${liveEvents} WHERE created < ${new Date(Date.now() - KEEP_MS)} RETURNING xid)
      INSERT INTO ${livePurged} (id, xid) SELECT 1, max(xid) FROM gone HAVING count(*) > 0
      ON CONFLICT (id) DO UPDATE SET xid = greatest(${livePurged.xid}, excluded.xid)`);
  }

  /**
   * Answers the request with a stream of the topic's events (text/event-stream): first, with a
   * Last-Event-ID (header, or `?lastEventId=` for a page that passes the position it was rendered
   * at), the kept events that position did not see, then every new one. `view` decides per stream
   * what a viewer gets of an event (null: nothing); `guard` checks the viewer's right again when it
   * may have changed (see `LiveGuard`). Over the per-address cap the answer is 429.
   */
  async stream(request: FastifyRequest, reply: FastifyReply, topic: string, view: LiveView = showAll, guard: LiveGuard | null = null): Promise<FastifyReply> {
    const ip = request.ip;
    const open = this.perIp.get(ip) ?? 0;
    if (this.options.streamsPerIp > 0 && open >= this.options.streamsPerIp) {
      return reply.status(429).header('retry-after', '30').send({ detail: 'Too many open live connections from this address.' });
    }
    this.perIp.set(ip, open + 1);
    reply.hijack();
    const raw = reply.raw;
    raw.on('close', () => {
      const left = (this.perIp.get(ip) ?? 1) - 1;
      if (left > 0) this.perIp.set(ip, left);
      else this.perIp.delete(ip);
    });
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    if (this.position === null) await this.read().catch(() => undefined);
    if (this.position === null || raw.destroyed) {
      raw.end(`retry: 2000\n\nevent: reset\ndata: {}\n\n`); // the database is away: the client connects again
      return reply;
    }
    // From here every batch the hub reads reaches this stream: it starts at the hub's position.
    const from = lastEventId(request);
    const subscriber: Subscriber = { raw, view, held: from === null ? null : [], guard };
    let subscribers = this.topics.get(topic);
    if (!subscribers) this.topics.set(topic, (subscribers = new Set()));
    subscribers.add(subscriber);
    if (guard) this.guarded.add(subscriber);
    raw.on('close', () => {
      this.guarded.delete(subscriber);
      const set = this.topics.get(topic);
      set?.delete(subscriber);
      if (set && !set.size) this.topics.delete(topic);
      if (!this.topics.size) this.position = null; // nobody listens: the next stream starts from a fresh read
    });
    raw.write('retry: 2000\n\n'); // the first bytes the client sees: it is subscribed by then
    if (from === null) {
      send(subscriber, [], idFrame(this.position));
      return reply;
    }
    // The kept events the client's position did not see; then a read that starts after it, so the
    // hub's position covers the replay's and what came meanwhile is held. What both brought goes once.
    const { events: missed, gap } = await this.replay(topic, from).catch(() => ({ events: [] as KeptEvent[], gap: true })); // gap: not a position this database knows
    await this.read().catch(() => undefined);
    const held = subscriber.held ?? [];
    subscriber.held = null;
    if (gap) raw.write(`event: reset\ndata: {}\n\n`);
    const replayed = new Set(missed.map((e) => e.id));
    const seen = gap ? () => false : (e: KeptEvent) => replayed.has(e.id) || visibleIn(from, e.xid);
    send(subscriber, [...(gap ? [] : missed), ...held.filter((e) => !seen(e))], idFrame(this.position ?? from));
    return reply;
  }
}

/** Whether a transaction's effects are in a snapshot (`pg_visible_in_snapshot` for a committed one), from the snapshot's text. */
function visibleIn(position: string, xid: string): boolean {
  const [xmin, xmax, running] = position.split(':');
  const x = BigInt(xid);
  if (x < BigInt(xmin)) return true;
  if (x >= BigInt(xmax)) return false;
  return !(running ? running.split(',') : []).some((r) => BigInt(r) === x);
}

/**
 * Runs a task one at a time: a call while it runs gets one run that starts after the running one
 * ends (so after the call), shared by every call made before it starts.
 */
function oneAtATime(task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  const start = (): Promise<void> => {
    queued = null;
    const run: Promise<void> = task().finally(() => {
      if (running === run) running = null;
    });
    running = run;
    return run;
  };
  return () => {
    if (queued) return queued;
    if (!running) return start();
    queued = running.catch(() => undefined).then(start);
    return queued;
  };
}

/** Writes events to a stream, the last with the position it reaches (an event the viewer may not see leaves only the position). */
function send(subscriber: Subscriber, events: KeptEvent[], id: Buffer): void {
  const shown = events.map(subscriber.view);
  // Most viewers see the events as they are: their bytes are put together once for all of them.
  const unchanged = shown.every((event, i) => event === events[i]);
  subscriber.raw.write(unchanged ? batchFrame(events, id) : framesOf(shown, id));
}

/** Frames of events with the id on the last one (nothing but the id when there are none, or the last is not shown). */
function framesOf(events: (LiveEvent | null)[], id: Buffer): Buffer {
  const last = events.at(-1);
  const parts = events.slice(0, -1).flatMap((event) => (event ? [frameOf(event)] : []));
  parts.push(id, last ? frameOf(last) : Buffer.from(last === null ? ': skipped\n\n' : '\n'));
  return Buffer.concat(parts);
}

const batchFrames = new WeakMap<KeptEvent[], { id: Buffer; frame: Buffer }>();
function batchFrame(events: KeptEvent[], id: Buffer): Buffer {
  const kept = batchFrames.get(events);
  if (kept?.id === id) return kept.frame;
  const frame = framesOf(events, id);
  batchFrames.set(events, { id, frame });
  return frame;
}

/** The `id:` line of a position, encoded once per batch. */
const idFrames = new Map<string, Buffer>();
function idFrame(position: string): Buffer {
  let frame = idFrames.get(position);
  if (!frame) {
    if (idFrames.size > 100) idFrames.clear();
    idFrames.set(position, (frame = Buffer.from(`id: ${position}\n`)));
  }
  return frame;
}

/**
 * An event as the stream sends it, encoded once however many streams send it (a view that shows an
 * event unchanged, or memoises its variant, shares the bytes): with 1,000 open streams this is most
 * of the work per event (docs/performance.md, "Live channel").
 */
const frames = new WeakMap<LiveEvent, Buffer>();
function frameOf(event: LiveEvent): Buffer {
  let frame = frames.get(event);
  if (!frame) frames.set(event, (frame = Buffer.from(`event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`)));
  return frame;
}

/**
 * Where the live channel stands, as a select field: the snapshot of the statement that reads it. A
 * page passes it to its stream, which then sends every event that statement did not see; read in the
 * statement that reads what the page shows (the event page's version and likes), no event between the
 * two is missed.
 */
export const livePositionField = sql<string>`pg_current_snapshot()::text`;

/** Where the live channel stands now: a page rendered now passes it to its stream, which then sends what comes after. */
export async function livePosition(db: Db): Promise<string> {
  const result = (await db.execute(sql`SELECT ${livePositionField} AS position`)) as unknown as { rows: { position: string }[] };
  return result.rows[0]?.position ?? '';
}

/** The Last-Event-ID a client sent (EventSource's header, or the query of a page), or null. */
function lastEventId(request: FastifyRequest): string | null {
  const query = request.query as Record<string, unknown> | undefined;
  const value = request.headers['last-event-id'] ?? (typeof query?.lastEventId === 'string' ? query.lastEventId : undefined);
  return typeof value === 'string' && POSITION.test(value) ? value : null;
}
