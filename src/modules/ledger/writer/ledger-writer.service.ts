/**
 * The ledger's one writer (design §5, docs/modules.md): every write that changes balances comes
 * through here. It takes the account's refresh lease, runs the one database transaction (with
 * HistoryWriter: transactions, snapshots of every transfer-linked account, the account's state and
 * its events), recomputes the balances (cost basis, lots) and clears the balances read cache after
 * every write, failed or not. Callers: the sources module's refresh engine (a fetched or imported
 * history), accounts (deletion), cost-basis (elections, lot selections, the safe-harbor allocation).
 * Never: fetches from a source or decides when an account is due (its callers do).
 */
import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DomainError, ErrorCode } from '../../../common/errors/domain-error.js';
import { BalancesReadCache } from '../balances/balances-read.cache.js';
import type { ElectionInput, StoredElection } from '../repositories/cost-basis-elections.repository.js';
import type { LotSelectionInput, StoredLotSelection } from '../repositories/lot-selections.repository.js';
import type {
  SafeHarborAllocationInput,
  StoredSafeHarborAllocation,
} from '../repositories/safe-harbor-allocations.repository.js';
import type { AccountHistory } from './account-history.js';
import { HistoryWriter, type PersistOptions, type Refreshed } from './history-writer.js';
import { LedgerStore } from './ledger-store.js';
import { LEASE_MS } from './lease-timing.js';
import {
  RefreshStateRepository,
  type AbandonedImport,
  type AccountStateChange,
  type SyncAccount,
} from './refresh-state.repository.js';
import type { AccountEvent } from '../../../common/ports/account-events.port.js';

/** The 409 of a second confirmation of a tenant's safe-harbor allocation. */
const SAFE_HARBOR_CONFIRMED = () =>
  new DomainError(
    ErrorCode.Conflict,
    'The safe-harbor allocation of this tenant is already confirmed; it is fixed once confirmed.',
  );

@Injectable()
export class LedgerWriter {
  private readonly logger = new Logger(LedgerWriter.name);

  constructor(
    private readonly writer: HistoryWriter,
    private readonly store: LedgerStore,
    private readonly state: RefreshStateRepository,
    private readonly readCache: BalancesReadCache,
  ) {}

  /**
   * Takes the account's lease for `owner` (RefreshStateRepository.claimLease). When it is held by
   * an import whose holder is gone or whose lease lapsed, that import is resolved first (the account
   * says it did not finish) and the lease taken then. Null: someone holds it.
   */
  async takeLease(
    tenantId: string,
    accountId: string,
    owner: string,
    now: Date,
    options: { from?: string; importing?: string } = {},
  ): Promise<SyncAccount | null> {
    const until = new Date(now.getTime() + LEASE_MS);
    const account = await this.state.claimLease(tenantId, accountId, owner, now, until, options);
    if (account) return account;
    const [abandoned] = await this.resolveAbandonedImports(now, { tenantId, accountId });
    if (!abandoned) return null;
    return this.state.claimLease(tenantId, accountId, owner, now, until, options);
  }

  /**
   * Gives the lease back after a refresh or import, whatever it wrote (history, failure state,
   * pending state): the balances read cache is cleared first, so this instance never serves the
   * account as it was before.
   */
  async releaseLease(tenantId: string, accountId: string, owner: string): Promise<void> {
    this.readCache.invalidateAll();
    await this.state.releaseLease(tenantId, accountId, owner);
  }

  /**
   * Stores a fetched (or imported) history: the one write of a refresh or import, under the lease
   * `options.owner` holds (LeaseLostError when it was taken over: nothing written).
   */
  async writeHistory(
    account: SyncAccount,
    history: AccountHistory,
    now: Date,
    options: PersistOptions,
  ): Promise<Refreshed> {
    try {
      return await this.writer.persist(account, history, now, options);
    } finally {
      this.readCache.invalidateAll();
    }
  }

