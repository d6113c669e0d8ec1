/**
 * Balances from the ledger: the cost-basis engine (src/domain/cost-basis) over the accounts
 * linked by own-account transfers, valued at the stored prices, each disposal with the method in
 * force for its account on its date under the tenant's elections (FIFO without any; the tax
 * report uses the same elections when no method is asked for). Pure: no database,
 * clock or framework; the refresh engine supplies entries, prices and the time.
 *
 * Why the linked accounts: lots are kept per account, and the only thing that crosses accounts
 * is a transfer, which needs both legs. Computing over an account's transfer-linked accounts
 * (transitively) therefore gives every account exactly the numbers a computation over all of
 * the tenant's accounts gives (the gains report's scope), at a fraction of the cost.
 */
import {
  computeCostBasis,
  DEFAULT_COST_BASIS_METHOD,
  electedMethod,
  methodForElections,
  summarizeByAccountAndSymbol,
  type BasisTransition,
  type LotSelection,
  type MethodElection,
  valuePositions,
  type InsufficientHoldingsIssue,
  type LedgerEntry,
} from '../cost-basis/index.js';
import { sumExact } from '../money/exact-decimal.js';
import { canonicalDecimal } from '../money/format.js';
import type { Snapshot, SnapshotAsset, SnapshotIssue } from './balance-snapshot.types.js';

export interface SnapshotInput {
  /** Every entry of the accounts in `accountIds` and of all accounts linked to them by transfers. */
  readonly entries: readonly LedgerEntry[];
  /** Accounts to produce snapshots for. */
  readonly accountIds: readonly string[];
  /** Latest stored USD price per symbol; missing symbols are valued null. */
  readonly pricesUsd: ReadonlyMap<string, string>;
  /** Quantities each source reported itself (null: the account's balances are calculated). */
  readonly reportedBalances: ReadonlyMap<string, Readonly<Record<string, string>> | null>;
  readonly computedAt: Date;
  /**
   * The tenant's cost-basis method elections (docs/cost-basis.md, "Method elections"): each
   * disposal uses the method in force for its account on its date. None or empty: FIFO.
   */
  readonly elections?: readonly MethodElection[];
  /** The tenant's lot selections (docs/cost-basis.md, "Specific identification"), keyed by lotSelectionKey. */
  readonly selections?: ReadonlyMap<string, LotSelection>;
  /** The tenant's confirmed safe-harbor allocation (docs/cost-basis.md, "Universal to per-wallet"). */
  readonly transition?: BasisTransition;
}

/** Exact (the global Decimal's 20 significant digits would round sums of large positions); nulls left out. */
const sum = (values: readonly (string | null)[]): string => canonicalDecimal(sumExact(values));

export function computeBalanceSnapshots(input: SnapshotInput): Snapshot[] {
  const elections = input.elections ?? [];
  const result = computeCostBasis(input.entries, {
    method: DEFAULT_COST_BASIS_METHOD,
    methodFor: methodForElections(elections),
    selections: input.selections,
    transition: input.transition,
  });
  const wanted = new Set(input.accountIds);
  const valued = valuePositions(
    summarizeByAccountAndSymbol(result).filter((p) => wanted.has(p.accountId)),
    input.pricesUsd,
  );
  return input.accountIds.map((accountId) => {
    const assets: SnapshotAsset[] = valued
      .filter((p) => p.accountId === accountId)
      .map((p) => ({
        symbol: p.symbol,
        quantity: p.quantity,
        costBasisUsd: p.costBasisUsd,
        priceUsd: p.priceUsd,
        marketValueUsd: p.marketValueUsd,
        realizedGainUsd: p.realizedGainUsd,
        unrealizedGainUsd: p.unrealizedGainUsd,
        needsReview: p.realizedGainNeedsReview || p.unrealizedGainNeedsReview,
      }));
    const shortfall = result.issues.find(
      (i): i is InsufficientHoldingsIssue => i.kind === 'insufficient_holdings' && i.accountId === accountId,
    );
    const reported = input.reportedBalances.get(accountId) ?? null;
    return {
      accountId,
      lastUpdatedOn: input.computedAt,
      // The method in force for the account now (earlier disposals may have used an earlier election's).
      method: electedMethod(elections, accountId, input.computedAt),
      marketValueUsd: sum(assets.map((a) => a.marketValueUsd)),
      realizedGainUsd: sum(assets.map((a) => a.realizedGainUsd)),
      unrealizedGainUsd: sum(assets.map((a) => a.unrealizedGainUsd)),
      reportedBalances: reported,
      // A disagreement with source-reported balances is not an issue (no 422): the balances carry
      // the reconciliation and the account is marked for review (reconciliation.ts).
      issue: shortfall ? shortfallIssue(shortfall, input.entries) : null,
      assets,
    };
  });
}

function shortfallIssue(issue: InsufficientHoldingsIssue, entries: readonly LedgerEntry[]): SnapshotIssue {
  const entry = entries.find(
    (e) => e.accountId === issue.accountId && e.transactionId === issue.transactionId,
  );
  const what = entry
    ? `${entry.direction} ${canonicalDecimal(entry.amount)} ${issue.symbol} on ${entry.timestamp.toISOString()}`
    : issue.symbol;
  return {
    reason: 'inconsistent_history',
    detail:
      `The transaction history is inconsistent: transaction ${issue.transactionId} (${what}) disposes of ` +
      `${issue.missingQuantity} ${issue.symbol} more than the account held, so no honest cost basis exists. ` +
      'Transactions are probably missing from the history (a gap); import them or refresh the account.',
    transactionId: issue.transactionId,
    symbol: issue.symbol,
    missingQuantity: issue.missingQuantity,
  };
}
