import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { throttled } from './errors.js';
import type { ProcessMemory } from './process-memory.js';

/**
 * Failed-login throttling, per client IP and per account (the login name as typed, lower-cased):
 * at most `loginFailureLimit` failures within `loginFailureWindowSeconds`, counted from the first
 * failure of the window. Counters live in Redis when REDIS_URL is set (shared by every server
 * instance; in this process's memory while Redis is away), in this process's memory otherwise.
 * The API logins, the browser login and the user/session service use this.
 */
interface FailureStore {
  /** Milliseconds until every key is below the limit again; 0 when none is at it. */
  waitMs(keys: string[], limit: number): Promise<number>;
  record(keys: string[], windowMs: number): Promise<void>;
  clear(keys: string[]): Promise<void>;
  close(): Promise<void>;
  /** Drops what this process counts in its memory (http/process-memory.ts); Redis's counters are every instance's. */
  forget(): void;
}

class MemoryStore implements FailureStore {
  private readonly counters = new Map<string, { count: number; resetAt: number }>();

  private live(key: string, now: number) {
    const counter = this.counters.get(key);
    if (counter && counter.resetAt <= now) {
      this.counters.delete(key);
      return undefined;
    }
    return counter;
  }

  async waitMs(keys: string[], limit: number): Promise<number> {
    const now = Date.now();
    let wait = 0;
    for (const key of keys) {
      const counter = this.live(key, now);
      if (counter && counter.count >= limit) wait = Math.max(wait, counter.resetAt - now);
    }
    return wait;
  }

  async record(keys: string[], windowMs: number): Promise<void> {
    const now = Date.now();
    if (this.counters.size > 50_000) this.prune(now);
    for (const key of keys) {
      const counter = this.live(key, now);
      if (counter) counter.count += 1;
      else this.counters.set(key, { count: 1, resetAt: now + windowMs });
    }
  }

  async clear(keys: string[]): Promise<void> {
    for (const key of keys) this.counters.delete(key);
  }

  private prune(now: number) {
    for (const [key, counter] of this.counters) if (counter.resetAt <= now) this.counters.delete(key);
  }

  async close(): Promise<void> {
    this.forget();
  }

  forget(): void {
    this.counters.clear();
  }
}

/** INCR, and start the window's expiry with the first failure, atomically. */
const INCREMENT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;
/** The keys' part after the installation's REDIS_PREFIX. */
const KEY_PART = 'login-failures:';
/** A login must never wait seconds for a throttle: Redis answers within this or counts as away. */
const REDIS_TIMEOUT_MS = 500;

class RedisStore implements FailureStore {
  private readonly prefix: string;
  constructor(
    readonly redis: Redis,
    installation: string,
  ) {
    this.prefix = installation + KEY_PART;
  }

  async waitMs(keys: string[], limit: number): Promise<number> {
    const pipeline = this.redis.pipeline();
    for (const key of keys) pipeline.get(this.prefix + key).pttl(this.prefix + key);
    const results = (await pipeline.exec()) ?? [];
    let wait = 0;
    for (let i = 0; i < keys.length; i++) {
      const [countError, count] = results[2 * i] ?? [];
      const [ttlError, ttl] = results[2 * i + 1] ?? [];
      if (countError || ttlError) throw countError ?? ttlError;
      if (Number(count) >= limit) wait = Math.max(wait, Number(ttl) > 0 ? Number(ttl) : 1000);
    }
    return wait;
  }

  async record(keys: string[], windowMs: number): Promise<void> {
    await Promise.all(keys.map((key) => this.redis.eval(INCREMENT, 1, this.prefix + key, String(windowMs))));
  }

  async clear(keys: string[]): Promise<void> {
    await this.redis.del(...keys.map((key) => this.prefix + key));
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
  forget(): void {
    // Redis's counters are every instance's, not this process's: nothing to drop here.
  }
}

/** Where the throttle reports that it lost or regained Redis. */
interface ThrottleLog {
  warn(message: string): void;
  info(message: string): void;
}

/**
 * Redis while it answers, this process's memory while it does not: an outage neither locks
 * everybody out nor switches throttling off, and never makes a login wait for a timeout more than
 * once. Commands fail at once while disconnected (no offline queue); ioredis keeps reconnecting in
 * the background and the store goes back to Redis when it is ready again.
 */
class FailoverStore implements FailureStore {
  private readonly memory = new MemoryStore();
  private usingRedis = true;

  constructor(
    private readonly redis: RedisStore,
    private readonly log: ThrottleLog,
  ) {
    redis.redis.on('ready', () => {
      if (this.usingRedis) return;
      this.usingRedis = true;
      log.info('Redis is reachable again: login throttling is shared by all instances again');
    });
    redis.redis.on('close', () => this.fallBack('connection closed'));
  }

  private fallBack(reason: string) {
    if (!this.usingRedis) return;
    this.usingRedis = false;
    this.log.warn(`Redis unavailable (${reason}): login throttling falls back to this process's memory until it is back`);
  }

  private async run<T>(action: (store: FailureStore) => Promise<T>): Promise<T> {
    if (this.usingRedis) {
      try {
        return await action(this.redis);
      } catch (error) {
        this.fallBack(error instanceof Error ? error.message : String(error));
      }
    }
    return action(this.memory);
  }

