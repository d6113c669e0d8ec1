/**
 * The ledger's public face: what other modules may import. Services hand out plain data
 * (StoredTransaction, Snapshot, LedgerEntry), never entities. The HTTP API is the account-data module
 * (../account-data/index.ts), which sits above the ledger.
 */
export { LedgerModule } from './ledger.module.js';
export { LedgerService, type EncodedLedgerRead } from './ledger.service.js';
export { LedgerWriter } from './writer/ledger-writer.service.js';
export { LEASE_MS } from './writer/lease-timing.js';
export type { AccountHistory } from './writer/account-history.js';
export { LeaseLostError, type PersistOptions, type Refreshed } from './writer/history-writer.js';
export {
  RefreshStateRepository,
  type AbandonedImport,
  type AccountStateChange,
  type SyncAccount,
} from './writer/refresh-state.repository.js';
export { LEASE_HOLDER_LOCK_SPACE, LeaseHolders } from './writer/lease-holders.js';
export { BalancesReadCache, type BalancesMemo } from './balances/balances-read.cache.js';
export type { TransactionInput } from './transaction-input.js';
export type { Snapshot, SnapshotAsset } from './repositories/balance-snapshots.repository.js';
export type { ElectionInput, StoredElection } from './repositories/cost-basis-elections.repository.js';
export type { LotSelectionInput, StoredLotSelection } from './repositories/lot-selections.repository.js';
export type {
  SafeHarborAllocationInput,
  StoredSafeHarborAllocation,
} from './repositories/safe-harbor-allocations.repository.js';
export {
  toLedgerEntry,
  type ChecksumFilters,
  type StoredTransaction,
  type TransactionRange,
} from './repositories/transactions.repository.js';
