import fc from 'fast-check';
import { FixedWindowThrottlerStorage } from './fixed-window.storage.js';

const TTL = 60_000;

function storageAt(start = 1_000_000) {
  const clock = { now: start };
  return { storage: new FixedWindowThrottlerStorage(() => clock.now), clock };
}

describe('FixedWindowThrottlerStorage', () => {
  it('counts hits in a window that starts with the first hit and blocks the hit over the limit', async () => {
    const { storage, clock } = storageAt();
    const seen = [];
    for (let i = 0; i < 4; i++) {
      seen.push(await storage.increment('client:a', TTL, 3, TTL, 'default'));
      clock.now += 1_500;
    }
    expect(seen.map((r) => r.totalHits)).toEqual([1, 2, 3, 4]);
    expect(seen.map((r) => r.isBlocked)).toEqual([false, false, false, true]);
    // Reset counts down from the window's start: 60 s, 58.5 s → 59, 57 s, 55.5 s → 56.
    expect(seen.map((r) => r.timeToExpire)).toEqual([60, 59, 57, 56]);
    expect(seen.map((r) => r.timeToBlockExpire)).toEqual([0, 0, 0, 60]);
  });

  it('keeps clients and throttler names apart', () => {
    const { storage } = storageAt();
    storage.hit('client:a:default', TTL, 1, TTL);
    expect(storage.hit('client:a:default', TTL, 1, TTL).isBlocked).toBe(true);
    expect(storage.hit('client:b:default', TTL, 1, TTL).isBlocked).toBe(false);
    expect(storage.hit('client:a:market', TTL, 1, TTL).isBlocked).toBe(false);
  });

  it('starts a new window at 1 once the old one has run out', () => {
    const { storage, clock } = storageAt();
    storage.hit('k', TTL, 10, TTL);
    storage.hit('k', TTL, 10, TTL);
    clock.now += TTL;
    expect(storage.hit('k', TTL, 10, TTL)).toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
  });

  it('blocks again, when its block ends, a client that kept calling through it', () => {
    const { storage, clock } = storageAt();
    const block = 90_000;
    for (let i = 0; i < 3; i++) storage.hit('k', TTL, 2, block); // the third hit blocks for 90 s
    // Still calling: a new window opens at +60 s while the block holds; its hits are counted.
    clock.now += TTL;
    for (let i = 0; i < 3; i++) expect(storage.hit('k', TTL, 2, block).isBlocked).toBe(true);
    clock.now += 30_001; // the block has run out, but this window already holds 3 > 2 hits
    expect(storage.hit('k', TTL, 2, block)).toMatchObject({
      totalHits: 4,
      isBlocked: true,
      timeToBlockExpire: 90,
    });
  });

  it('lets a client that waited out its block start afresh', () => {
    const { storage, clock } = storageAt();
    for (let i = 0; i < 3; i++) storage.hit('k', TTL, 2, TTL);
    clock.now += TTL + 1;
    expect(storage.hit('k', TTL, 2, TTL)).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('forgets idle keys on a sweep, and keeps blocked ones until their block ends', () => {
    const { storage, clock } = storageAt();
    storage.hit('idle', 1_000, 5, 1_000);
    for (let i = 0; i < 3; i++) storage.hit('blocked', 1_000, 2, 10_000);
    clock.now += 1_000;
    storage.sweep();
    expect(storage.size).toBe(1);
    clock.now += 9_000;
    storage.sweep();
    expect(storage.size).toBe(0);
    storage.onApplicationShutdown();
  });

  it('never lets more than `limit` hits through in any one window (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 200 }),
        (limit, gaps) => {
          const { storage, clock } = storageAt(0);
          const ttl = 10_000;
          const allowedAt: number[] = [];
          for (const gap of gaps) {
            clock.now += gap;
            const r = storage.hit('k', ttl, limit, ttl);
            expect(r.totalHits).toBeGreaterThanOrEqual(1);
            expect(r.timeToExpire).toBeGreaterThan(0);
            expect(r.timeToExpire).toBeLessThanOrEqual(ttl / 1000);
            if (!r.isBlocked) allowedAt.push(clock.now);
          }
          // Fixed windows admit at most 2 × limit in any sliding span of ttl, and at most `limit`
          // within one window; check the sliding bound, which does not depend on window edges.
          for (let i = 0; i < allowedAt.length; i++) {
            const inSpan = allowedAt.filter((t) => t >= allowedAt[i]! && t < allowedAt[i]! + ttl).length;
            expect(inSpan).toBeLessThanOrEqual(2 * limit);
          }
        },
      ),
      { seed: 20261121, numRuns: 300 },
    );
  });
});
