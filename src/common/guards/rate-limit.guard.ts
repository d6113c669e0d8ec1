import { Injectable, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerRequest } from '@nestjs/throttler';
import {
  THROTTLER_BLOCK_DURATION,
  THROTTLER_KEY_GENERATOR,
  THROTTLER_LIMIT,
  THROTTLER_SKIP,
  THROTTLER_TRACKER,
  THROTTLER_TTL,
} from '@nestjs/throttler/dist/throttler.constants.js';
import { routeMetadata } from './route-metadata.js';
import type { Response } from 'express';
import { IS_PUBLIC } from '../decorators/auth.decorators.js';
import type { ServiceRequest } from '../http/request-context.js';

export const RATE_LIMIT_BUCKET = 'rate-limit:bucket';
export type RateLimitBucket = 'token' | 'market';

/** Marks a route for an extra limit: `token` (IP + clientId) or `market` (market data). */
export const RateLimitBucket = (bucket: RateLimitBucket) => SetMetadata(RATE_LIMIT_BUCKET, bucket);

export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/** The caller's counter after this request; read by /api/status for rateLimitRemaining. */
export function rateLimitStateOf(response: Response): RateLimitState | undefined {
  return (response.locals as { rateLimit?: RateLimitState }).rateLimit;
}

/**
 * @nestjs/throttler, keyed by client id (not by route, so every request of a client counts toward
 * one quota) with IETF `RateLimit-*` headers. Counters live in the throttler storage: memory, or
 * Redis when REDIS_URL is set so N instances share them.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override headerPrefix = 'RateLimit';

  /**
   * ThrottlerGuard.canActivate, with the same decisions, but reading each route's decorator
   * metadata once (not six reflect-metadata walks per throttler per request) and awaiting only
   * what is asynchronous: it runs on every request.
   */
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    for (const throttler of this.throttlers) {
      const name = throttler.name ?? 'default';
      const route = <T>(key: string) => routeMetadata<T>(this.reflector, context, key + name);
      const skipIf = throttler.skipIf ?? this.commonOptions.skipIf;
      if (route<boolean>(THROTTLER_SKIP) || skipIf?.(context)) continue;
      const ttlValue = resolved(context, route(THROTTLER_TTL) ?? throttler.ttl, 'ttl', name);
      const ttl = typeof ttlValue === 'number' ? ttlValue : await ttlValue;
      const limitValue = resolved(context, route(THROTTLER_LIMIT) ?? throttler.limit, 'limit', name);
      const blockValue = resolved(
        context,
        route(THROTTLER_BLOCK_DURATION) ?? throttler.blockDuration ?? ttl,
        'blockDuration',
        name,
      );
      await this.handleRequest({
        context,
        throttler,
        ttl,
        limit: typeof limitValue === 'number' ? limitValue : await limitValue,
        blockDuration: typeof blockValue === 'number' ? blockValue : await blockValue,
        getTracker: route(THROTTLER_TRACKER) ?? throttler.getTracker ?? this.commonOptions.getTracker!,
        generateKey:
          route(THROTTLER_KEY_GENERATOR) ?? throttler.generateKey ?? this.commonOptions.generateKey!,
      });
    }
    return true;
  }

  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, throttler, blockDuration, getTracker, generateKey } = request;
    const http = context.switchToHttp();
    const req = http.getRequest<ServiceRequest>();
    const res = http.getResponse<Response>();
    const pending = getTracker(req, context);
    const tracker = typeof pending === 'string' ? pending : await pending;
    const key = generateKey(context, tracker, throttler.name ?? 'default');
    const { totalHits, timeToExpire, isBlocked, timeToBlockExpire } = await this.storageService.increment(
      key,
      ttl,
      limit,
      blockDuration,
      throttler.name ?? 'default',
    );
    const suffix = throttler.name === 'default' ? '' : `-${throttler.name}`;
    const remaining = Math.max(0, limit - totalHits);
    res.setHeader(`RateLimit-Limit${suffix}`, limit);
    res.setHeader(`RateLimit-Remaining${suffix}`, remaining);
    res.setHeader(`RateLimit-Reset${suffix}`, isBlocked ? timeToBlockExpire : timeToExpire);
    if (throttler.name === 'default') {
      (res.locals as { rateLimit?: RateLimitState }).rateLimit = {
        limit,
        remaining,
        resetSeconds: timeToExpire,
      };
    }
    if (isBlocked) {
      res.setHeader('Retry-After', timeToBlockExpire);
      await this.throwThrottlingException(context, {
        limit,
        ttl,
        key,
        tracker,
        totalHits,
        timeToExpire,
        isBlocked,
        timeToBlockExpire,
      });
    }
    return true;
  }
}

type Resolvable = number | string | ((context: ExecutionContext) => number | Promise<number>);

/** A throttler option as a number; functions are called (and awaited) as ThrottlerGuard does. */
function resolved(
  context: ExecutionContext,
  value: unknown,
  option: string,
  name: string,
): number | Promise<number> {
  const raw = typeof value === 'function' ? (value as Exclude<Resolvable, number | string>)(context) : value;
  if (raw instanceof Promise) return raw.then((v) => resolved(context, v, option, name));
  const number = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof number !== 'number' || Number.isNaN(number)) {
    throw new Error(
      `Invalid "${option}" for the "${name}" throttler: expected a number, got ${JSON.stringify(raw)}.`,
    );
  }
  return number;
}

export function bucketOf(
  context: ExecutionContext,
  reflector: { getAllAndOverride<T>(key: string, targets: unknown[]): T | undefined },
) {
  return routeMetadata<RateLimitBucket>(reflector, context, RATE_LIMIT_BUCKET);
}

export function isPublicRoute(
  context: ExecutionContext,
  reflector: { getAllAndOverride<T>(key: string, targets: unknown[]): T | undefined },
) {
  return routeMetadata<boolean>(reflector, context, IS_PUBLIC) === true;
}
