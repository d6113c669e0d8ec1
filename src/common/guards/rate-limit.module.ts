import { Global, Module } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { Redis } from 'ioredis';
import { AppConfig } from '../../config/app-config.js';
import type { ServiceRequest } from '../http/request-context.js';
import { bucketOf, isPublicRoute } from './rate-limit.guard.js';
import { FixedWindowThrottlerStorage } from './fixed-window.storage.js';
import { FailureCounter, MemoryFailureCounter, RedisFailureCounter } from './failure-counter.js';
import { FailoverThrottlerStorage } from './failover.storage.js';
import { RedisLink } from './redis-link.js';

const MINUTE_MS = 60_000;

/** While Redis is unreachable, it is asked again this often. */
const REDIS_PROBE_INTERVAL_MS = 1_000;

/**
 * The Redis link of the limits (when REDIS_URL is set; null otherwise) and the failure counter of
 * the token endpoints and the bearer guard. Global: the auth guard (root module) and the token
 * service (auth module) share one counter; readiness and the metrics read the link's state.
 *
 * The client never makes a request wait for Redis (design §12): no offline queue (a command while
 * disconnected fails at once and is counted in memory), no resending after a reconnection, every
 * command bounded by REDIS_TIMEOUT_MS. It reconnects on its own, at most every 2 s.
 */
@Global()
@Module({
  providers: [
    {
      provide: RedisLink,
      inject: [AppConfig],
      useFactory: (config: AppConfig): RedisLink | null =>
        config.REDIS_URL
          ? new RedisLink(
              new Redis(config.REDIS_URL, {
                enableOfflineQueue: false,
                maxRetriesPerRequest: 0,
                commandTimeout: config.REDIS_TIMEOUT_MS,
                connectTimeout: 2000,
                retryStrategy: (times) => Math.min(times * 100, 2000),
              }),
              {
                commandTimeoutMs: config.REDIS_TIMEOUT_MS,
                startWaitMs: 1000,
                probeIntervalMs: REDIS_PROBE_INTERVAL_MS,
              },
            )
          : null,
    },
    {
      provide: FailureCounter,
      inject: [RedisLink],
      useFactory: (link: RedisLink | null): FailureCounter =>
        link ? new RedisFailureCounter(link) : new MemoryFailureCounter(),
    },
  ],
  exports: [RedisLink, FailureCounter],
})
export class RateLimitStorageModule {}

@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfig, RedisLink],
      useFactory: (config: AppConfig, link: RedisLink | null) => {
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
          // Both storages count in fixed windows, so one instance limits exactly as a Redis-backed
          // pair; with Redis, its outages are counted in memory (FailoverThrottlerStorage).
          storage: link ? new FailoverThrottlerStorage(link) : new FixedWindowThrottlerStorage(),
        };
      },
      imports: [RateLimitStorageModule],
    }),
  ],
})
export class RateLimitModule {}
