/**
 * Ledger (design §5): the stored transactions and balance snapshots of accounts, the cost-basis
 * engine's input, and the balances read cache.
 *
 * Owns: the `transaction`, `balance_snapshot(_asset)` and `cost_basis_election`, `lot_selection` and `safe_harbor_allocation(_lot)` tables. Writes come only through
 * LedgerWriter (the sources module's refresh engine); every other module reads through
 * LedgerService. The partner balances and transactions endpoints and the cached-balances fast
 * path sit on top, in ./api (LedgerApiModule). Never: fetches from a source, opens a transaction
 * of its own for a write, or queries without a tenant id.
 */
import { Module } from '@nestjs/common';
import { BalancesReadCache } from './balances/balances-read.cache.js';
import { LedgerWriter } from './ledger-writer.service.js';
import { LedgerService } from './ledger.service.js';
import { BalanceSnapshotsRepository } from './repositories/balance-snapshots.repository.js';
import { CostBasisElectionsRepository } from './repositories/cost-basis-elections.repository.js';
import { LotSelectionsRepository } from './repositories/lot-selections.repository.js';
import { SafeHarborAllocationsRepository } from './repositories/safe-harbor-allocations.repository.js';
import { TransactionsRepository } from './repositories/transactions.repository.js';

@Module({
  providers: [
    TransactionsRepository,
    BalanceSnapshotsRepository,
    CostBasisElectionsRepository,
    LotSelectionsRepository,
    SafeHarborAllocationsRepository,
    BalancesReadCache,
    LedgerService,
    LedgerWriter,
  ],
  exports: [LedgerService, LedgerWriter, BalancesReadCache],
})
export class LedgerModule {}
