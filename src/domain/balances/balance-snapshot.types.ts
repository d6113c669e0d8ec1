import type { CostBasisMethod } from '../cost-basis/index.js';

/** Why no honest cost basis exists for the account (balances answer 422 with it). */
export interface SnapshotIssue {
  readonly reason: 'inconsistent_history';
  readonly detail: string;
  /** The transaction that could not be covered, when one is to blame. */
  readonly transactionId?: string;
  readonly symbol: string;
  readonly missingQuantity?: string;
}

/** One asset of an account's balances. Decimals are exact canonical text. */
export interface SnapshotAsset {
  readonly symbol: string;
  readonly quantity: string;
  readonly costBasisUsd: string;
  readonly priceUsd: string | null;
  readonly marketValueUsd: string | null;
  readonly realizedGainUsd: string;
  readonly unrealizedGainUsd: string | null;
  readonly needsReview: boolean;
}

/** An account's balances as computed at `lastUpdatedOn`: what the balances endpoint serves. */
export interface Snapshot {
  readonly accountId: string;
  readonly lastUpdatedOn: Date;
  readonly method: CostBasisMethod;
  readonly marketValueUsd: string;
  readonly realizedGainUsd: string;
  readonly unrealizedGainUsd: string;
  readonly reportedBalances: Readonly<Record<string, string>> | null;
  readonly issue: SnapshotIssue | null;
  /** In byte order of the symbol. */
  readonly assets: readonly SnapshotAsset[];
}
