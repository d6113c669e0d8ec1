import type { Snapshot } from './balance-snapshot.types.js';

/**
 * Why an account's balances have no honest figures. The values are the API's `reason` /
 * `unavailable_reason` in the portfolio summary and the wallets.
 */
export enum SnapshotExclusionReason {
  /** No snapshot yet: the account has not been refreshed since it was linked. */
  NoBalancesYet = 'no_balances_yet',
  /** The snapshot carries an issue (a gap in the history, or reported balances that disagree). */
  InconsistentHistory = 'inconsistent_history',
}

/**
 * The balances endpoint's rule (it answers 422 in both cases), shared by every figure built on the
 * snapshots: null when the snapshot can be used.
 */
export function snapshotExclusionReason(snapshot: Snapshot | undefined): SnapshotExclusionReason | null {
  if (!snapshot) return SnapshotExclusionReason.NoBalancesYet;
  if (snapshot.issue) return SnapshotExclusionReason.InconsistentHistory;
  return null;
}
