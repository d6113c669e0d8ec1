import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Redis } from 'ioredis';
import { AppConfig } from '../../config/app-config.js';
import type { ServiceRequest } from '../http/request-context.js';
import { bucketOf, isPublicRoute } from './rate-limit.guard.js';
import { FixedWindowThrottlerStorage } from './fixed-window.storage.js';
import { FailureCounter, MemoryFailureCounter, RedisFailureCounter } from './failure-counter.js';

const REDIS_CLIENT = Symbol('RATE_LIMIT_REDIS');
const MINUTE_MS = 60_000;

/**
 * The Redis client of the limits (when REDIS_URL is set) and the failure counter of the token
 * endpoints and the bearer guard. Global: the auth guard (root module) and the token service (auth
 * module) share one counter.
 */
@Global()
@Module({
  providers: [
    {
      provide: FailureCounter,
      inject: [REDIS_CLIENT],
      useFactory: (redis: Redis | null): FailureCounter =>
        redis ? new RedisFailureCounter(redis) : new MemoryFailureCounter(),
    },
    {
      provide: REDIS_CLIENT,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        config.REDIS_URL
          ? new Redis(config.REDIS_URL, {
              maxRetriesPerRequest: 2,
              enableOfflineQueue: true,
              connectTimeout: 2000,
            })
          : null,
    },
  ],
  exports: [REDIS_CLIENT, FailureCounter],
})
export class RateLimitStorageModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS_CLIENT) private readonly redis: Redis | null) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.quit().catch(() => this.redis?.disconnect());
  }
}

@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfig, REDIS_CLIENT],
      useFactory: (config: AppConfig, redis: Redis | null) => {
        const reflector = new Reflector();
        return {
          throttlers: [
            {
              name: 'default',
              ttl: MINUTE_MS,
              limit: config.RATE_LIMIT_PER_MINUTE,
              skipIf: (ctx) => isPublicRoute(ctx, reflector),
            },
            {
              name: 'market',
              ttl: MINUTE_MS,
              limit: config.MARKET_RATE_LIMIT_PER_MINUTE,
              skipIf: (ctx) => bucketOf(ctx, reflector) !== 'market',
            },
          ],
          // The token endpoints (public) count failed verifications instead (CredentialAttempts).
          getTracker: (req) => {
            const request = req as ServiceRequest;
            return request.user ? `client:${request.user.clientId}` : `ip:${request.ip}`;
          },
          // One counter per client across all routes: every request counts toward one quota.
          generateKey: (_context, tracker, throttlerName) =>
            `${config.RATE_LIMIT_PREFIX}:${throttlerName}:${tracker}`,
          // Both storages count in fixed windows, so one instance limits exactly as a Redis-backed pair.
          storage: redis ? new ThrottlerStorageRedisService(redis) : new FixedWindowThrottlerStorage(),
        };
      },
      imports: [RateLimitStorageModule],
    }),
  ],
})
export class RateLimitModule {}
