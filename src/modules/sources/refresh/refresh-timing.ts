/** Data younger than this is fresh: forceRefresh returns the cache, the scheduler leaves it alone. */
export const STALE_AFTER_MS = 30 * 60_000;
/** The write lease is the ledger writer's (ledger/writer/lease-timing.ts). */
export { LEASE_MS } from '../../ledger/index.js';
