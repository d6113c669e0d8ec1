import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Redis } from 'ioredis';
import { AppConfig } from '../../config/app-config.js';
import type { ServiceRequest } from '../http/request-context.js';
import { bucketOf, isPublicRoute } from './rate-limit.guard.js';
import { FixedWindowThrottlerStorage } from './fixed-window.storage.js';

const REDIS_CLIENT = Symbol('RATE_LIMIT_REDIS');
const MINUTE_MS = 60_000;

/** The client id a token request names, for the IP + clientId key of the token endpoints. */
function credentialClientId(req: ServiceRequest): string {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const fromBody = body.clientId ?? body.client_id;
  if (typeof fromBody === 'string') return fromBody.slice(0, 128);
  const header = req.headers.clientid;
  if (typeof header === 'string') return header.slice(0, 128);
  const auth = req.headers.authorization;
  if (auth?.toLowerCase().startsWith('basic ')) {
    return Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':')[0]!.slice(0, 128);
  }
  return '-';
}

@Module({
  providers: [
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
  exports: [REDIS_CLIENT],
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
            {
              name: 'token',
              ttl: MINUTE_MS,
              limit: config.TOKEN_RATE_LIMIT_PER_MINUTE,
              skipIf: (ctx) => bucketOf(ctx, reflector) !== 'token',
            },
          ],
          getTracker: (req) => {
            const request = req as ServiceRequest;
            return request.user
              ? `client:${request.user.clientId}`
              : `ip:${request.ip}|client:${credentialClientId(request)}`;
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
