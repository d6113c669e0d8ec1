import type { AccountEntity } from '../entities/account.entity.js';
import type { Snapshot } from '../repositories/balance-snapshots.repository.js';
import { BALANCES_READ_CACHE_TTL_MS, BalancesReadCache } from './balances-read.cache.js';

const account = { id: 'a1' } as AccountEntity;
const snapshot = { accountId: 'a1' } as Snapshot;

describe('BalancesReadCache', () => {
  it('serves an entry within the TTL, per tenant, and not after', () => {
    const cache = new BalancesReadCache();
    cache.set('t1', 'a1', account, snapshot, 1_000);
    expect(cache.get('t1', 'a1', 1_000 + BALANCES_READ_CACHE_TTL_MS - 1)?.snapshot).toBe(snapshot);
    expect(cache.get('t2', 'a1', 1_001)).toBeUndefined();
    expect(cache.get('t1', 'a1', 1_000 + BALANCES_READ_CACHE_TTL_MS)).toBeUndefined();
  });

  it('forgets everything on a local write', () => {
    const cache = new BalancesReadCache();
    cache.set('t1', 'a1', account, snapshot, 0);
    cache.invalidateAll();
    expect(cache.get('t1', 'a1', 1)).toBeUndefined();
  });
});
