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