  waitMs(keys: string[], limit: number) {
    return this.run((store) => store.waitMs(keys, limit));
  }

  record(keys: string[], windowMs: number) {
    return this.run((store) => store.record(keys, windowMs));
  }

  clear(keys: string[]) {
    return this.run((store) => store.clear(keys));
  }

  async close(): Promise<void> {
    await this.redis.close();
    await this.memory.close();
  }

  forget(): void {
    this.memory.forget();
  }
}

class RedisUnreachable extends Error {}

/** Connects to REDIS_URL with short timeouts; throws RedisUnreachable when it does not answer a PING. */
async function connectRedis(url: string): Promise<Redis> {
  // Loaded only with REDIS_URL: a server without Redis keeps the client out of its memory.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: REDIS_TIMEOUT_MS * 2,
    commandTimeout: REDIS_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  redis.on('error', () => undefined); // the store notices failed commands and 'close'
  try {
    await redis.connect();
    await redis.ping();
    return redis;
  } catch (error) {
    redis.disconnect();
    throw new RedisUnreachable(redisUnreachableMessage(url, error));
  }
}

/** Why the start stops when Redis does not answer, its password hidden: `REDIS_URL redis://:***@host:6379/0 cannot be reached: …`. */
export function redisUnreachableMessage(url: string, error: unknown): string {
  const shown = new URL(url);
  shown.password = shown.password ? '***' : '';
  return `REDIS_URL ${shown.href} cannot be reached: ${error instanceof Error ? error.message : String(error)}`;
}

export interface ThrottleContext {
  config: Pick<Config, 'redisUrl' | 'redisPrefix' | 'loginFailureLimit' | 'loginFailureWindowSeconds'>;
  /** The app's memory: a store kept in this process is forgotten with it. */
  memory?: ProcessMemory;
}

const stores = new WeakMap<ThrottleContext, FailureStore>();

/**
 * Opens the app's throttle store, once at start: with REDIS_URL, Redis must answer now (a wrong
 * URL is a start error, not a silent loss of throttling); later outages fall back to memory.
 */
export async function openLoginThrottle(ctx: ThrottleContext, log: ThrottleLog): Promise<void> {
  if (stores.has(ctx)) return;
  const store = ctx.config.redisUrl ? new FailoverStore(new RedisStore(await connectRedis(ctx.config.redisUrl), ctx.config.redisPrefix), log) : new MemoryStore();
  if (stores.has(ctx)) return void (await store.close());
  stores.set(ctx, store);
  ctx.memory?.keep(store);
}

function storeOf(ctx: ThrottleContext): FailureStore {
  let store = stores.get(ctx);
  if (!store) {
    if (ctx.config.redisUrl) throw new Error('login throttle with REDIS_URL used before openLoginThrottle');
    store = new MemoryStore();
    stores.set(ctx, store);
    ctx.memory?.keep(store);
  }
  return store;
}

const accountKey = (account: string) => `account:${account.trim().toLowerCase()}`;
const keysOf = (ip: string, account: string) => [`ip:${ip}`, accountKey(account)];

/** Seconds the client must wait before the next login attempt for this IP and account; 0 = go ahead. */
export async function loginThrottleWait(ctx: ThrottleContext, ip: string, account: string): Promise<number> {
  const ms = await storeOf(ctx).waitMs(keysOf(ip, account), ctx.config.loginFailureLimit);
  return Math.ceil(ms / 1000);
}

/** Throws 429 (with Retry-After) when the IP or the account has used up its failed logins. */
export async function checkLoginThrottle(ctx: ThrottleContext, ip: string, account: string): Promise<void> {
  const wait = await loginThrottleWait(ctx, ip, account);
  if (wait > 0) throw throttled(wait);
}

/** Counts one failed login against the IP and the account. */
export async function recordLoginFailure(ctx: ThrottleContext, ip: string, account: string): Promise<void> {
  await storeOf(ctx).record(keysOf(ip, account), ctx.config.loginFailureWindowSeconds * 1000);
}

/** After a successful login the account's failures are forgotten (the IP's are not). */
export async function clearLoginFailures(ctx: ThrottleContext, account: string): Promise<void> {
  await storeOf(ctx).clear([accountKey(account)]);
}

/** Releases the store (the Redis connection); called when the app closes. */
export async function closeLoginThrottle(ctx: ThrottleContext): Promise<void> {
  const store = stores.get(ctx);
  stores.delete(ctx);
  await store?.close();
}

/**
 * Counts `uses` uses (one by default) of a rate-limited action (e.g. a data export, invitation
 * mails) under `key` in the same store as the login throttle (shared through Redis); throws 429
 * (with Retry-After) when they would take the window's count over `limit`.
 */
export async function takeRateLimited(ctx: ThrottleContext, key: string, limit: number, windowSeconds: number, uses = 1): Promise<void> {
  const store = storeOf(ctx);
  const wait = uses > limit ? windowSeconds * 1000 : await store.waitMs([key], limit - uses + 1);
  if (wait > 0) throw throttled(Math.ceil(wait / 1000));
  await store.record(Array<string>(uses).fill(key), windowSeconds * 1000);
}
