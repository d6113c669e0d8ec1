/** Data younger than this is fresh: forceRefresh returns the cache, the scheduler leaves it alone. */
export const STALE_AFTER_MS = 30 * 60_000;
