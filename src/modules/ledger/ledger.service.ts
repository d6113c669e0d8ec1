import { setImmediate as nextTurn } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  encodeLedgerRows,
  joinEncodedLedgers,
  type EncodedLedger,
  type LedgerEntry,
  type LedgerRowFields,
} from '../../domain/cost-basis/index.js';
import type { DataSource, EntityManager } from 'typeorm';
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
  type LedgerKey,
  type LedgerPageRow,
  type StoredTransaction,
  type TransactionKeysetPosition,
  type TransactionRange,
} from './repositories/transactions.repository.js';
import { asBulkRead } from '../../database/bulk-lane.js';

/**
 * Rows per query when a whole ledger is read: at 500 the longest stall of a 30,000-row read was
 * 11 ms on PostgreSQL, against 49 ms at 2,000, for no slower a read (bench/main-thread-split.mjs).
 */
export const LEDGER_CHUNK_ROWS = 500;

/** A page row's entry fields, as toLedgerEntry maps a stored transaction (a missing price is '0'). */
const PAGE_ROW_FIELDS: LedgerRowFields<LedgerPageRow> = {
  accountId: (row) => row.account_id!,
  transactionId: (row) => row.transaction_id,
  symbol: (row) => row.symbol,
  direction: (row) => row.direction,
  amount: (row) => row.amount,
  priceUsd: (row) => row.price_usd ?? '0',
  feeUsd: (row) => row.fee_usd ?? undefined,
  transferId: (row) => row.transfer_id ?? undefined,
  timestampMs: (row) => row.occurred_ms,
};

/** A ledger read for the compute pool: encoded, and the symbols it holds. */
export interface EncodedLedgerRead {
  readonly ledger: EncodedLedger;
  readonly symbols: string[];
}

/**
 * The ledger's reads for other modules: the cost-basis engine's input, the stored balance
 * snapshots and the integrity checksum's rows. Plain data only.
 *
 * The cost-basis input serves every consumer that must agree with balances (the gains report,
 * Form 8949, portfolio summaries). Balances are computed by
 * `computeCostBasis(entries, { method: DEFAULT_COST_BASIS_METHOD })` over an account's transfer-linked accounts;
 * computing over `ledgerForTenant` gives every account the very same lots and disposals, so
 * filtering that result by accountId agrees with the account's balances to the last digit.
 *
 * A whole ledger is read LEDGER_CHUNK_ROWS rows a query in key order (keyset paging), the event
 * loop getting a turn between chunks, so that no request holds the thread for the whole history
 * (issue 28: one query of 30,000 rows held it 130–275 ms). All of a read's queries run in one
 * REPEATABLE READ, read-only transaction: a refresh committing meanwhile is wholly in or wholly
 * out, as it was with one query. The entries come in (accountId, transactionId byte) order; the
 * engine sorts them itself (sortForProcessing), so the order changes no figure.
 */
