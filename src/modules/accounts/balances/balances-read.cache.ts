import { Injectable } from '@nestjs/common';
import type { AccountEntity } from '../entities/account.entity.js';
import type { Snapshot } from '../repositories/balance-snapshots.repository.js';

/** How long another instance's refresh may stay unseen here. */
export const BALANCES_READ_CACHE_TTL_MS = 1_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  account: AccountEntity;
  snapshot: Snapshot;
  generation: number;
  storedAt: number;
}

/**
 * Keeps recently served balances (account row + snapshot) for one second, so a partner polling an
 * account costs no database round trip. Any refresh, import or deletion on this instance starts a
 * new generation, so this instance never serves data older than what it wrote itself; another
 * instance's write becomes visible within the TTL. Freshness fields (cacheAgeSeconds) are computed
 * per request from the cached lastSyncedAt, so they stay truthful. Keys include the tenant.
 */
@Injectable()
export class BalancesReadCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;

  get(
    tenantId: string,
    accountId: string,
    nowMs = performance.now(),
  ): Pick<Entry, 'account' | 'snapshot'> | undefined {
    const entry = this.entries.get(`${tenantId}:${accountId}`);
    if (!entry) return undefined;
    if (entry.generation !== this.generation || nowMs - entry.storedAt >= BALANCES_READ_CACHE_TTL_MS) {
      this.entries.delete(`${tenantId}:${accountId}`);
      return undefined;
    }
    return entry;
  }

  set(
    tenantId: string,
    accountId: string,
    account: AccountEntity,
    snapshot: Snapshot,
    nowMs = performance.now(),
  ): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(`${tenantId}:${accountId}`, {
      account,
      snapshot,
      generation: this.generation,
      storedAt: nowMs,
    });
  }

  /** Called after every write to accounts, transactions or snapshots on this instance. */
  invalidateAll(): void {
    this.generation++;
    this.entries.clear();
  }
}
