import { eventLoopStalledMs, LoopTime } from './event-loop-stalls.js';

const hold = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // the loop held
  }
};
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('event-loop stalls', () => {
  it('counts a stall at once (the gap still open) and keeps it once the tick has run', async () => {
    eventLoopStalledMs(); // starts the measure
    await wait(150);
    const waited = new LoopTime();
    hold(600);
    expect(waited.stalledMs()).toBeGreaterThan(400); // seen before any timer could run
    expect(waited.elapsedMs()).toBeLessThan(250);
    await wait(250); // the tick has run: the stall is in the total now, free time goes on
    expect(waited.stalledMs()).toBeGreaterThan(400);
    expect(waited.elapsedMs()).toBeGreaterThan(150);
  });

  it('splits the wall time into free time and stalls, and counts little while the loop is free', async () => {
    eventLoopStalledMs();
    const startedAt = performance.now();
    const waited = new LoopTime();
    await wait(400);
    const wall = performance.now() - startedAt;
    expect(waited.elapsedMs() + waited.stalledMs()).toBeCloseTo(wall, -1);
    expect(waited.stalledMs()).toBeLessThan(200); // only a loaded machine's late ticks, if any
  });
});
