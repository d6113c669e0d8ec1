import {
  MemoryFailureCounter,
  RedisFailureCounter,
  type FailureCounter,
} from '../src/common/guards/failure-counter.js';
import { FixedWindowThrottlerStorage } from '../src/common/guards/fixed-window.storage.js';

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
  it('answers as the memory counter does, and fails open when Redis is unreachable', async () => {
    const { Redis } = await import('ioredis');
    const redis = new Redis(process.env.REDIS_URL!);
    const memory = new MemoryFailureCounter();
    const key = `failure-counter-spec:${process.pid}:${Date.now()}`;
    try {
      const counters: FailureCounter[] = [new RedisFailureCounter(redis), memory];
      for (let i = 0; i < 4; i++) {
        const answers = await Promise.all(counters.map((c) => c.blockedFor(key, 3)));
        expect(answers[0]).toBe(answers[1]);
        await Promise.all(counters.map((c) => c.recordFailure(key, WINDOW_MS)));
      }
      expect(await counters[0]!.blockedFor(key, 3)).toBe(60);
    } finally {
      await redis.del(key);
      redis.disconnect();
      memory.onApplicationShutdown();
    }
    const unreachable = new Redis('redis://127.0.0.1:1', {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      lazyConnect: true,
    });
    const failingOpen = new RedisFailureCounter(unreachable);
    expect(await failingOpen.blockedFor(key, 1)).toBe(0);
    await expect(failingOpen.recordFailure(key, WINDOW_MS)).resolves.toEqual({
      failures: 0,
      resetSeconds: 0,
    });
    unreachable.disconnect();
  });
});