  /** Sets the account's state and records its events in one transaction (a failed refresh). */
  async writeState(
    tenantId: string,
    accountId: string,
    change: AccountStateChange,
    events: readonly AccountEvent[],
  ): Promise<void> {
    await this.writer.writeState(tenantId, accountId, change, events);
  }

  /**
   * Imports whose process died before they finished: each account says `error` and is free again
   * (HistoryWriter.resolveAbandonedImports); logged here. Across tenants, or one account.
   */
  async resolveAbandonedImports(
    now: Date,
    account?: { tenantId: string; accountId: string },
  ): Promise<AbandonedImport[]> {
    const resolved = await this.writer.resolveAbandonedImports(now, account);
    for (const abandoned of resolved)
      this.logger.warn(
        { accountId: abandoned.accountId, tenantId: abandoned.tenantId },
        `An import did not finish (its process stopped); the account says so: ${abandoned.lastError}`,
      );
    return resolved;
  }

  /**
   * Recomputes the balance snapshots of the given accounts (and everything linked to them) from
   * the stored transactions at current prices, in one transaction; `beforeWrite` runs first under
   * the same row locks (e.g. deleting an account).
   */
  async recomputeLinked(
    tenantId: string,
    accountIds: readonly string[],
    beforeWrite?: (manager: EntityManager) => Promise<void>,
    options: { bumpDataVersions?: boolean } = {},
  ): Promise<void> {
    try {
      await this.writer.recomputeLinked(tenantId, accountIds, beforeWrite, options);
    } finally {
      this.readCache.invalidateAll();
    }
  }

  /**
   * Records a method election and recomputes the balances of `accountIds` (and everything linked
   * to them) under it, in one transaction: the balances never show a method not in force.
   */
  async recordCostBasisElection(
    tenantId: string,
    input: ElectionInput,
    accountIds: readonly string[],
  ): Promise<StoredElection> {
    let stored: StoredElection | null = null;
    await this.recomputeLinked(
      tenantId,
      accountIds,
      async (manager) => {
        stored = await this.store.recordElection(tenantId, input, manager);
      },
      { bumpDataVersions: true },
    );
    return stored!;
  }

  /**
   * Records a lot selection (docs/cost-basis.md, "Specific identification") and recomputes the
   * balances of its account (and everything linked to it) under it, in one transaction.
   */
  async recordLotSelection(tenantId: string, input: LotSelectionInput): Promise<StoredLotSelection> {
    let stored: StoredLotSelection | null = null;
    await this.recomputeLinked(
      tenantId,
      [input.accountId],
      async (manager) => {
        stored = await this.store.recordLotSelection(tenantId, input, manager);
      },
      { bumpDataVersions: true },
    );
    return stored!;
  }

  /** Deletes a lot selection and recomputes its account's balances without it, in one transaction. */
  async deleteLotSelection(tenantId: string, selection: StoredLotSelection): Promise<void> {
    await this.recomputeLinked(
      tenantId,
      [selection.accountId],
      (manager) => this.store.deleteLotSelection(tenantId, selection.id, manager),
      { bumpDataVersions: true },
    );
  }

  /**
   * Stores the tenant's confirmed safe-harbor allocation (docs/cost-basis.md, "Universal to
   * per-wallet") and recomputes the balances of `accountIds` (and everything linked to them) from
   * it, in one transaction. A 409 when the tenant already has one (nothing is written then).
   */
  async recordSafeHarborAllocation(
    tenantId: string,
    input: SafeHarborAllocationInput,
    accountIds: readonly string[],
  ): Promise<StoredSafeHarborAllocation> {
    let stored: StoredSafeHarborAllocation | null = null;
    await this.recomputeLinked(
      tenantId,
      accountIds,
      async (manager) => {
        stored = await this.store.recordSafeHarborAllocation(tenantId, input, manager);
        if (!stored) throw SAFE_HARBOR_CONFIRMED();
      },
      { bumpDataVersions: true },
    );
    return stored!;
  }
}
