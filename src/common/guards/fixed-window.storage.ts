import type { OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';

interface ThrottlerStorageRecord {
  totalHits: number;
  timeToExpire: number;
  isBlocked: boolean;
  timeToBlockExpire: number;
}

interface Window {
  hits: number;
  expiresAt: number;
  blockedUntil: number;
}

const SWEEP_INTERVAL_MS = 60_000;

/**
 * In-process rate-limit counters with exactly the semantics of the Redis storage
 * (@nest-lab/throttler-storage-redis, whose Lua script this follows step by step): a fixed window
 * per key that starts with its first hit and lasts `ttl`, counting every hit (blocked ones too);
 * a hit that finds the count above `limit` while no block is in force starts a block of
 * `blockDuration`. A client that keeps calling through its block is blocked again when it ends.
 *
 * It replaces @nestjs/throttler's default memory storage, which keeps one timestamp per hit and
 * filters that list on every request: O(limit) time and memory per client, so a generous limit
 * made every request slower, and a single instance behaved differently from a Redis-backed pair.
 * Here each request is O(1) and each key holds three numbers; idle keys are swept once a minute.
 */
export class FixedWindowThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly windows = new Map<string, Window>();
  private sweeper?: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {}

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    return Promise.resolve(this.incrementNow(key, ttl, limit, blockDuration, throttlerName));
  }

  /** increment(), answered synchronously: this storage needs no I/O (RateLimitGuard's synchronous path). */
  incrementNow(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): ThrottlerStorageRecord {
    return this.hit(`${key}:${throttlerName}`, ttl, limit, blockDuration);
  }

  /** The synchronous core of increment(): one Map lookup and a few comparisons, as the Lua script does. */
  hit(id: string, ttl: number, limit: number, blockDuration: number): ThrottlerStorageRecord {
    this.ensureSweeper();
    const now = this.now();
    let window = this.windows.get(id);
    if (!window) {
      window = { hits: 0, expiresAt: now + ttl, blockedUntil: 0 };
      this.windows.set(id, window);
    } else if (window.expiresAt <= now) {
      window.hits = 0; // INCR on an expired key starts again at 1, with a fresh expiry
      window.expiresAt = now + ttl;
    }
    window.hits += 1;
    let isBlocked = window.blockedUntil > now;
    if (!isBlocked && window.hits > limit) {
      window.blockedUntil = now + blockDuration;
      isBlocked = true;
    }
    return {
      totalHits: window.hits,
      timeToExpire: Math.ceil((window.expiresAt - now) / 1000),
      isBlocked,
      timeToBlockExpire: isBlocked ? Math.ceil((window.blockedUntil - now) / 1000) : 0,
    };
  }

  /** Keys currently held (tests check that idle ones go). */
  get size(): number {
    return this.windows.size;
  }

  sweep(now = this.now()): void {
    for (const [id, window] of this.windows) {
      if (window.expiresAt <= now && window.blockedUntil <= now) this.windows.delete(id);
    }
  }

  onApplicationShutdown(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    this.windows.clear();
  }

  private ensureSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }
}
