import { setImmediate as nextTurn } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { BalanceSnapshotsRepository, type Snapshot } from '../repositories/balance-snapshots.repository.js';
import {
  CostBasisElectionsRepository,
  type ElectionInput,
  type StoredElection,
} from '../repositories/cost-basis-elections.repository.js';
import {
  LotSelectionsRepository,
  type LotSelectionInput,
  type StoredLotSelection,
} from '../repositories/lot-selections.repository.js';
import {
  lotSelectionKey,
  type BasisTransition,
  type LotSelection,
} from '../../../domain/cost-basis/index.js';
import {
  SafeHarborAllocationsRepository,
  type SafeHarborAllocationInput,
  type StoredSafeHarborAllocation,
} from '../repositories/safe-harbor-allocations.repository.js';
import { TransactionsRepository, type StoredTransaction } from '../repositories/transactions.repository.js';
import type { TransactionInput } from '../transaction-input.js';
import { LEDGER_CHUNK_ROWS } from '../ledger.service.js';

/**
 * The ledger's stores as the writer uses them (internal to the ledger: other modules go through
 * LedgerWriter and LedgerService). The methods that take a `manager` run inside the writer's
 * transaction, so transactions, snapshots and the account's state commit together.
 */
@Injectable()
export class LedgerStore {
  constructor(
    private readonly transactions: TransactionsRepository,
    private readonly snapshots: BalanceSnapshotsRepository,
    private readonly elections: CostBasisElectionsRepository,
    private readonly selections: LotSelectionsRepository,
    private readonly safeHarbor: SafeHarborAllocationsRepository,
  ) {}

  /** The tenant's confirmed safe-harbor allocation (docs/cost-basis.md, "Universal to per-wallet"); null: none. */
  safeHarborAllocation(
    tenantId: string,
    manager?: EntityManager,
  ): Promise<StoredSafeHarborAllocation | null> {
    return this.safeHarbor.find(tenantId, manager);
  }

  /** The confirmed allocation as the engine takes it (CostBasisOptions.transition); undefined: none. */
  safeHarborTransition(tenantId: string, manager?: EntityManager): Promise<BasisTransition | undefined> {
    return this.safeHarbor.transition(tenantId, manager);
  }

  /** Stores a confirmed allocation in the caller's transaction; null when the tenant already has one. */
  recordSafeHarborAllocation(
    tenantId: string,
    input: SafeHarborAllocationInput,
    manager: EntityManager,
  ): Promise<StoredSafeHarborAllocation | null> {
    return this.safeHarbor.insert(tenantId, input, manager);
  }

  /** The tenant's lot selections as the engine takes them, read inside the caller's transaction. */
  async lotSelectionsByDisposal(
    tenantId: string,
    manager?: EntityManager,
  ): Promise<Map<string, LotSelection>> {
    const stored = await this.selections.forTenant(tenantId, undefined, manager);
    // With the time it was recorded: the engine does not apply one recorded after its disposal.
    return new Map(
      stored.map((s) => [
        lotSelectionKey(s.accountId, s.transactionId),
        Object.assign([...s.lots], { recordedAt: s.recordedAt }),
      ]),
    );
  }

  /** Records a lot selection (replacing the disposal's earlier one) in the caller's transaction. */
  recordLotSelection(
    tenantId: string,
    input: LotSelectionInput,
    manager: EntityManager,
  ): Promise<StoredLotSelection> {
    return this.selections.replace(tenantId, input, manager);
  }

  deleteLotSelection(tenantId: string, id: string, manager: EntityManager): Promise<void> {
    return this.selections.delete(tenantId, id, manager);
  }

  /** The tenant's method elections, read inside the caller's transaction (the balances use them). */
  costBasisElections(tenantId: string, manager?: EntityManager): Promise<StoredElection[]> {
    return this.elections.forTenant(tenantId, manager);
  }

  /** Appends a method election in the caller's transaction (its balances are recomputed there too). */
  recordElection(tenantId: string, input: ElectionInput, manager: EntityManager): Promise<StoredElection> {
    return this.elections.insert(tenantId, input, manager);
  }

  /** The accounts linked to `accountIds` by own-account transfers, transitively (themselves included). */
  transferLinkedAccounts(
    tenantId: string,
    accountIds: readonly string[],
    extraTransferIds: readonly string[],
    manager?: EntityManager,
  ): Promise<string[]> {
    return this.transactions.transferLinkedAccounts(tenantId, accountIds, extraTransferIds, manager);
  }

  /**
   * The accounts' stored transactions, LEDGER_CHUNK_ROWS a query in key order with the event loop
   * given a turn between chunks, as LedgerService reads a ledger (issue 28: the write's one query of
   * a 30,000-row history held the request thread ~100 ms in the driver's row parsing). In
   * (account, transaction id) order; the engine sorts its entries itself, so no figure depends on it.
   */
  async storedTransactions(
    tenantId: string,
    accountIds: readonly string[],
    manager?: EntityManager,
  ): Promise<StoredTransaction[]> {
    const stored: StoredTransaction[] = [];
    for (const accountId of accountIds) {
      let after: { accountId: string; transactionId: string } | null = null;
      for (;;) {
        const rows = await this.transactions.keyPage(tenantId, accountId, after, LEDGER_CHUNK_ROWS, manager);
        stored.push(...rows);
        if (rows.length < LEDGER_CHUNK_ROWS) break;
        const last = rows[rows.length - 1]!;
        after = { accountId: last.accountId, transactionId: last.transactionId };
        // On PGlite a query may settle without an I/O turn: give timers and sockets theirs.
        await nextTurn();
      }
    }
    return stored;
  }

  symbolsOf(tenantId: string, accountIds: readonly string[]): Promise<string[]> {
    return this.transactions.symbolsOf(tenantId, accountIds);
  }

  upsertTransactions(
    tenantId: string,
    accountId: string,
    transactions: readonly TransactionInput[],
    manager: EntityManager,
    onBatch?: (written: number) => void,
  ): Promise<{ inserted: number; updated: number }> {
    return this.transactions.upsert(tenantId, accountId, transactions, manager, onBatch);
  }

  deleteTransactionsExcept(
    tenantId: string,
    accountId: string,
    keepIds: readonly string[],
    manager: EntityManager,
  ): Promise<number> {
    return this.transactions.deleteAllExcept(tenantId, accountId, keepIds, manager);
  }

  snapshotsOf(
    tenantId: string,
    accountIds: readonly string[],
    manager?: EntityManager,
  ): Promise<Map<string, Snapshot>> {
    return this.snapshots.findMany(tenantId, accountIds, manager);
  }

  replaceSnapshot(tenantId: string, snapshot: Snapshot, manager: EntityManager): Promise<void> {
    return this.snapshots.replace(tenantId, snapshot, manager);
  }
}
