/**
 * /portfolio/summary (design §9): holdings across the tenant's accounts (or one), from the
 * balance snapshots the balances endpoint serves (the cost-basis engine at the stored prices),
 * with a live sync status rolled up from the accounts. Read-only.
 */
import { Injectable } from '@nestjs/common';
import { Decimal } from 'decimal.js';
import { Clock } from '../../common/clock/clock.js';
import { DomainError } from '../../common/errors/domain-error.js';
import type { AccountEntity, SyncStatus } from '../accounts/entities/account.entity.js';
import { AccountsRepository } from '../accounts/repositories/accounts.repository.js';
import {
  BalanceSnapshotsRepository,
  type Snapshot,
} from '../accounts/repositories/balance-snapshots.repository.js';

/** Worst first: the rolled-up status is the first of these any account has. */
export const SYNC_STATUS_SEVERITY: readonly SyncStatus[] = [
  'reconnect_required',
  'error',
  'syncing',
  'synced',
];

export type ExcludedReason = 'no_balances_yet' | 'inconsistent_history';

export interface PortfolioSummary {
  readonly btcQuantity: Decimal;
  readonly marketValueUsd: Decimal;
  readonly platforms: readonly string[];
  readonly syncStatus: SyncStatus;
  readonly accountCount: number;
  readonly includedAccountCount: number;
  readonly excluded: readonly { readonly accountId: string; readonly reason: ExcludedReason }[];
  /** Assets held without a stored price: their quantity is in no USD value. */
  readonly unpricedSymbols: readonly string[];
  /** The oldest balances in the sum; null when none. */
  readonly lastUpdatedOn: Date | null;
  readonly cacheAgeSeconds: number | null;
}

/** Exact sums (the global Decimal rounds to 20 significant digits). */
const Exact = Decimal.clone({ precision: 1_000 });

export function rollUpSyncStatus(statuses: readonly SyncStatus[]): SyncStatus {
  return SYNC_STATUS_SEVERITY.find((status) => statuses.includes(status)) ?? 'synced';
}

@Injectable()
export class PortfolioSummaryService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly snapshots: BalanceSnapshotsRepository,
    private readonly clock: Clock,
  ) {}

  async summary(tenantId: string, accountId?: string): Promise<PortfolioSummary> {
    let accounts: AccountEntity[];
    if (accountId !== undefined) {
      const account = await this.accounts.findById(tenantId, accountId);
      if (!account) throw DomainError.notFound('Account');
      accounts = [account];
    } else {
      accounts = await this.accounts.listAllForTenant(tenantId);
    }
    const snapshots = await this.snapshots.findMany(
      tenantId,
      accounts.map((account) => account.id),
    );

    let btcQuantity = new Exact(0);
    let marketValueUsd = new Exact(0);
    const unpriced = new Set<string>();
    const excluded: { accountId: string; reason: ExcludedReason }[] = [];
    const included: Snapshot[] = [];
    for (const account of accounts) {
      const snapshot = snapshots.get(account.id);
      // The same rule as the balances endpoint: no snapshot, or one without an honest basis, is a 422 there.
      if (!snapshot) excluded.push({ accountId: account.id, reason: 'no_balances_yet' });
      else if (snapshot.issue) excluded.push({ accountId: account.id, reason: 'inconsistent_history' });
      else included.push(snapshot);
    }
    for (const snapshot of included) {
      for (const asset of snapshot.assets) {
        if (asset.symbol === 'BTC') btcQuantity = btcQuantity.plus(asset.quantity);
        if (asset.marketValueUsd !== null) marketValueUsd = marketValueUsd.plus(asset.marketValueUsd);
        else if (!new Exact(asset.quantity).isZero()) unpriced.add(asset.symbol);
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
        oldest === null
          ? null
          : Math.max(0, Math.floor((this.clock.now().getTime() - oldest.getTime()) / 1000)),
    };
  }
}
