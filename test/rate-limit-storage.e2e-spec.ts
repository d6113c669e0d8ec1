import {
  MemoryFailureCounter,
  RedisFailureCounter,
  type FailureCounter,
} from '../src/common/guards/failure-counter.js';
import { FixedWindowThrottlerStorage } from '../src/common/guards/fixed-window.storage.js';
import { RedisLink } from '../src/common/guards/redis-link.js';

const TTL = 60_000;

const describeWithRedis = process.env.REDIS_URL ? describe : describe.skip;

describeWithRedis('FixedWindowThrottlerStorage against the Redis storage', () => {
  it('answers a burst over the limit exactly as @nest-lab/throttler-storage-redis does', async () => {
    const { Redis } = await import('ioredis');
    const { ThrottlerStorageRedisService } = await import('@nest-lab/throttler-storage-redis');
    const redis = new Redis(process.env.REDIS_URL!);
    try {
      const viaRedis = new ThrottlerStorageRedisService(redis);
      const inMemory = new FixedWindowThrottlerStorage();
      const key = `fixed-window-spec:${process.pid}:${Date.now()}`;
      for (let i = 0; i < 8; i++) {
        const [a, b] = await Promise.all([
          viaRedis.increment(key, TTL, 5, TTL, 'default'),
          inMemory.increment(key, TTL, 5, TTL, 'default'),
        ]);
        expect(b).toEqual(a);
      }
      inMemory.onApplicationShutdown();
    } finally {
      redis.disconnect();
    }
  });
});

const WINDOW_MS = 60_000;

describeWithRedis('RedisFailureCounter', () => {
  it('answers as the memory counter does, and counts in memory when Redis is unreachable', async () => {
    const { Redis } = await import('ioredis');
    const options = { commandTimeoutMs: 250, startWaitMs: 1000, probeIntervalMs: 1000 };
    const link = new RedisLink(new Redis(process.env.REDIS_URL!, { enableOfflineQueue: false }), options);
    await link.onModuleInit();
    const memory = new MemoryFailureCounter();
    const key = `failure-counter-spec:${process.pid}:${Date.now()}`;
    try {
      const counters: FailureCounter[] = [new RedisFailureCounter(link), memory];
      for (let i = 0; i < 4; i++) {
        const answers = await Promise.all(counters.map((c) => c.blockedFor(key, 3)));
        expect(answers[0]).toBe(answers[1]);
        await Promise.all(counters.map((c) => c.recordFailure(key, WINDOW_MS)));
      }
      expect(await counters[0]!.blockedFor(key, 3)).toBe(60);
      expect(link.fallbacks).toBe(0);
    } finally {
      await link.redis.del(key);
      await link.onApplicationShutdown();
      memory.onApplicationShutdown();
    }
    const unreachable = new RedisLink(
      new Redis('redis://127.0.0.1:1', {
        maxRetriesPerRequest: 0,
        enableOfflineQueue: false,
        lazyConnect: true,
      }),
      options,
    );
    const inMemory = new RedisFailureCounter(unreachable);
    expect(await inMemory.blockedFor(key, 1)).toBe(0);
    await expect(inMemory.recordFailure(key, WINDOW_MS)).resolves.toEqual({ failures: 1, resetSeconds: 60 });
    expect(await inMemory.blockedFor(key, 1)).toBe(60);
    expect(unreachable.fallbacks).toBe(3);
    inMemory.onApplicationShutdown();
    await unreachable.onApplicationShutdown();
  });
});
