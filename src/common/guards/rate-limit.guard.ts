import { Injectable, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerRequest } from '@nestjs/throttler';
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

  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, throttler, blockDuration, getTracker, generateKey } = request;
    const http = context.switchToHttp();
    const req = http.getRequest<ServiceRequest>();
    const res = http.getResponse<Response>();
    const tracker = await getTracker(req, context);
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

export function bucketOf(
  context: ExecutionContext,
  reflector: { getAllAndOverride<T>(key: string, targets: unknown[]): T | undefined },
) {
  return reflector.getAllAndOverride<RateLimitBucket>(RATE_LIMIT_BUCKET, [
    context.getHandler(),
    context.getClass(),
  ]);
}

export function isPublicRoute(
  context: ExecutionContext,
  reflector: { getAllAndOverride<T>(key: string, targets: unknown[]): T | undefined },
) {
  return reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]) === true;
}
