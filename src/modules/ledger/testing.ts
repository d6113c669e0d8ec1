/**
 * For tests only (the lint rule lets test/ import it, never src/): the ledger's repositories, to
 * check what was stored without going through a service.
 */
export { BalanceSnapshotsRepository } from './repositories/balance-snapshots.repository.js';
export { TransactionsRepository } from './repositories/transactions.repository.js';
export { LEDGER_CHUNK_ROWS } from './ledger.service.js';
