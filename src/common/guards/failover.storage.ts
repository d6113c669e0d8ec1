import type { OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { FixedWindowThrottlerStorage } from './fixed-window.storage.js';
import type { RedisLink } from './redis-link.js';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * The throttler storage with REDIS_URL: Redis (@nest-lab/throttler-storage-redis, shared by every
 * instance) while it answers, this instance's fixed windows (the same semantics) while it does not
 * (RedisLink decides, at once: no request waits for an unreachable Redis). Counts made in memory
 * during an outage stay there: the Redis windows go on from where they were when it is back.
 */
export class FailoverThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly viaRedis: ThrottlerStorageRedisService;
  private readonly inMemory = new FixedWindowThrottlerStorage();

  constructor(private readonly link: RedisLink) {
    this.viaRedis = new ThrottlerStorageRedisService(link.redis);
  }

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    return this.link.run(
      () => this.viaRedis.increment(key, ttl, limit, blockDuration, throttlerName),
      () => this.inMemory.incrementNow(key, ttl, limit, blockDuration, throttlerName),
    );
  }

  onApplicationShutdown(): void {
    this.inMemory.onApplicationShutdown();
  }
}
