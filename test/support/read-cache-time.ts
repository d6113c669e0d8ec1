import type { INestApplicationContext } from '@nestjs/common';
import { BalancesReadCache } from '../../src/modules/ledger/index.js';

/**
 * Holds the balances read cache's time still until the returned function is called, so an entry a
 * read filled stays within its one-second TTL for the reads after it however slow the machine is.
 * For tests that expect the cached balances fast path to answer a second read: under CI's load
 * two supertest requests were once more than a second apart, and the second took the route.
 * The entries cached before are dropped first, so the first read loads and caches afresh.
 */
export function holdReadCacheTime(app: INestApplicationContext): () => void {
  const cache = app.get(BalancesReadCache, { strict: false });
  // Entries from before (an earlier suite's reads) go, as after a write: a stale one would be
  // answered by the route while a background load replaces it, and the read after it would find
  // that load still running (the fast path answers fresh entries only).
  cache.invalidateAll();
  const original = cache.now;
  const at = original();
  cache.now = () => at;
  return () => {
    cache.now = original;
  };
}
