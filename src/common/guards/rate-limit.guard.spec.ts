import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import { SkipThrottle, Throttle, ThrottlerException, type ThrottlerModuleOptions } from '@nestjs/throttler';
import { FixedWindowThrottlerStorage } from './fixed-window.storage.js';
import { RateLimitGuard, rateLimitStateOf } from './rate-limit.guard.js';

const MINUTE = 60_000;

class Routes {
  plain(): void {}
  @SkipThrottle({ default: true })
  skipped(): void {}
  @Throttle({ default: { limit: 1, ttl: MINUTE } })
  strict(): void {}
}

/** A request/response pair as Express hands them to guards: headers and locals are what is read back. */
function call(handler: keyof Routes, clientId = 'client-a') {
  const headers = new Map<string, unknown>();
  const res = { locals: {}, setHeader: (name: string, value: unknown) => headers.set(name, value) };
  const req = { user: { clientId } };
  const context = new ExecutionContextHost([req, res, () => undefined], Routes, Routes.prototype[handler]);
  return { context, headers, res };
}

const options = (limit: number): ThrottlerModuleOptions => ({
  throttlers: [{ name: 'default', ttl: MINUTE, limit }],
  getTracker: (req) => `client:${(req as { user: { clientId: string } }).user.clientId}`,
  generateKey: (_context, tracker, name) => `spec:${name}:${tracker}`,
});

describe('RateLimitGuard', () => {
  let storage: FixedWindowThrottlerStorage;
  beforeEach(() => (storage = new FixedWindowThrottlerStorage()));
  afterEach(() => storage.onApplicationShutdown());

  it('counts synchronously against the in-memory storage, with RateLimit-* headers and the state for /api/status', () => {
    const guard = new RateLimitGuard(options(2), storage, new Reflector());
    const first = call('plain');
    expect(guard.canActivate(first.context)).toBe(true); // a boolean, not a promise
    expect(Object.fromEntries(first.headers)).toEqual({
      'RateLimit-Limit': 2,
      'RateLimit-Remaining': 1,
      'RateLimit-Reset': 60,
    });
    expect(rateLimitStateOf(first.res as never)).toEqual({ limit: 2, remaining: 1, resetSeconds: 60 });
    expect(guard.canActivate(call('plain').context)).toBe(true);
    const third = call('plain');
    expect(() => guard.canActivate(third.context)).toThrow(ThrottlerException);
    expect(third.headers.get('Retry-After')).toBe(60);
    expect(guard.canActivate(call('plain', 'client-b').context)).toBe(true); // its own quota
  });

  it('honours @SkipThrottle and @Throttle on the route', () => {
    const guard = new RateLimitGuard(options(100), storage, new Reflector());
    const skipped = call('skipped');
    expect(guard.canActivate(skipped.context)).toBe(true);
    expect(skipped.headers.size).toBe(0);
    expect(guard.canActivate(call('strict').context)).toBe(true);
    expect(() => guard.canActivate(call('strict').context)).toThrow(ThrottlerException);
  });

  it('awaits a storage that answers asynchronously (Redis) and an option given as an async function', async () => {
    const asyncStorage = {
      increment: (...args: Parameters<FixedWindowThrottlerStorage['increment']>) =>
        new Promise<Awaited<ReturnType<FixedWindowThrottlerStorage['increment']>>>((resolve) =>
          setImmediate(() => resolve(storage.incrementNow(...args))),
        ),
    };
    const guard = new RateLimitGuard(
      { ...options(0), throttlers: [{ name: 'default', ttl: MINUTE, limit: async () => 1 }] },
      asyncStorage,
      new Reflector(),
    );
    const first = call('plain');
    const pending = guard.canActivate(first.context);
    expect(pending).toBeInstanceOf(Promise);
    await expect(pending).resolves.toBe(true);
    expect(first.headers.get('RateLimit-Remaining')).toBe(0);
    await expect(guard.canActivate(call('plain').context)).rejects.toBeInstanceOf(ThrottlerException);
  });

  it('keeps each application’s limits apart for the same route (route plans are per guard)', () => {
    const loose = new RateLimitGuard(options(100), storage, new Reflector());
    const tight = new RateLimitGuard(
      { ...options(1), generateKey: (_c, tracker, name) => `tight:${name}:${tracker}` },
      storage,
      new Reflector(),
    );
    const a = call('plain');
    loose.canActivate(a.context);
    const b = call('plain');
    tight.canActivate(b.context);
    expect(a.headers.get('RateLimit-Limit')).toBe(100);
    expect(b.headers.get('RateLimit-Limit')).toBe(1);
  });
});
