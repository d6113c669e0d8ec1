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
