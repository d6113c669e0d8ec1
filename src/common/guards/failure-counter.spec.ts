import { MemoryFailureCounter } from './failure-counter.js';

const WINDOW_MS = 60_000;

describe('MemoryFailureCounter', () => {
  it('blocks a key from its limit-th failure until its window (started by the first failure) ends', async () => {
    let now = 1_000_000;
    const counter = new MemoryFailureCounter(() => now);
    expect(await counter.blockedFor('k', 2)).toBe(0);
    await counter.recordFailure('k', WINDOW_MS);
    expect(await counter.blockedFor('k', 2)).toBe(0);
    now += 10_000;
    await counter.recordFailure('k', WINDOW_MS);
    expect(await counter.blockedFor('k', 2)).toBe(50);
    expect(await counter.blockedFor('other', 2)).toBe(0);
    now += 49_500;
    expect(await counter.blockedFor('k', 2)).toBe(1);
    now += 500;
    expect(await counter.blockedFor('k', 2)).toBe(0);
    await counter.recordFailure('k', WINDOW_MS); // a new window
    expect(await counter.blockedFor('k', 2)).toBe(0);
    counter.onApplicationShutdown();
  });
});
