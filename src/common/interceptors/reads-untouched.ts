/**
 * Marks a global interceptor that passes GET and HEAD requests through untouched (e.g. one that
 * acts only on writes). The cached balances fast path, which answers a GET without Nest's
 * pipeline, may then stay on; any other global interceptor turns it off.
 */
export const LEAVES_READS_UNTOUCHED = Symbol('LEAVES_READS_UNTOUCHED');

export interface LeavesReadsUntouched {
  readonly [LEAVES_READS_UNTOUCHED]: true;
}

export function leavesReadsUntouched(instance: unknown): boolean {
  return (
    typeof instance === 'object' &&
    instance !== null &&
    (instance as Partial<LeavesReadsUntouched>)[LEAVES_READS_UNTOUCHED] === true
  );
}

/**
 * Marks a global interceptor that acts on reads, but whose effect on the cached balances route
 * the fast path reproduces itself: the audit of reads (the fast path records its reads through
 * READ_AUDIT). The fast path may then stay on.
 */
export const REPRODUCED_ON_FAST_PATH = Symbol('REPRODUCED_ON_FAST_PATH');

export interface ReproducedOnFastPath {
  readonly [REPRODUCED_ON_FAST_PATH]: true;
}

export function reproducedOnFastPath(instance: unknown): boolean {
  return (
    typeof instance === 'object' &&
    instance !== null &&
    (instance as Partial<ReproducedOnFastPath>)[REPRODUCED_ON_FAST_PATH] === true
  );
}
