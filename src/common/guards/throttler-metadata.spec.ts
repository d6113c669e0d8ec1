import 'reflect-metadata';
import { SkipThrottle, Throttle } from '@nestjs/throttler';
import { THROTTLER_METADATA as KEYS } from './throttler-metadata.js';

describe('THROTTLER_METADATA', () => {
  it('reads back what @Throttle writes for a named throttler, on a class and on a handler', () => {
    class Route {
      handler(): void {}
    }
    const tracker = () => 'client';
    const generateKey = () => 'key';
    Throttle({ default: { limit: 5, ttl: 60_000, blockDuration: 1_000, getTracker: tracker, generateKey } })(
      Route,
    );
    const descriptor = Object.getOwnPropertyDescriptor(Route.prototype, 'handler')!;
    Throttle({ market: { limit: 2, ttl: 1_000 } })(Route.prototype, 'handler', descriptor);

    expect(Reflect.getMetadata(`${KEYS.limit}default`, Route)).toBe(5);
    expect(Reflect.getMetadata(`${KEYS.ttl}default`, Route)).toBe(60_000);
    expect(Reflect.getMetadata(`${KEYS.blockDuration}default`, Route)).toBe(1_000);
    expect(Reflect.getMetadata(`${KEYS.tracker}default`, Route)).toBe(tracker);
    expect(Reflect.getMetadata(`${KEYS.keyGenerator}default`, Route)).toBe(generateKey);
    expect(Reflect.getMetadata(`${KEYS.limit}market`, Route.prototype.handler)).toBe(2);
  });

  it('reads back what @SkipThrottle writes', () => {
    class Skipped {}
    SkipThrottle()(Skipped);
    expect(Reflect.getMetadata(`${KEYS.skip}default`, Skipped)).toBe(true);
  });

  it('learns six distinct keys', () => {
    expect(new Set(Object.values(KEYS)).size).toBe(6);
  });
});
