/** Data younger than this is fresh: forceRefresh returns the cache, the scheduler leaves it alone. */
export const STALE_AFTER_MS = 30 * 60_000;
/** Longer than a refresh can take, so a crashed instance's lease expires and another takes over. */
export const LEASE_MS = 5 * 60_000;
