/** The cache keeps whatever row its reader serves; a stand-in for the account record. */
type AccountRecord = { readonly id: string };
import type { Snapshot } from '../repositories/balance-snapshots.repository.js';
import {
  BALANCES_READ_CACHE_STALE_MS,
  BALANCES_READ_CACHE_TTL_MS,
  BalancesReadCache,
} from './balances-read.cache.js';

const account = { id: 'a1' } as AccountRecord;
const snapshot = { accountId: 'a1' } as Snapshot;

describe('BalancesReadCache', () => {
  it('serves an entry within the TTL, per tenant, and not after', () => {
    const cache = new BalancesReadCache<AccountRecord>();
    cache.set('t1', 'a1', account, snapshot, 1_000);
    expect(cache.get('t1', 'a1', 1_000 + BALANCES_READ_CACHE_TTL_MS - 1)?.snapshot).toBe(snapshot);
    expect(cache.get('t2', 'a1', 1_001)).toBeUndefined();
    expect(cache.get('t1', 'a1', 1_000 + BALANCES_READ_CACHE_TTL_MS)).toBeUndefined();
  });

  it('forgets everything on a local write', () => {
    const cache = new BalancesReadCache<AccountRecord>();
    cache.set('t1', 'a1', account, snapshot, 0);
    cache.invalidateAll();
    expect(cache.get('t1', 'a1', 1)).toBeUndefined();
  });
});

describe('BalancesReadCache.getOrLoad', () => {
  const deferred = <T>() => {
    let resolve!: (value: T) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };

  it('shares one load among concurrent misses and then serves it from cache', async () => {
    const cache = new BalancesReadCache<AccountRecord>();
    const gate = deferred<{ account: AccountRecord; snapshot: Snapshot }>();
    let loads = 0;
    const load = () => {
      loads++;
      return gate.promise;
    };
    const waiting = [1, 2, 3].map(() => cache.getOrLoad('t1', 'a1', load, 0));
    gate.resolve({ account, snapshot });
    const results = await Promise.all(waiting);
    expect(loads).toBe(1);
    expect(results.every((r) => r.snapshot === snapshot)).toBe(true);
    expect((await cache.getOrLoad('t1', 'a1', load, 10)).snapshot).toBe(snapshot);
    expect(loads).toBe(1);
  });

  it('passes a failed load to every waiter and caches nothing', async () => {
    const cache = new BalancesReadCache<AccountRecord>();
    const gate = deferred<{ account: AccountRecord; snapshot: Snapshot }>();
    const waiting = [1, 2].map(() => cache.getOrLoad('t1', 'a1', () => gate.promise, 0));
    gate.reject(new Error('not found'));
    await expect(Promise.all(waiting)).rejects.toThrow('not found');
    expect(cache.get('t1', 'a1', 1)).toBeUndefined();
    expect((await cache.getOrLoad('t1', 'a1', async () => ({ account, snapshot }), 2)).snapshot).toBe(
      snapshot,
    );
  });

  it('does not keep a load that overlapped a local write, and does not join it afterwards', async () => {
    const cache = new BalancesReadCache<AccountRecord>();
    const old = deferred<{ account: AccountRecord; snapshot: Snapshot }>();
    const first = cache.getOrLoad('t1', 'a1', () => old.promise, 0);
    cache.invalidateAll();
    const fresh = { accountId: 'a1', fresh: true } as unknown as Snapshot;
    const second = cache.getOrLoad('t1', 'a1', async () => ({ account, snapshot: fresh }), 1);
    old.resolve({ account, snapshot });
    expect((await first).snapshot).toBe(snapshot);
    expect((await second).snapshot).toBe(fresh);
    expect(cache.get('t1', 'a1', 2)?.snapshot).toBe(fresh);
  });

  it('past the TTL serves the entry at once while one background load replaces it (stale-while-revalidate)', async () => {
    const cache = new BalancesReadCache<AccountRecord>();
    cache.set('t1', 'a1', account, snapshot, 0);
    const fresh = { accountId: 'a1', fresh: true } as unknown as Snapshot;
    const gate = deferred<{ account: AccountRecord; snapshot: Snapshot }>();
    let loads = 0;
    const load = () => {
      loads++;
      return gate.promise;
    };
    const at = BALANCES_READ_CACHE_TTL_MS + 10;
    // The fast path's strict read: past the TTL it is not fresh.
    expect(cache.get('t1', 'a1', at)).toBeUndefined();
    // Two readers while the database is busy: both answered from the stale entry, one load.
    expect((await cache.getOrLoad('t1', 'a1', load, at)).snapshot).toBe(snapshot);
    expect((await cache.getOrLoad('t1', 'a1', load, at + 1)).snapshot).toBe(snapshot);
    expect(loads).toBe(1);
    gate.resolve({ account, snapshot: fresh });
    await gate.promise;
    await Promise.resolve();
    expect(cache.get('t1', 'a1', at + 2)?.snapshot).toBe(fresh);
  });

  it('beyond the stale window, or after a local write, waits for the load as before', async () => {
    const cache = new BalancesReadCache<AccountRecord>();
    const fresh = { accountId: 'a1', fresh: true } as unknown as Snapshot;
    cache.set('t1', 'a1', account, snapshot, 0);
    expect(
      (
        await cache.getOrLoad(
          't1',
          'a1',
          async () => ({ account, snapshot: fresh }),
          BALANCES_READ_CACHE_STALE_MS,
        )
      ).snapshot,
    ).toBe(fresh);
    cache.set('t1', 'a1', account, snapshot, 10_000);
    cache.invalidateAll();
    expect(
      (
        await cache.getOrLoad(
          't1',
          'a1',
          async () => ({ account, snapshot: fresh }),
          10_000 + BALANCES_READ_CACHE_TTL_MS + 1,
        )
      ).snapshot,
    ).toBe(fresh);
  });

  it('drops the stale entry when its background load fails, so the next request gets the error', async () => {
    const cache = new BalancesReadCache<AccountRecord>();
    cache.set('t1', 'a1', account, snapshot, 0);
    const at = BALANCES_READ_CACHE_TTL_MS + 10;
    const gone = deferred<{ account: AccountRecord; snapshot: Snapshot }>();
    expect((await cache.getOrLoad('t1', 'a1', () => gone.promise, at)).snapshot).toBe(snapshot);
    gone.reject(new Error('Account not found'));
    await gone.promise.catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    await expect(
      cache.getOrLoad('t1', 'a1', () => Promise.reject(new Error('Account not found')), at + 1),
    ).rejects.toThrow('Account not found');
  });
});
