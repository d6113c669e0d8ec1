import type { TransactionInput } from '../transaction-input.js';

/** An account's history as a source fetched it (or a file imported it), handed to the writer. */
export interface AccountHistory {
  readonly transactions: readonly TransactionInput[];
  /** `full`: the source's whole history (stored transactions it no longer has are removed). */
  readonly mode: 'full' | 'incremental';
  /** Balances the source reports itself (reconciliation); null when it reports none. */
  readonly reportedBalances: ReadonlyMap<string, string> | null;
}
