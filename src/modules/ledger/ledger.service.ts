import { Injectable } from '@nestjs/common';
import type { LedgerEntry } from '../../domain/cost-basis/index.js';
import type { EntityManager } from 'typeorm';
import { BalanceSnapshotsRepository, type Snapshot } from './repositories/balance-snapshots.repository.js';
import {
  CostBasisElectionsRepository,
  type StoredElection,
} from './repositories/cost-basis-elections.repository.js';
import {
  LotSelectionsRepository,
  type StoredLotSelection,
} from './repositories/lot-selections.repository.js';
import { lotSelectionKey, type BasisTransition, type LotSelection } from '../../domain/cost-basis/index.js';
import {
  SafeHarborAllocationsRepository,
  type StoredSafeHarborAllocation,
} from './repositories/safe-harbor-allocations.repository.js';
import {
  toLedgerEntry,
  TransactionsRepository,
  type StoredTransaction,
  type TransactionKeysetPosition,
  type TransactionRange,
} from './repositories/transactions.repository.js';

/**
 * The ledger's reads for other modules: the cost-basis engine's input, the stored balance
 * snapshots and the integrity checksum's rows. Plain data only.
 *
 * The cost-basis input serves every consumer that must agree with balances (the gains report,
 * Form 8949, portfolio summaries). Balances are computed by
 * `computeCostBasis(entries, { method: DEFAULT_COST_BASIS_METHOD })` over an account's transfer-linked accounts;
 * computing over `ledgerForTenant` gives every account the very same lots and disposals, so
 * filtering that result by accountId agrees with the account's balances to the last digit.
 */
@Injectable()
export class LedgerService {
  constructor(
    private readonly transactions: TransactionsRepository,
    private readonly snapshots: BalanceSnapshotsRepository,
    private readonly elections: CostBasisElectionsRepository,
    private readonly selections: LotSelectionsRepository,
    private readonly safeHarbor: SafeHarborAllocationsRepository,
  ) {}

  /** The tenant's lot selections (optionally one account's), in recording order. */
  lotSelections(
    tenantId: string,
    accountId?: string,
    manager?: EntityManager,
  ): Promise<StoredLotSelection[]> {
    return this.selections.forTenant(tenantId, accountId, manager);
  }

  findLotSelection(tenantId: string, id: string): Promise<StoredLotSelection | null> {
    return this.selections.findById(tenantId, id);
  }

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

  /** The tenant's lot selections as the engine takes them (CostBasisOptions.selections). */
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

  /** The tenant's cost-basis method elections (tenant-wide and per account), in recording order. */
  costBasisElections(tenantId: string, manager?: EntityManager): Promise<StoredElection[]> {
    return this.elections.forTenant(tenantId, manager);
  }

  /** Every ledger entry of the tenant (all accounts). */
  async ledgerForTenant(tenantId: string): Promise<LedgerEntry[]> {
    return (await this.transactions.forTenant(tenantId)).map(toLedgerEntry);
  }

  /**
   * The entries needed to compute one account exactly: its own and those of every account linked
   * to it by own-account transfers, transitively. Filter the engine's result by `accountId`.
   * Takes the account the caller has already loaded for this tenant (its 404 is the caller's), so
   * a request reads the account once.
   */
  async ledgerForAccount(
    tenantId: string,
    account: { readonly id: string },
  ): Promise<{ accountIds: string[]; entries: LedgerEntry[] }> {
    const accountIds = await this.transactions.transferLinkedAccounts(tenantId, [account.id], []);
    const entries = (await this.transactions.forAccounts(tenantId, accountIds)).map(toLedgerEntry);
    return { accountIds, entries };
  }

  /** The account's transactions in (occurredAt, transactionId) order; keyset paging when `limit` is given. */
  transactionsInRange(
    tenantId: string,
    accountId: string,
    range: TransactionRange,
    after: TransactionKeysetPosition | null,
    limit: number | null,
  ): Promise<StoredTransaction[]> {
    return this.transactions.listRange(tenantId, accountId, range, after, limit);
  }

  /** The stored balance snapshot of one account; null when it has none yet. */
  snapshotOf(tenantId: string, accountId: string): Promise<Snapshot | null> {
    return this.snapshots.find(tenantId, accountId);
  }

  /** The stored balance snapshots of the given accounts, by account id (accounts without one are absent). */
  snapshotsOf(tenantId: string, accountIds: readonly string[]): Promise<Map<string, Snapshot>> {
    return this.snapshots.findMany(tenantId, accountIds);
  }
}
