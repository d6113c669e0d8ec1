/**
 * Ledger (design §5): the stored transactions and balance snapshots of accounts, the cost-basis
 * engine's input, and the balances read cache.
 *
 * Owns: the `transaction`, `balance_snapshot(_asset)` and `cost_basis_election`, `lot_selection` and `safe_harbor_allocation(_lot)` tables. Also the account's write
 * state (refresh lease, data version, sync-state columns: writer/refresh-state.repository.ts).
 * Every write that changes balances comes through LedgerWriter (writer/): it takes the lease, runs
 * the one transaction, recomputes the balances and clears the balances read cache; every other
 * module reads through LedgerService. The sources module fetches and hands the history over; the
 * partner endpoints and the cached-balances fast path are the account-data module, above.
 * Never: fetches from a source, decides when an account is due, imports a module above it, or
 * queries without a tenant id.
 */
import { Module } from '@nestjs/common';
import { ComputeModule } from '../compute/index.js';
import { MarketModule } from '../market/index.js';
import { BalancesReadCache } from './balances/balances-read.cache.js';
import { LedgerService } from './ledger.service.js';
import { BalanceSnapshotsRepository } from './repositories/balance-snapshots.repository.js';
import { CostBasisElectionsRepository } from './repositories/cost-basis-elections.repository.js';
import { LotSelectionsRepository } from './repositories/lot-selections.repository.js';
import { SafeHarborAllocationsRepository } from './repositories/safe-harbor-allocations.repository.js';
import { TransactionsRepository } from './repositories/transactions.repository.js';
import { HistoryWriter } from './writer/history-writer.js';
import { LeaseHolders } from './writer/lease-holders.js';
import { LedgerStore } from './writer/ledger-store.js';
import { LedgerWriter } from './writer/ledger-writer.service.js';
import { RefreshStateRepository } from './writer/refresh-state.repository.js';

@Module({
  // The writer values balances at the stored prices (the MARKET_PRICES port) and computes them in
  // the compute pool (ComputeModule imports no module: no cycle).
  imports: [ComputeModule, MarketModule],
  providers: [
    TransactionsRepository,
    BalanceSnapshotsRepository,
    CostBasisElectionsRepository,
    LotSelectionsRepository,
    SafeHarborAllocationsRepository,
    BalancesReadCache,
    LedgerService,
    LeaseHolders,
    RefreshStateRepository,
    LedgerStore,
    HistoryWriter,
    LedgerWriter,
  ],
  exports: [LedgerService, LedgerWriter, RefreshStateRepository, LeaseHolders, BalancesReadCache],
})
export class LedgerModule {}
