import { and, asc, eq, gt, lt, min, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { Database, Db, DbOrTx } from '../db/client.js';
import { liveEvents } from '../db/schema/index.js';

/**
 * The live channel: pages that update themselves. A write publishes an event on a topic inside its
 * transaction (`publishLive`): the event is kept in `live_events` and announced with PostgreSQL's
 * NOTIFY, which the database sends when the transaction commits, in commit order, to every process
 * that listens (every worker of every instance on the same PostgreSQL; PGlite does the same in its
 * one process). Each process has one `LiveHub` that listens once and fans the events out to its
 * open Server-Sent-Events streams. A client that reconnects with Last-Event-ID gets the kept events
 * after that id; one that was away longer than events are kept gets a `reset` event (read the
 * whole state again). docs/api.md ("Live channel") describes the streams.
 */

export const LIVE_CHANNEL = 'allmende_live';
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

/** One open stream: where its events go. */
interface Subscriber {
  send: (event: LiveEvent) => void;
  raw: ServerResponse;
}

export interface LiveHubOptions {
  /** Open streams one client address may hold (0: no cap); CONNECTIONS_PER_IP. */
  streamsPerIp: number;
}

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
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly database: Pick<Database, 'db' | 'listen'>,
    private readonly options: LiveHubOptions,
  ) {}

  private get db(): Db {
    return this.database.db;
  }

  async start(): Promise<void> {
    this.stopListening = await this.database.listen(LIVE_CHANNEL, (payload) => void this.received(payload), () => void this.catchUp());
    const heartbeat = setInterval(() => this.heartbeat(), HEARTBEAT_MS);
    const purge = setInterval(() => void this.purge().catch(() => undefined), PURGE_EVERY_MS);
    heartbeat.unref();
    purge.unref();
    this.timers = [heartbeat, purge];
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
    const last = this.delivered.get(event.topic) ?? 0;
    if (event.id <= last) return;
    this.delivered.set(event.topic, event.id);
    for (const subscriber of this.topics.get(event.topic) ?? []) subscriber.send(event);
  }

  /** After a lost listening connection: what each open topic missed, from the table. */
  private async catchUp(): Promise<void> {
    for (const topic of this.topics.keys()) await this.catchUpTopic(topic, this.delivered.get(topic) ?? 0).catch(() => undefined);
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
    const subscriber: Subscriber = { raw, send: (event) => (buffered ? buffered.push(event) : write(event)) };
    let subscribers = this.topics.get(topic);
    if (!subscribers) this.topics.set(topic, (subscribers = new Set()));
    subscribers.add(subscriber);
    raw.on('close', () => {
      const set = this.topics.get(topic);
      set?.delete(subscriber);
      if (set && !set.size) this.topics.delete(topic);
      const left = (this.perIp.get(ip) ?? 1) - 1;
      if (left > 0) this.perIp.set(ip, left);
      else this.perIp.delete(ip);
    });
    const last = lastEventId(request);
    try {
      if (last !== null) {
        const { events, gap } = await this.replay(topic, last);
        if (gap) raw.write(`event: reset\ndata: {}\n\n`);
        else for (const event of events) write(event);
      } else {
        // A stream without a position starts after what this process delivered so far (pages pass the position they were rendered at).
        sent = this.delivered.get(topic) ?? 0;
      }
    } catch {
      raw.write(`event: reset\ndata: {}\n\n`);
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
