/** Ledger views → response DTOs. USD is rounded to cents here, at the edge only. */
import { reconcileBalances } from '../../domain/balances/index.js';
import { roundUsdToCents } from '../../domain/money/format.js';
import { toReview, toState } from '../accounts/index.js';
import type { StoredTransaction } from '../ledger/index.js';
import type { BalancesView, TransactionsView } from './account-data.service.js';
import type { BalancesResultDto, TransactionDto, TransactionsResultDto } from './dto/ledger-responses.dto.js';

/** USD decimal text → cents, half-up; never "-0.00". */
export function usd(value: string): string {
  const cents = roundUsdToCents(value);
  return cents.isZero() ? '0.00' : cents.toFixed(2);
}

const usdOrNull = (value: string | null): string | null => (value === null ? null : usd(value));

export function toTransactionDto(tx: StoredTransaction): TransactionDto {
  return {
    transactionId: tx.transactionId,
    symbol: tx.symbol,
    direction: tx.direction,
    amount: tx.amount,
    price: tx.priceUsd,
    fee: tx.feeUsd,
    transferId: tx.transferId,
    timestamp: tx.occurredAt.toISOString(),
  };
}

export function toTransactionsResult(view: TransactionsView): TransactionsResultDto {
  return {
    accountId: view.account.id,
    transactions: view.transactions.map(toTransactionDto),
    nextCursor: view.nextCursor,
    lastUpdatedOn: view.account.lastSyncedAt?.toISOString() ?? null,
    refreshed: view.freshness.refreshed,
    cacheAgeSeconds: view.freshness.cacheAgeSeconds,
    ...toState(view.account),
  };
}

type FormattedSnapshot = Pick<
  BalancesResultDto,
  | 'balances'
  | 'lastUpdatedOn'
  | 'marketValue'
  | 'realizedGainLoss'
  | 'unrealizedGainLoss'
  | 'costBasisMethod'
  | 'reconciliation'
>;

/**
 * Snapshot objects are immutable once loaded and the balances read cache hands the same object to
 * every request within its TTL, so their decimal formatting is done once per object.
 */
const formattedSnapshots = new WeakMap<BalancesView['snapshot'], FormattedSnapshot>();

function formatSnapshot(snapshot: BalancesView['snapshot']): FormattedSnapshot {
  let formatted = formattedSnapshots.get(snapshot);
  if (!formatted) {
    formatted = {
      balances: snapshot.assets.map((asset) => ({
        symbol: asset.symbol,
        balance: asset.quantity,
        costBasis: usd(asset.costBasisUsd),
        marketValue: usdOrNull(asset.marketValueUsd),
        realizedGainLoss: usd(asset.realizedGainUsd),
        unrealizedGainLoss: usdOrNull(asset.unrealizedGainUsd),
        needsReview: asset.needsReview,
      })),
      lastUpdatedOn: snapshot.lastUpdatedOn.toISOString(),
      marketValue: usd(snapshot.marketValueUsd),
      realizedGainLoss: usd(snapshot.realizedGainUsd),
      unrealizedGainLoss: usd(snapshot.unrealizedGainUsd),
      costBasisMethod: snapshot.method,
      reconciliation: snapshot.reportedBalances
        ? reconcileBalances(snapshot.reportedBalances, snapshot.assets)
        : null,
    };
    formattedSnapshots.set(snapshot, formatted);
  }
  return formatted;
}

export function toBalancesResult(view: BalancesView): BalancesResultDto {
  const formatted = formatSnapshot(view.snapshot);
  return {
    accountId: view.account.id,
    balances: formatted.balances,
    lastUpdatedOn: formatted.lastUpdatedOn,
    marketValue: formatted.marketValue,
    realizedGainLoss: formatted.realizedGainLoss,
    unrealizedGainLoss: formatted.unrealizedGainLoss,
    costBasisMethod: formatted.costBasisMethod,
    reconciliation: formatted.reconciliation,
    review: toReview(view.account),
    refreshed: view.freshness.refreshed,
    cacheAgeSeconds: view.freshness.cacheAgeSeconds,
    ...toState(view.account),
  };
}

/** RFC 9211 Cache-Status: whether this answer came from the cache or a refresh it triggered. */
export function cacheStatus(refreshed: boolean): string {
  return refreshed ? 'crypto-asset-service; fwd=request; stored' : 'crypto-asset-service; hit';
}
