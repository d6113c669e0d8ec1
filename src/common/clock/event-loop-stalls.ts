/**
 * How long the event loop has been held (a request computing for seconds, a long GC pause), so a
 * timeout can count only the time the process could have read an answer (issue 27 item 17).
 *
 * A timeout is a timer, and after a stall the loop runs the expired timers before it reads the
 * sockets: a database answer that arrived during the stall is still unread when its timeout fires,
 * and the wait looks like a dead database (a 503 "The database is unavailable") although the
 * database answered in time. A timeout that measures its wait with `LoopTime` instead of the wall
 * clock expires only after `ms` of time the loop was free to read an answer.
 *
 * Measured with one 100 ms interval timer (unref'd, started at first use): each tick late by more
 * than STALL_MIN_MS adds its lateness; the gap still open (the loop held right now, before the
 * tick could run) counts too, so a timer that fires first thing after a stall already sees it.
 */
const TICK_MS = 100;
/** Lateness below this is ordinary jitter (a busy loop of short tasks), not a stall. */
const STALL_MIN_MS = 50;

let stalledMs = 0;
let lastTick = 0;
let ticker: NodeJS.Timeout | undefined;

function tick(): void {
  const now = performance.now();
  const late = now - lastTick - TICK_MS;
  if (late > STALL_MIN_MS) stalledMs += late;
  lastTick = now;
}

/** Milliseconds the loop has been held since the measure started (a monotonic total). */
export function eventLoopStalledMs(): number {
  const now = performance.now();
  if (!ticker) {
    lastTick = now;
    ticker = setInterval(tick, TICK_MS);
    ticker.unref();
    return stalledMs;
  }
  const open = now - lastTick - TICK_MS;
  return stalledMs + (open > STALL_MIN_MS ? open : 0);
}

/** A stopwatch of the time the loop was free (wall time minus the stalls since its start). */
export class LoopTime {
  private readonly startedAt = performance.now();
  private readonly stalledAtStart = eventLoopStalledMs();

  /** Milliseconds since the start during which the loop could run callbacks. */
  elapsedMs(now = performance.now()): number {
    return now - this.startedAt - (eventLoopStalledMs() - this.stalledAtStart);
  }

  /** Milliseconds of the wait that were a stall. */
  stalledMs(): number {
    return eventLoopStalledMs() - this.stalledAtStart;
  }
}
