import { Injectable } from '@nestjs/common';
import type { Snapshot } from '../repositories/balance-snapshots.repository.js';

/** How long an entry is served as it is; another instance's refresh stays unseen here that long. */
export const BALANCES_READ_CACHE_TTL_MS = 1_000;
/**
 * How long past the TTL a reader may still be answered with the entry while one load replaces it
 * in the background (stale-while-revalidate): an expired entry no longer makes the request that
 * finds it wait for the database, which a tenant's heavy report may keep busy (on PGlite, one
 * session: up to a second; issue 28). Another instance's write is seen within the TTL when the
 * database answers at once, and at most this long when it does not.
 */
export const BALANCES_READ_CACHE_STALE_MS = 5_000;
const MAX_ENTRIES = 10_000;

type Cached<A> = Pick<Entry<A>, 'account' | 'snapshot'>;

/**
 * An entry's own slot for what a reader derives from it (e.g. an encoded response body): it goes
 * when the entry goes, so no second map beside this cache can outlive it. Readers key their values
 * with their own symbols.
 */
export type BalancesMemo = Record<symbol, unknown>;

interface Entry<A> {
  /** The account row the reader served with the snapshot (its own type: the ledger never reads it). */
  account: A;
  snapshot: Snapshot;
  generation: number;
  storedAt: number;
  memo: BalancesMemo;
}

/**
 * Keeps recently served balances (account row + snapshot) for one second, so a partner polling an
 * account costs no database round trip. Any refresh, import or deletion on this instance starts a
 * new generation, so this instance never serves data older than what it wrote itself; another
 * instance's write becomes visible within the TTL. Freshness fields (cacheAgeSeconds) are computed
 * per request from the cached lastSyncedAt, so they stay truthful. Keys include the tenant.
 *
 * Misses are single-flight: when an entry is missing, the first request loads it and the others
 * arriving meanwhile wait for that load instead of each querying the database (which made a
 * stampede of identical queries, and a latency spike, once a second). An entry past the TTL but
 * within BALANCES_READ_CACHE_STALE_MS is served by getOrLoad while one background load replaces
 * it; a background load that fails drops the entry, so the next request loads in the foreground
 * and gets the error (a deleted account's 404). A load that overlaps a local write is handed to
 * its waiters but not kept, and a local write's new generation is never answered with an older
 * entry.
 */
@Injectable()
export class BalancesReadCache<A = unknown> {
  private readonly entries = new Map<string, Entry<A>>();
  private readonly loading = new Map<string, { generation: number; promise: Promise<Cached<A>> }>();
  private generation = 0;
  /**
   * Monotonic milliseconds, the time of every default `nowMs` here. Tests that expect a second read
   * to find the first one's entry hold it still (test/support/read-cache-time.ts): on a loaded
   * machine two requests can be more than the TTL apart.
   */
  now: () => number = () => performance.now();

  /** The cached entry, or the result of `load` (shared with concurrent callers for the same key). */
  getOrLoad(
    tenantId: string,
    accountId: string,
    load: () => Promise<Cached<A>>,
    nowMs = this.now(),
  ): Promise<Cached<A>> {
    const hit = this.get(tenantId, accountId, nowMs);
    if (hit) return Promise.resolve(hit);
    const key = `${tenantId}:${accountId}`;
    const stale = this.entries.get(key);
    if (
      stale &&
      stale.generation === this.generation &&
      nowMs - stale.storedAt < BALANCES_READ_CACHE_STALE_MS
    ) {
      // Served as it is while one load replaces it; a failed load drops it (the next request loads).
      this.load(key, tenantId, accountId, load).catch(() => {
        if (this.entries.get(key) === stale) this.entries.delete(key);
      });
      return Promise.resolve(stale);
    }
    return this.load(key, tenantId, accountId, load);
  }

  /** One load per key and generation at a time; kept only when no local write overlapped it. */
  private load(
    key: string,
    tenantId: string,
    accountId: string,
    load: () => Promise<Cached<A>>,
  ): Promise<Cached<A>> {
    const inFlight = this.loading.get(key);
    if (inFlight && inFlight.generation === this.generation) return inFlight.promise;
    const generation = this.generation;
    const promise = load().then(
      (loaded) => {
        if (this.loading.get(key)?.promise === promise) this.loading.delete(key);
        if (generation === this.generation) this.set(tenantId, accountId, loaded.account, loaded.snapshot);
        return loaded;
      },
      (error: unknown) => {
        if (this.loading.get(key)?.promise === promise) this.loading.delete(key);
        throw error;
      },
    );
    this.loading.set(key, { generation, promise });
    return promise;
  }

  /** The entry while it is fresh (within the TTL, of the current generation); else undefined. */
  get(tenantId: string, accountId: string, nowMs = this.now()): Entry<A> | undefined {
    const key = `${tenantId}:${accountId}`;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const age = nowMs - entry.storedAt;
    if (entry.generation !== this.generation || age >= BALANCES_READ_CACHE_STALE_MS) {
      this.entries.delete(key);
      return undefined;
    }
    return age < BALANCES_READ_CACHE_TTL_MS ? entry : undefined;
  }

  set(tenantId: string, accountId: string, account: A, snapshot: Snapshot, nowMs = this.now()): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(`${tenantId}:${accountId}`, {
      account,
      snapshot,
      generation: this.generation,
      storedAt: nowMs,
      memo: {},
    });
  }

  /** Called after every write to accounts, transactions or snapshots on this instance. */
  invalidateAll(): void {
    this.generation++;
    this.entries.clear();
    this.loading.clear();
  }
}
