/**
 * The portfolio summary's figures (design §9 /portfolio/summary): BTC held and USD value summed
 * over the accounts' balance snapshots, exact, with the accounts whose balances have no honest
 * figures left out and named. Pure: the aggregation module reads the accounts and snapshots.
 */
import type { Decimal } from 'decimal.js';
import { rollUpSyncStatus, type SyncStatus } from '../accounts/sync-status.js';
import { snapshotExclusionReason, type SnapshotExclusionReason, type Snapshot } from '../balances/index.js';
import { ExactDecimal, ZERO } from '../money/exact-decimal.js';

/** What the summary needs to know of an account. */
export interface SummaryAccount {
  readonly id: string;
  readonly platform: string;
  readonly syncStatus: SyncStatus;
}

export interface ExcludedAccount {
  readonly accountId: string;
  readonly reason: SnapshotExclusionReason;
}

export interface PortfolioSummary {
  readonly btcQuantity: Decimal;
  readonly marketValueUsd: Decimal;
  readonly platforms: readonly string[];
  readonly syncStatus: SyncStatus;
  readonly accountCount: number;
  readonly includedAccountCount: number;
  readonly excluded: readonly ExcludedAccount[];
  /** Assets held without a stored price: their quantity is in no USD value. */
  readonly unpricedSymbols: readonly string[];
  /** The oldest balances in the sum; null when none. */
  readonly lastUpdatedOn: Date | null;
  readonly cacheAgeSeconds: number | null;
}

export function summarizePortfolio(
  accounts: readonly SummaryAccount[],
  snapshots: ReadonlyMap<string, Snapshot>,
  now: Date,
): PortfolioSummary {
  let btcQuantity = ZERO;
  let marketValueUsd = ZERO;
  const unpriced = new Set<string>();
  const excluded: ExcludedAccount[] = [];
  const included: Snapshot[] = [];
  for (const account of accounts) {
    const snapshot = snapshots.get(account.id);
    const reason = snapshotExclusionReason(snapshot);
    if (reason !== null) excluded.push({ accountId: account.id, reason });
    else if (snapshot) included.push(snapshot);
  }
  for (const snapshot of included) {
    for (const asset of snapshot.assets) {
      if (asset.symbol === 'BTC') btcQuantity = btcQuantity.plus(asset.quantity);
      if (asset.marketValueUsd !== null) marketValueUsd = marketValueUsd.plus(asset.marketValueUsd);
      else if (!new ExactDecimal(asset.quantity).isZero()) unpriced.add(asset.symbol);
    }
  }
  const oldest = included.reduce<Date | null>(
    (min, s) => (min === null || s.lastUpdatedOn < min ? s.lastUpdatedOn : min),
    null,
  );
  return {
    btcQuantity,
    marketValueUsd,
    platforms: [...new Set(accounts.map((account) => account.platform))].sort(),
    syncStatus: rollUpSyncStatus(accounts.map((account) => account.syncStatus)),
    accountCount: accounts.length,
    includedAccountCount: included.length,
    excluded,
    unpricedSymbols: [...unpriced].sort(),
    lastUpdatedOn: oldest,
    cacheAgeSeconds:
      oldest === null ? null : Math.max(0, Math.floor((now.getTime() - oldest.getTime()) / 1000)),
  };
}
