import { and, asc, eq, gt, lt, min, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import type { Database, Db, DbOrTx } from '../db/client.js';
import { liveEvents } from '../db/schema/index.js';
import { redisUnreachableMessage } from './throttle.js';

/**
 * The live channel: pages that update themselves. A write publishes an event on a topic inside its
 * transaction (`publishLive`): the event is kept in `live_events` and announced with PostgreSQL's
 * NOTIFY, which the database sends when the transaction commits, in commit order, to every process
 * that listens (every worker of every instance on the same PostgreSQL; PGlite does the same in its
 * one process). Each process has one `LiveHub` that listens once and fans the events out to its
 * open Server-Sent-Events streams. A client that reconnects with Last-Event-ID gets the kept events
 * after that id; one that was away longer than events are kept gets a `reset` event (read the
 * whole state again). docs/api.md ("Live channel") describes the streams.
 *
 * With REDIS_URL the processes tell each other through Redis pub/sub instead (one transport per
 * process, never both): a request's events are kept without NOTIFY, and once its answer is sent (its
 * transactions are over) the hub reads which of them were committed and publishes them on
 * `LIVE_REDIS_CHANNEL`. Publishes of different processes may arrive out of commit order, so each
 * carries `prev`, the topic's event before it: a hub that has not delivered exactly that one reads
 * what it misses from `live_events` first (ids of a topic follow its commit order). A write outside a
 * request (the CLI) is not published: the next event of the topic brings it along.
 * docs/operations.md ("Live updates") describes the setup.
 */

export const LIVE_CHANNEL = 'allmende_live';
/** The Redis pub/sub channel with REDIS_URL (a deployment that shares its Redis with another picks its own). */
export const LIVE_REDIS_CHANNEL = 'allmende:live';
/** How long events are kept for reconnecting clients. */
const KEEP_MS = 60 * 60 * 1000;
const PURGE_EVERY_MS = 10 * 60 * 1000;
/** A comment line this often keeps proxies and the server's idle timeout from closing a quiet stream. */
export const HEARTBEAT_MS = 15_000;
/** NOTIFY payloads must stay under 8000 bytes; a larger event is announced by its id and read from the table. */
const MAX_PAYLOAD = 7500;
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
 * commits (and never if it rolls back). The per-topic transaction lock makes a topic's ids follow
 * the commit order, so "everything after Last-Event-ID" misses nothing (outside a transaction each
 * statement commits on its own: the event goes out at once).
 */
export async function publishLive(tx: DbOrTx, topic: string, event: string, data: Record<string, unknown>): Promise<void> {
  const request = requestEvents.getStore();
  if (request) {
    // Redis transport: kept now, published by the hub after the request (see above).
    const result = (await tx.execute(sql`
      INSERT INTO ${liveEvents} (topic, event, data)
      SELECT ${topic}, ${event}, ${JSON.stringify(data)}::jsonb FROM (SELECT pg_advisory_xact_lock(815200402, hashtext(${topic}))) AS locked
      RETURNING id`)) as unknown as { rows: { id: string | number }[] };
    for (const row of result.rows) request.push(Number(row.id));
    return;
  }
  // One statement, so the lock is held from here to the commit only: the row (and its id from the
  // sequence) is made after the lock is taken, since it is selected from the lock's own row.
  await tx.execute(sql`
    WITH e AS (
      INSERT INTO ${liveEvents} (topic, event, data)
      SELECT ${topic}, ${event}, ${JSON.stringify(data)}::jsonb FROM (SELECT pg_advisory_xact_lock(815200402, hashtext(${topic}))) AS locked
      RETURNING id, topic, event, data
    ),
    p AS (SELECT e.id, e.topic, json_build_object('id', e.id, 'topic', e.topic, 'event', e.event, 'data', e.data)::text AS full FROM e)
    SELECT pg_notify(${LIVE_CHANNEL}, CASE WHEN octet_length(p.full) <= ${MAX_PAYLOAD} THEN p.full ELSE json_build_object('id', p.id, 'topic', p.topic)::text END) FROM p`);
}

/** The ids of the live events the current request wrote (Redis transport only). */
const requestEvents = new AsyncLocalStorage<number[]>();

/** One open stream: where its events go, and the id it started after (null while it is being read). */
interface Subscriber {
  send: (event: LiveEvent) => void;
  raw: ServerResponse;
  start: number | null;
}

export interface LiveHubOptions {
  /** Open streams one client address may hold (0: no cap); CONNECTIONS_PER_IP. */
  streamsPerIp: number;
  /** Redis pub/sub between processes (REDIS_URL) instead of PostgreSQL NOTIFY. */
  redis?: { url: string; channel: string } | null;
}

/** A Redis message: an event with the id of its topic's event before it (null: none kept). */
type Published = LiveEvent & { prev: number | null };

const parseEvent = (payload: string): (Partial<LiveEvent> & { id: number; topic: string }) | null => {
  try {
    const value = JSON.parse(payload) as Partial<LiveEvent>;
    return typeof value.id === 'number' && typeof value.topic === 'string' ? (value as LiveEvent) : null;
  } catch {
    return null;
  }
};

/** A process's listener and its open streams (one per app). */
export class LiveHub {
  private readonly topics = new Map<string, Set<Subscriber>>();
  /** The last event id each topic delivered here: a repeated or older one is not sent twice. */
  private readonly delivered = new Map<string, number>();
  private readonly perIp = new Map<string, number>();
  private stopListening: (() => Promise<void>) | null = null;
  private redis: { publisher: Redis; channel: string } | null = null;
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly database: Pick<Database, 'db' | 'listen'>,
    private readonly options: LiveHubOptions,
  ) {}

  private get db(): Db {
    return this.database.db;
  }

  /** Which transport carries events between processes: `redis` with REDIS_URL, else `postgres` (NOTIFY). */
  get transport(): 'redis' | 'postgres' {
    return this.options.redis ? 'redis' : 'postgres';
  }

  async start(): Promise<void> {
    if (this.options.redis) this.stopListening = await this.subscribeRedis(this.options.redis);
    else this.stopListening = await this.database.listen(LIVE_CHANNEL, (payload) => void this.received(payload), () => void this.catchUp());
    const heartbeat = setInterval(() => this.heartbeat(), HEARTBEAT_MS);
    const purge = setInterval(() => void this.purge().catch(() => undefined), PURGE_EVERY_MS);
    heartbeat.unref();
    purge.unref();
    this.timers = [heartbeat, purge];
  }

  /** One connection subscribes, another publishes (a subscribed ioredis connection sends nothing else); ioredis reconnects both. */
  private async subscribeRedis({ url, channel }: { url: string; channel: string }): Promise<() => Promise<void>> {
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
    subscriber.on('message', (from: string, payload: string) => {
      if (from === channel) void this.receivedPublished(payload).catch(() => undefined);
    });
    // Back after a lost connection (ioredis subscribes again): what was published meanwhile is read from the table.
    subscriber.on('ready', () => void this.catchUp());
    this.redis = { publisher, channel };
    return async () => {
      this.redis = null;
      await Promise.all([subscriber.quit().catch(() => subscriber.disconnect()), publisher.quit().catch(() => publisher.disconnect())]);
    };
  }

  /**
   * With Redis: the events a request writes are collected while it runs and published once its
   * answer is sent (its transactions have committed or rolled back by then).
   */
  registerHooks(app: FastifyInstance): void {
    if (!this.options.redis) return;
    const written = new WeakMap<FastifyRequest, number[]>();
    app.addHook('onRequest', (request, _reply, done) => {
      const ids: number[] = [];
      written.set(request, ids);
      requestEvents.run(ids, done);
    });
    app.addHook('onResponse', async (request) => {
      const ids = written.get(request);
      if (ids?.length) await this.publishCommitted(ids).catch((error: unknown) => request.log.warn({ err: error }, 'live events not published to Redis'));
    });
  }

  /** Publishes those of the events that were committed, each with its topic's previous event id. */
  private async publishCommitted(ids: number[]): Promise<void> {
    const redis = this.redis;
    if (!redis) return;
    const result = (await this.db.execute(sql`
      SELECT e.id, e.topic, e.event, e.data,
        (SELECT max(p.id) FROM ${liveEvents} p WHERE p.topic = e.topic AND p.id < e.id) AS prev
      FROM ${liveEvents} e WHERE e.id IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}) ORDER BY e.id`)) as unknown as { rows: { id: string | number; topic: string; event: string; data: Record<string, unknown>; prev: string | number | null }[] };
    if (!result.rows.length) return;
    const pipeline = redis.publisher.pipeline();
    for (const row of result.rows) {
      const message: Published = { id: Number(row.id), topic: row.topic, event: row.event, data: row.data, prev: row.prev === null ? null : Number(row.prev) };
      pipeline.publish(redis.channel, JSON.stringify(message));
    }
    await pipeline.exec();
  }

  /**
   * A Redis message: delivered at once when this process delivered its topic's previous event,
   * otherwise the topic is read from the table after what was delivered (which brings it along).
   */
  private async receivedPublished(payload: string): Promise<void> {
    const parsed = parseEvent(payload) as Published | null;
    if (!parsed || !this.topics.has(parsed.topic)) return;
    const last = this.delivered.get(parsed.topic);
    if (last !== undefined && parsed.id <= last) return;
    if (last !== undefined && parsed.prev === last && parsed.event !== undefined && parsed.data !== undefined) this.deliver(parsed);
    else await this.pull(parsed.topic);
  }

  /** Delivers a topic's kept events after what this process delivered (or, at first, after the earliest start of its streams). */
  private async pull(topic: string): Promise<void> {
    let after = this.delivered.get(topic);
    if (after === undefined) {
      const starts = [...(this.topics.get(topic) ?? [])].map((s) => s.start).filter((start): start is number => start !== null);
      if (!starts.length) return; // a stream still reading its start pulls when it has it
      after = Math.min(...starts);
    }
    await this.catchUpTopic(topic, after);
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    for (const subscribers of this.topics.values()) for (const s of subscribers) s.raw.end();
    this.topics.clear();
    await this.stopListening?.();
    this.stopListening = null;
  }

  /** Open streams in this process (the bench and the tests read it). */
  get openStreams(): number {
    let n = 0;
    for (const subscribers of this.topics.values()) n += subscribers.size;
    return n;
  }

  private async received(payload: string): Promise<void> {
    const parsed = parseEvent(payload);
    if (!parsed || !this.topics.has(parsed.topic)) return;
    if (parsed.event !== undefined && parsed.data !== undefined) this.deliver(parsed as LiveEvent);
    else await this.catchUpTopic(parsed.topic, parsed.id - 1);
  }

  private deliver(event: LiveEvent): void {
    const subscribers = this.topics.get(event.topic);
    const last = this.delivered.get(event.topic) ?? 0;
    if (!subscribers || event.id <= last) return;
    this.delivered.set(event.topic, event.id);
    for (const subscriber of subscribers) subscriber.send(event);
  }

  /** After a lost listening connection: what each open topic missed, from the table. */
  private async catchUp(): Promise<void> {
    for (const topic of this.topics.keys()) {
      if (this.options.redis) await this.pull(topic).catch(() => undefined);
      else await this.catchUpTopic(topic, this.delivered.get(topic) ?? 0).catch(() => undefined);
    }
  }

  private async catchUpTopic(topic: string, after: number): Promise<void> {
    for (const event of (await this.replay(topic, after)).events) this.deliver(event);
  }

  /** The kept events of a topic after an id; `gap` when some may have been purged already. */
  async replay(topic: string, after: number): Promise<{ events: LiveEvent[]; gap: boolean }> {
    const [oldest] = await this.db.select({ id: min(liveEvents.id) }).from(liveEvents);
    const rows = await this.db
      .select({ id: liveEvents.id, topic: liveEvents.topic, event: liveEvents.event, data: liveEvents.data })
      .from(liveEvents)
      .where(and(eq(liveEvents.topic, topic), gt(liveEvents.id, after)))
      .orderBy(asc(liveEvents.id))
      .limit(MAX_REPLAY + 1);
    const oldestKept = oldest?.id === null || oldest?.id === undefined ? null : Number(oldest.id);
    // Ids are shared by all topics: before the oldest kept event, this topic's may have been purged.
    const gap = rows.length > MAX_REPLAY || (after > 0 && (oldestKept === null || after < oldestKept - 1));
    return { events: rows.slice(0, MAX_REPLAY).map((r) => ({ ...r, id: Number(r.id) })), gap };
  }

  private heartbeat(): void {
    for (const subscribers of this.topics.values()) for (const s of subscribers) s.raw.write(': heartbeat\n\n');
  }

  private async purge(): Promise<void> {
    await this.db.delete(liveEvents).where(lt(liveEvents.created, new Date(Date.now() - KEEP_MS)));
  }

  /**
   * Answers the request with a stream of the topic's events (text/event-stream): first, with a
   * Last-Event-ID (header, or `?lastEventId=` for a page that reloads), the kept events after it,
   * then every new one. `view` decides per stream what a viewer gets of an event (null: nothing).
   * Over the per-address cap the answer is 429.
   */
  async stream(request: FastifyRequest, reply: FastifyReply, topic: string, view: (event: LiveEvent) => LiveEvent | null = (e) => e): Promise<FastifyReply> {
    const ip = request.ip;
    const open = this.perIp.get(ip) ?? 0;
    if (this.options.streamsPerIp > 0 && open >= this.options.streamsPerIp) {
      return reply.status(429).header('retry-after', '30').send({ detail: 'Too many open live connections from this address.' });
    }
    this.perIp.set(ip, open + 1);
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    raw.write('retry: 2000\n\n');
    let sent = 0;
    let buffered: LiveEvent[] | null = [];
    const write = (event: LiveEvent) => {
      if (event.id <= sent) return;
      sent = event.id;
      const shown = view(event);
      raw.write(shown ? frameOf(shown) : `id: ${event.id}\n: skipped\n\n`);
    };
    const last = lastEventId(request);
    const subscriber: Subscriber = { raw, start: last ?? null, send: (event) => (buffered ? buffered.push(event) : write(event)) };
    let subscribers = this.topics.get(topic);
    if (!subscribers) this.topics.set(topic, (subscribers = new Set()));
    subscribers.add(subscriber);
    raw.on('close', () => {
      const set = this.topics.get(topic);
      set?.delete(subscriber);
      if (set && !set.size) {
        this.topics.delete(topic);
        // With Redis a topic's position is kept only while it has streams: a later stream starts from the table.
        if (this.options.redis) this.delivered.delete(topic);
      }
      const left = (this.perIp.get(ip) ?? 1) - 1;
      if (left > 0) this.perIp.set(ip, left);
      else this.perIp.delete(ip);
    });
    try {
      if (last !== null) {
        const { events, gap } = await this.replay(topic, last);
        if (gap) {
          raw.write(`event: reset\ndata: {}\n\n`);
          // With Redis the stream goes on from where the topic stands now, not from its old position.
          if (this.options.redis) {
            subscriber.start = null;
            sent = subscriber.start = await lastLiveEventId(this.db, topic);
          }
        } else for (const event of events) write(event);
      } else {
        // A stream without a position starts after what this process delivered so far (pages pass the position they were rendered at).
        // With Redis, a process that delivered nothing of the topic yet reads where it stands.
        sent = this.delivered.get(topic) ?? (this.options.redis ? await lastLiveEventId(this.db, topic) : 0);
        subscriber.start = sent;
      }
      if (this.options.redis && !this.delivered.has(topic)) await this.pull(topic);
    } catch {
      raw.write(`event: reset\ndata: {}\n\n`);
      if (subscriber.start === null) {
        raw.end(); // no position to go on from: the client connects again
        return reply;
      }
    }
    const waiting = buffered;
    buffered = null;
    for (const event of waiting) write(event);
    return reply;
  }
}

/**
 * An event as the stream sends it, encoded once however many streams send it (a view that shows an
 * event unchanged, or memoises its variant, shares the bytes): with 1,000 open streams this is most
 * of the work per event (docs/performance.md, "Live channel").
 */
const frames = new WeakMap<LiveEvent, Buffer>();
function frameOf(event: LiveEvent): Buffer {
  let frame = frames.get(event);
  if (!frame) frames.set(event, (frame = Buffer.from(`id: ${event.id}\nevent: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`)));
  return frame;
}

/** The newest event id of a topic (0: none): a page rendered now passes it to its stream, which then starts right after. */
export async function lastLiveEventId(db: Db, topic: string): Promise<number> {
  const [row] = await db.select({ id: sql<number | null>`max(${liveEvents.id})`.mapWith(Number) }).from(liveEvents).where(eq(liveEvents.topic, topic));
  return row?.id ?? 0;
}

/** The Last-Event-ID a client sent (EventSource's header, or the query of a page reload), or null. */
function lastEventId(request: FastifyRequest): number | null {
  const query = request.query as Record<string, unknown> | undefined;
  const value = request.headers['last-event-id'] ?? (typeof query?.lastEventId === 'string' ? query.lastEventId : undefined);
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}
