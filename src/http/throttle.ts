import { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { throttled } from './errors.js';

/**
 * Failed-login throttling, per client IP and per account (the login name as typed, lower-cased):
 * at most `loginFailureLimit` failures within `loginFailureWindowSeconds`, counted from the first
 * failure of the window. Counters live in Redis when REDIS_URL is set (shared by every server
 * instance), in this process's memory otherwise. The API logins and the browser login use this.
 */
interface FailureStore {
  /** Milliseconds until every key is below the limit again; 0 when none is at it. */
  waitMs(keys: string[], limit: number): Promise<number>;
  record(keys: string[], windowMs: number): Promise<void>;
  clear(keys: string[]): Promise<void>;
  close(): Promise<void>;
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
    this.counters.clear();
  }
}

/** INCR, and start the window's expiry with the first failure, atomically. */
const INCREMENT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;
const REDIS_PREFIX = 'allmende:login-failures:';

class RedisStore implements FailureStore {
  private readonly redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000, commandTimeout: 2000, lazyConnect: true });
    this.redis.on('error', () => undefined); // a failing command reports it; see failOpen
  }

  async waitMs(keys: string[], limit: number): Promise<number> {
    const pipeline = this.redis.pipeline();
    for (const key of keys) pipeline.get(REDIS_PREFIX + key).pttl(REDIS_PREFIX + key);
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
    await Promise.all(keys.map((key) => this.redis.eval(INCREMENT, 1, REDIS_PREFIX + key, String(windowMs))));
  }

  async clear(keys: string[]): Promise<void> {
    await this.redis.del(...keys.map((key) => REDIS_PREFIX + key));
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

export interface ThrottleContext {
  config: Pick<Config, 'redisUrl' | 'loginFailureLimit' | 'loginFailureWindowSeconds'>;
}

const stores = new WeakMap<ThrottleContext, FailureStore>();

function storeOf(ctx: ThrottleContext): FailureStore {
  let store = stores.get(ctx);
  if (!store) {
    store = ctx.config.redisUrl ? new RedisStore(ctx.config.redisUrl) : new MemoryStore();
    stores.set(ctx, store);
  }
  return store;
}

let lastWarning = 0;

/** A Redis outage must not lock everybody out: throttling is skipped (warning once a minute) until it is back. */
async function failOpen<T>(action: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (Date.now() - lastWarning > 60_000) {
      lastWarning = Date.now();
      process.emitWarning(`login throttle unavailable, logins are not throttled: ${error instanceof Error ? error.message : String(error)}`);
    }
    return fallback;
  }
}

const accountKey = (account: string) => `account:${account.trim().toLowerCase()}`;
const keysOf = (ip: string, account: string) => [`ip:${ip}`, accountKey(account)];

/** Seconds the client must wait before the next login attempt for this IP and account; 0 = go ahead. */
export async function loginThrottleWait(ctx: ThrottleContext, ip: string, account: string): Promise<number> {
  const ms = await failOpen(() => storeOf(ctx).waitMs(keysOf(ip, account), ctx.config.loginFailureLimit), 0);
  return Math.ceil(ms / 1000);
}

/** Throws 429 (with Retry-After) when the IP or the account has used up its failed logins. */
export async function checkLoginThrottle(ctx: ThrottleContext, ip: string, account: string): Promise<void> {
  const wait = await loginThrottleWait(ctx, ip, account);
  if (wait > 0) throw throttled(wait);
}

/** Counts one failed login against the IP and the account. */
export async function recordLoginFailure(ctx: ThrottleContext, ip: string, account: string): Promise<void> {
  await failOpen(() => storeOf(ctx).record(keysOf(ip, account), ctx.config.loginFailureWindowSeconds * 1000), undefined);
}

/** After a successful login the account's failures are forgotten (the IP's are not). */
export async function clearLoginFailures(ctx: ThrottleContext, account: string): Promise<void> {
  await failOpen(() => storeOf(ctx).clear([accountKey(account)]), undefined);
}

/** Releases the store (the Redis connection); called when the app closes. */
export async function closeLoginThrottle(ctx: ThrottleContext): Promise<void> {
  const store = stores.get(ctx);
  stores.delete(ctx);
  await store?.close();
}
