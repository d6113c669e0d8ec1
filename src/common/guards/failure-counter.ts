import type { OnApplicationShutdown } from '@nestjs/common';
import type { RedisLink } from './redis-link.js';

/**
 * Counts failures (wrong client secrets, missing or invalid bearer tokens) per key in fixed
 * windows, and says whether a key is over its limit. Unlike the throttler it counts only what the
 * caller reports, after the fact, and can be asked without counting: a correct secret or a valid
 * token never uses up a limit, and is refused only when its own address has failed too often.
 *
 * In memory, or in Redis when REDIS_URL is set so the limits hold across instances. While Redis is
 * unreachable they are counted in this instance's memory (RedisLink: at once, no request waits
 * for Redis, one warning for the outage): these limits slow guessing down, they must neither take
 * authentication down with them nor stop counting.
 */
export abstract class FailureCounter {
  /** Failures of `key` in its current window, and the whole seconds until that window ends (0, 0 without one). */
  abstract usage(key: string): Promise<FailureWindow>;

  /** One more failure for `key`; its window (of `windowMs`) starts with its first failure. Answers the new usage. */
  abstract recordFailure(key: string, windowMs: number): Promise<FailureWindow>;

  /** Seconds until `key` may be tried again, or 0 when it has fewer than `limit` failures in its window. */
  async blockedFor(key: string, limit: number): Promise<number> {
    const window = await this.usage(key);
    return window.failures >= limit ? window.resetSeconds : 0;
  }
}

export interface FailureWindow {
  readonly failures: number;
  readonly resetSeconds: number;
}

const NO_WINDOW: FailureWindow = { failures: 0, resetSeconds: 0 };

interface Window {
  failures: number;
  endsAt: number;
}

const SWEEP_INTERVAL_MS = 60_000;

export class MemoryFailureCounter extends FailureCounter implements OnApplicationShutdown {
  private readonly windows = new Map<string, Window>();
  private sweeper?: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    super();
  }

  usage(key: string): Promise<FailureWindow> {
    const window = this.windows.get(key);
    const now = this.now();
    if (!window || window.endsAt <= now) return Promise.resolve(NO_WINDOW);
    return Promise.resolve({
      failures: window.failures,
      resetSeconds: Math.ceil((window.endsAt - now) / 1000),
    });
  }

  recordFailure(key: string, windowMs: number): Promise<FailureWindow> {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { failures: 1, endsAt: now + windowMs };
      this.windows.set(key, window);
    } else window.failures += 1;
    this.ensureSweeper();
    return Promise.resolve({
      failures: window.failures,
      resetSeconds: Math.ceil((window.endsAt - now) / 1000),
    });
  }

  onApplicationShutdown(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    this.windows.clear();
  }

  private ensureSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      const now = this.now();
      for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
    }, SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }
}

/** INCR, and the window's expiry on the first failure: one round trip, atomic. Answers {failures, ms left}. */
const RECORD = `
local failures = redis.call('INCR', KEYS[1])
if failures == 1 or redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {failures, redis.call('PTTL', KEYS[1])}`;

/** {failures, ms left in the window}, or {0, 0} without a window. */
const USAGE = `
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then return {0, 0} end
return {tonumber(redis.call('GET', KEYS[1]) or '0'), ttl}`;

export class RedisFailureCounter extends FailureCounter implements OnApplicationShutdown {
  constructor(
    private readonly link: RedisLink,
    private readonly inMemory: MemoryFailureCounter = new MemoryFailureCounter(),
  ) {
    super();
  }

  usage(key: string): Promise<FailureWindow> {
    return this.link.run(
      async (redis) => windowOf(await redis.eval(USAGE, 1, key)),
      () => this.inMemory.usage(key),
    );
  }

  recordFailure(key: string, windowMs: number): Promise<FailureWindow> {
    return this.link.run(
      async (redis) => windowOf(await redis.eval(RECORD, 1, key, String(windowMs))),
      () => this.inMemory.recordFailure(key, windowMs),
    );
  }

  onApplicationShutdown(): void {
    this.inMemory.onApplicationShutdown();
  }
}

function windowOf(reply: unknown): FailureWindow {
  const [failures, ms] = (reply as [number, number]).map(Number);
  return ms > 0 ? { failures, resetSeconds: Math.ceil(ms / 1000) } : NO_WINDOW;
}