@Injectable()
export class LedgerService {
  constructor(
    private readonly transactions: TransactionsRepository,
    private readonly snapshots: BalanceSnapshotsRepository,
    private readonly elections: CostBasisElectionsRepository,
    private readonly selections: LotSelectionsRepository,
    private readonly safeHarbor: SafeHarborAllocationsRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
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
  ledgerForTenant(tenantId: string): Promise<LedgerEntry[]> {
    return this.consistently(async (manager) => {
      const entries: LedgerEntry[] = [];
      await this.readChunks(tenantId, null, manager, (chunk) => entries.push(...chunk));
      return entries;
    });
  }

  /**
   * The entries needed to compute one account exactly: its own and those of every account linked
   * to it by own-account transfers, transitively. Filter the engine's result by `accountId`.
   * Takes the account the caller has already loaded for this tenant (its 404 is the caller's), so
   * a request reads the account once.
   */
  ledgerForAccount(
    tenantId: string,
    account: { readonly id: string },
  ): Promise<{ accountIds: string[]; entries: LedgerEntry[] }> {
    return this.consistently(async (manager) => {
      const accountIds = await this.transactions.transferLinkedAccounts(tenantId, [account.id], [], manager);
      const entries: LedgerEntry[] = [];
      await this.readChunks(tenantId, accountIds, manager, (chunk) => entries.push(...chunk));
      return { accountIds, entries };
    });
  }

  /**
   * ledgerForTenant encoded for the compute pool (encodeLedger), each chunk as it arrives, so the
   * encoding is spread over the read's turns too; with the ledger's distinct symbols.
   */
  encodedLedgerForTenant(tenantId: string): Promise<EncodedLedgerRead> {
    return this.consistently((manager) => this.readEncoded(tenantId, null, manager));
  }

  /** ledgerForAccount encoded for the compute pool, as encodedLedgerForTenant. */
  encodedLedgerForAccount(
    tenantId: string,
    account: { readonly id: string },
  ): Promise<EncodedLedgerRead & { accountIds: string[] }> {
    return this.consistently(async (manager) => {
      const accountIds = await this.transactions.transferLinkedAccounts(tenantId, [account.id], [], manager);
      return { accountIds, ...(await this.readEncoded(tenantId, accountIds, manager)) };
    });
  }

  /**
   * As readChunks, each chunk encoded straight from its rows (encodedKeyPage: no account column
   * for one account's pages, the instant as milliseconds; no StoredTransaction, LedgerEntry or
   * Date per row): the same encoding as encodeLedger of readChunks' entries.
   */
  private async readEncoded(
    tenantId: string,
    accountIds: readonly string[] | null,
    manager: EntityManager,
  ): Promise<EncodedLedgerRead> {
    const parts: EncodedLedger[] = [];
    const symbols = new Set<string>();
    for (const accountId of accountIds ?? [null]) {
      const fields =
        accountId === null ? PAGE_ROW_FIELDS : { ...PAGE_ROW_FIELDS, accountId: () => accountId };
      let after: LedgerKey | null = null;
      for (;;) {
        const rows = await this.transactions.encodedKeyPage(
          tenantId,
          accountId,
          after,
          LEDGER_CHUNK_ROWS,
          manager,
        );
        if (rows.length > 0) {
          parts.push(encodeLedgerRows(rows, fields));
          let previous: string | undefined;
          for (const row of rows) {
            if (row.symbol !== previous) symbols.add((previous = row.symbol));
          }
        }
        if (rows.length < LEDGER_CHUNK_ROWS) break;
        const last = rows[rows.length - 1]!;
        after = { accountId: last.account_id ?? accountId!, transactionId: last.transaction_id };
        // On PGlite a query may settle without an I/O turn: give timers and sockets theirs.
        await nextTurn();
      }
    }
    return { ledger: joinEncodedLedgers(parts), symbols: [...symbols] };
  }

  /** The ledger of the tenant (accountIds null) or of the accounts, a chunk at a time, in key order. */
  private async readChunks(
    tenantId: string,
    accountIds: readonly string[] | null,
    manager: EntityManager,
    take: (chunk: LedgerEntry[]) => void,
  ): Promise<void> {
    for (const accountId of accountIds ?? [null]) {
      let after: LedgerKey | null = null;
      for (;;) {
        const rows = await this.transactions.keyPage(tenantId, accountId, after, LEDGER_CHUNK_ROWS, manager);
        if (rows.length > 0) take(rows.map(toLedgerEntry));
        if (rows.length < LEDGER_CHUNK_ROWS) break;
        const last = rows[rows.length - 1]!;
        after = { accountId: last.accountId, transactionId: last.transactionId };
        // On PGlite a query may settle without an I/O turn: give timers and sockets theirs.
        await nextTurn();
      }
    }
  }

  /** One consistent view for a read of several queries (see the class comment). */
  private consistently<T>(read: (manager: EntityManager) => Promise<T>): Promise<T> {
    return asBulkRead(() =>
      this.dataSource.transaction('REPEATABLE READ', async (manager) => {
        await manager.query('SET TRANSACTION READ ONLY');
        return read(manager);
      }),
    );
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
