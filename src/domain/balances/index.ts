/**
 * Balances: an account's holdings, basis, gains and consistency issue from its ledger (the
 * cost-basis engine over its transfer-linked accounts at the stored prices). Owns the numbers of
 * the balances endpoint, the portfolio summary and the wallets; never stores or reads them.
 */
export { computeBalanceSnapshots, type SnapshotInput } from './balance-snapshot.calculator.js';
export type { Snapshot, SnapshotAsset, SnapshotIssue } from './balance-snapshot.types.js';
export { SnapshotExclusionReason, snapshotExclusionReason } from './snapshot-exclusion.js';
export {
  DEFAULT_DUST_THRESHOLD,
  DUST_THRESHOLDS,
  dustThreshold,
  reconcileBalances,
  reconciliationReviewReason,
  type AssetReconciliation,
} from './reconciliation.js';
