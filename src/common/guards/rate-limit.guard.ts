import {
  applyDecorators,
  Injectable,
  SetMetadata,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerException,
  type ThrottlerGenerateKeyFunction,
  type ThrottlerGetTrackerFunction,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import { THROTTLER_METADATA as KEYS } from './throttler-metadata.js';
import { PerRoute, routeMetadata } from './route-metadata.js';
import { FixedWindowThrottlerStorage } from './fixed-window.storage.js';
import type { Response } from 'express';
import { IS_PUBLIC } from '../decorators/auth.decorators.js';

export const RATE_LIMIT_BUCKET = 'rate-limit:bucket';
export type RateLimitBucket = 'market';

/** Marks a route for an extra limit: `market` (market data). */
export const RateLimitBucket = (bucket: RateLimitBucket) =>
  applyDecorators(
    SetMetadata(RATE_LIMIT_BUCKET, bucket),
    ApiTooManyRequestsResponse({
      description: `Rate limit of the ${bucket} bucket exceeded; see Retry-After.`,
    }),
  );

export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/** The caller's counter after this request; read by /api/status for rateLimitRemaining. */
export function rateLimitStateOf(response: Response): RateLimitState | undefined {
  return (response.locals as { rateLimit?: RateLimitState }).rateLimit;
}

/** One throttler as it applies to one route: decorator overrides read once. */
interface RouteThrottler {
  name: string;
  /** `@SkipThrottle({ name: true })` on the route. */
  skipped: boolean;
  skipIf?: (context: ExecutionContext) => boolean;
  ttl: Resolvable;
  limit: Resolvable;
  blockDuration?: Resolvable;
  getTracker: ThrottlerGetTrackerFunction;
  generateKey: ThrottlerGenerateKeyFunction;
}

/** What one request counts against one throttler. */
interface Hit {
  ttl: number;
  limit: number;
  blockDuration: number;
  tracker: string;
  key: string;
}

/**
 * The rate limit, on @nestjs/throttler's module options, storage and decorators (`@Throttle`,
 * `@SkipThrottle`), keyed by client id (not by route, so every request of a client counts toward
 * one quota), with IETF `RateLimit-*` headers. Counters live in the throttler storage: memory, or
 * Redis when REDIS_URL is set so N instances share them.
 *
 * It makes ThrottlerGuard's decisions (route skips, `skipIf`, decorator overrides, counting, headers,
 * 429), throttler by throttler in the configured order, but it runs on every request, so:
 * each route's decorator overrides are read once, not six reflect-metadata walks per throttler per
 * request; and with the in-memory storage, whose answer needs no I/O, a request is counted
 * synchronously and the guard returns a plain boolean (Nest then awaits nothing for it).
 * Redis, or a throttler option given as an async function, takes the awaited path.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly throttlers: ThrottlerOptions[];
  private readonly inMemory?: FixedWindowThrottlerStorage;
  private readonly routes = new PerRoute<RouteThrottler[]>();

  constructor(
    @InjectThrottlerOptions() private readonly options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    private readonly reflector: Reflector,
  ) {
    this.throttlers = (Array.isArray(options) ? options : options.throttlers).map((throttler) => ({
      ...throttler,
      name: throttler.name ?? 'default',
    }));
    if (storage instanceof FixedWindowThrottlerStorage) this.inMemory = storage;
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    return this.countFrom(
      context,
      this.routes.get(context, () => this.routeThrottlers(context)),
      0,
    );
  }

  /** Counts the request against each applicable throttler from `index` on; throws 429 when one is exhausted. */
  private countFrom(
    context: ExecutionContext,
    route: RouteThrottler[],
    index: number,
  ): boolean | Promise<boolean> {
    for (let i = index; i < route.length; i++) {
      const throttler = route[i]!;
      if (throttler.skipped || throttler.skipIf?.(context)) continue;
      const hit = this.hitOf(context, throttler);
      if (hit instanceof Promise || !this.inMemory) {
        return Promise.resolve(hit).then(async (settled) => {
          const record = await this.storage.increment(
            settled.key,
            settled.ttl,
            settled.limit,
            settled.blockDuration,
            throttler.name,
          );
          this.answer(context, throttler, settled, record);
          return this.countFrom(context, route, i + 1);
        });
      }
      this.answer(
        context,
        throttler,
        hit,
        this.inMemory.incrementNow(hit.key, hit.ttl, hit.limit, hit.blockDuration, throttler.name),
      );
    }
    return true;
  }

  /** The route's throttlers with its decorator overrides (handler first, then controller). */
  private routeThrottlers(context: ExecutionContext): RouteThrottler[] {
    const common: Pick<ThrottlerOptions, 'skipIf' | 'getTracker' | 'generateKey'> = Array.isArray(
      this.options,
    )
      ? {}
      : this.options;
    const targets = [context.getHandler(), context.getClass()];
    return this.throttlers.map((throttler) => {
      const name = throttler.name!;
      const read = <T>(key: string) => this.reflector.getAllAndOverride<T>(key + name, targets);
      const getTracker =
        read<ThrottlerGetTrackerFunction>(KEYS.tracker) ?? throttler.getTracker ?? common.getTracker;
      const generateKey =
        read<ThrottlerGenerateKeyFunction>(KEYS.keyGenerator) ?? throttler.generateKey ?? common.generateKey;
      if (!getTracker || !generateKey) {
        throw new Error(
          `The "${name}" throttler needs getTracker and generateKey (this service keys limits by client).`,
        );
      }
      return {
        name,
        skipped: read<boolean>(KEYS.skip) === true,
        skipIf: throttler.skipIf ?? common.skipIf,
        ttl: read<Resolvable>(KEYS.ttl) ?? throttler.ttl,
        limit: read<Resolvable>(KEYS.limit) ?? throttler.limit,
        blockDuration: read<Resolvable>(KEYS.blockDuration) ?? throttler.blockDuration,
        getTracker,
        generateKey,
      };
    });
  }

  /** ttl, limit, block duration and key for this request; a promise only if an option is async. */
  private hitOf(context: ExecutionContext, throttler: RouteThrottler): Hit | Promise<Hit> {
    const ttl = resolved(context, throttler.ttl, 'ttl', throttler.name);
    const limit = resolved(context, throttler.limit, 'limit', throttler.name);
    const block =
      throttler.blockDuration === undefined
        ? ttl
        : resolved(context, throttler.blockDuration, 'blockDuration', throttler.name);
    const tracker = throttler.getTracker(context.switchToHttp().getRequest(), context);
    const build = (t: number, l: number, b: number, tr: string): Hit => ({
      ttl: t,
      limit: l,
      blockDuration: b,
      tracker: tr,
      key: throttler.generateKey(context, tr, throttler.name),
    });
    if (
      typeof ttl === 'number' &&
      typeof limit === 'number' &&
      typeof block === 'number' &&
      typeof tracker === 'string'
    ) {
      return build(ttl, limit, block, tracker);
    }
    return Promise.all([ttl, limit, block, tracker]).then(([t, l, b, tr]) => build(t, l, b, tr));
  }

  /** Headers for the caller; 429 (with Retry-After) when the throttler is exhausted. */
  private answer(
    context: ExecutionContext,
    throttler: RouteThrottler,
    hit: Hit,
    record: ThrottlerStorageRecord,
  ): void {
    const res = context.switchToHttp().getResponse<Response>();
    const { totalHits, timeToExpire, isBlocked, timeToBlockExpire } = record;
    const suffix = throttler.name === 'default' ? '' : `-${throttler.name}`;
    const remaining = Math.max(0, hit.limit - totalHits);
    res.setHeader(`RateLimit-Limit${suffix}`, hit.limit);
    res.setHeader(`RateLimit-Remaining${suffix}`, remaining);
    res.setHeader(`RateLimit-Reset${suffix}`, isBlocked ? timeToBlockExpire : timeToExpire);
    if (throttler.name === 'default') {
      (res.locals as { rateLimit?: RateLimitState }).rateLimit = {
        limit: hit.limit,
        remaining,
        resetSeconds: timeToExpire,
      };
    }
    if (!isBlocked) return;
    res.setHeader('Retry-After', timeToBlockExpire);
    const detail: ThrottlerLimitDetail = {
      ...record,
      ttl: hit.ttl,
      limit: hit.limit,
      key: hit.key,
      tracker: hit.tracker,
    };
    const custom = Array.isArray(this.options) ? undefined : this.options.errorMessage;
    throw new ThrottlerException(typeof custom === 'function' ? custom(context, detail) : custom);
  }
}

type Resolvable = ThrottlerOptions['ttl'];
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** A throttler option as a number; functions are called (and their promises resolved) as ThrottlerGuard does. */
function resolved(
  context: ExecutionContext,
  value: unknown,
  option: string,
  name: string,
): number | Promise<number> {
  const raw =
    typeof value === 'function' ? (value as (context: ExecutionContext) => unknown)(context) : value;
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
