/**
 * Persist + snapshot, the refresh engine's last step: ONE short transaction writes the fetched
 * (or imported) transactions through the ledger, removes those a full history no longer has,
 * stores the balance snapshots of every transfer-linked account and sets the account's state.
 * The cost-basis computation runs before the transaction (see persist), and always in the compute
 * pool's worker threads (issue 28: the balances are recomputed from the whole transfer-linked
 * history on every write, a cost that grows with it), over the compact ledger encoding.
 */
import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock/clock.js';
import { MARKET_PRICES, type MarketPricesPort } from '../../../common/ports/market-prices.port.js';
import { reconcileBalances, reconciliationReviewReason } from '../../../domain/balances/index.js';
import { encodeLedger } from '../../../domain/cost-basis/index.js';
import { ComputePool, reviveSnapshots, selectionsData } from '../../compute/index.js';
import type { Snapshot } from '../repositories/balance-snapshots.repository.js';
import { toLedgerEntry, type StoredTransaction } from '../repositories/transactions.repository.js';
import { LedgerStore } from './ledger-store.js';
import type { AccountHistory } from './account-history.js';
import {
  RefreshStateRepository,
  type AbandonedImport,
  type AccountStateChange,
  type SyncAccount,
} from './refresh-state.repository.js';
import {
  ACCOUNT_EVENTS,
  NO_ACCOUNT_EVENTS,
  type AccountEvent,
  type AccountEventsPort,
} from '../../../common/ports/account-events.port.js';
import { balanceChanges } from './account-event-data.js';

export interface Refreshed {
  readonly status: 'refreshed';
  readonly inserted: number;
  readonly updated: number;
  readonly deleted: number;
}

/**
 * The write's lease was taken over before it could land (its holder was taken for gone, or its
 * lease lapsed): nothing was written; the new holder writes.
 */
export class LeaseLostError extends Error {
  constructor() {
    super("The account's refresh lease was taken over before this write landed; nothing was written.");
    this.name = 'LeaseLostError';
  }
}

export interface PersistOptions {
  /** The lease owner writing: the write lands only while it still holds the account's lease. */
  readonly owner: string;
  readonly onProgress?: (written: number) => void;
  /**
   * Keep the account's sync state as it is (syncStatus, lastError, lastSyncedAt, the failure
   * count): a refresh of an import-only account that is not `synced` (its last import did not
   * finish) revalues what is stored and must not say it synced.
   */
  readonly keepSyncState?: boolean;
  /** When the account is due again (the source's schedule, sources module): the writer does not schedule. */
  readonly nextRefreshAt: Date | null;
}

@Injectable()
export class HistoryWriter {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly state: RefreshStateRepository,
    private readonly ledger: LedgerStore,
    private readonly clock: Clock,
    @Inject(MARKET_PRICES) private readonly prices: MarketPricesPort,
    private readonly pool: ComputePool,
    @Optional() @Inject(ACCOUNT_EVENTS) events?: AccountEventsPort,
  ) {
    this.events = events ?? NO_ACCOUNT_EVENTS;
  }

  /** The outbox (webhooks module), written in the same transaction as the change. */
  private readonly events: AccountEventsPort;

  /**
   * Sets the account's state and records its events in one transaction (a failed refresh:
   * `account.sync_failed` or `account.reconnect_required`). The UPDATE takes the row lock first,
   * so the events of one account are stored in the order of its changes.
   */
  async writeState(
    tenantId: string,
    accountId: string,
    change: AccountStateChange,
    events: readonly AccountEvent[],
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await this.state.updateState(tenantId, accountId, change, manager);
      await this.events.record(events, manager);
    });
  }

  /**
   * Imports whose process died before they finished (RefreshStateRepository.resolveAbandonedImports):
   * each account says `error` with the reason and gets its `account.sync_failed` event (reason
   * `import_interrupted`), in one transaction; its lease is free again. Across tenants, or one account.
   */
  async resolveAbandonedImports(
    now: Date,
    account?: { tenantId: string; accountId: string },
  ): Promise<AbandonedImport[]> {
    return this.dataSource.transaction(async (manager) => {
      const resolved = await this.state.resolveAbandonedImports(now, manager, account);
      await this.events.record(
        resolved.map((abandoned) => ({
          type: 'account.sync_failed' as const,
          tenantId: abandoned.tenantId,
          accountId: abandoned.accountId,
          occurredAt: now,
          data: {
            accountId: abandoned.accountId,
            syncStatus: 'error',
            reason: 'import_interrupted',
            consecutiveFailures: abandoned.refreshFailures,
            // Nothing retries an import: the file is imported again.
            nextRetryAt: null,
            lastSyncedAt: abandoned.lastSyncedAt?.toISOString() ?? null,
          },
        })),
        manager,
      );
      return resolved;
    });
  }

  /**
   * Recomputes the balance snapshots of the given accounts (and everything linked to them) from
   * the stored transactions at current prices, inside one transaction; `beforeWrite` runs first
   * under the same row locks (e.g. deleting an account, recording a method election).
   * `bumpDataVersions`: the accounts' data versions move (the balances' inputs changed).
   */
  async recomputeLinked(
    tenantId: string,
    accountIds: readonly string[],
    beforeWrite?: (manager: EntityManager) => Promise<void>,
    options: { bumpDataVersions?: boolean } = {},
  ): Promise<void> {
    const linked = await this.ledger.transferLinkedAccounts(tenantId, accountIds, []);
    const pricesUsd = await this.latestPrices(await this.ledger.symbolsOf(tenantId, linked), []);
    const now = this.clock.now();
    await this.dataSource.transaction(async (manager) => {
      await this.state.lockForUpdate(tenantId, linked, manager);
      await beforeWrite?.(manager);
      const remaining = (await this.ledger.transferLinkedAccounts(tenantId, linked, [], manager)).filter(
        (id) => linked.includes(id),
      );
      const surviving = await this.existingAccounts(tenantId, remaining, manager);
      await this.writeSnapshots(tenantId, surviving, new Map(), pricesUsd, now, manager);
      // A refresh that computed its balances before this (e.g. under the previous elections) then
      // sees the version move and computes them again inside its own transaction.
      if (options.bumpDataVersions) {
        for (const id of surviving) await this.state.bumpDataVersion(tenantId, id, manager);
      }
    });
  }

  /**
   * The one write: transactions, removal of vanished ones (full histories), balance snapshots of
   * every transfer-linked account, and the account's state, all in one short transaction.
   *
   * The balances are computed before the transaction, from the stored transactions merged with
   * the fetched ones, so the cost-basis engine's CPU time never holds the database (on PGlite,
   * the only session). Under the row locks the linked accounts' data versions are compared with
   * what the computation read; if another account of the group was written meanwhile, the
   * balances are computed again inside the transaction from what is stored.
   */
  async persist(
    account: SyncAccount,
    fetched: AccountHistory,
    now: Date,
    options: PersistOptions,
  ): Promise<Refreshed> {
    const { owner, onProgress, keepSyncState = false } = options;
    const { tenantId, id: accountId } = account;
    const transferIds = [
      ...new Set(fetched.transactions.flatMap((tx) => (tx.transferId ? [tx.transferId] : []))),
    ];
    const reported = fetched.reportedBalances ? Object.fromEntries(fetched.reportedBalances) : null;
    // Outside the transaction: what the group holds now, prices (another module's store: never
    // read through another connection inside the transaction) and the new balances.
    const linked = await this.ledger.transferLinkedAccounts(tenantId, [accountId], transferIds);
    const versionsRead = await this.state.versions(tenantId, linked);
    const stored = await this.ledger.storedTransactions(tenantId, linked);
    const pricesUsd = await this.latestPrices(
      stored.map((tx) => tx.symbol),
      fetched.transactions.map((tx) => tx.symbol),
    );
    const group = [...versionsRead.keys()].sort();
    const precomputed = await this.computeSnapshots(
      tenantId,
      group,
      mergeHistory(stored, accountId, fetched),
      new Map([[accountId, reported]]),
      pricesUsd,
      now,
    );

    let counts = { inserted: 0, updated: 0, deleted: 0 };
    await this.dataSource.transaction(async (manager) => {
      const linkedNow = await this.ledger.transferLinkedAccounts(tenantId, [accountId], transferIds, manager);
      const versionsNow = await this.state.lockForUpdate(tenantId, linkedNow, manager);
      // Under the row lock: a holder whose lease was taken over meanwhile writes nothing.
      if (!(await this.state.holdsLease(tenantId, accountId, owner, manager))) throw new LeaseLostError();
      const written = await this.ledger.upsertTransactions(
        tenantId,
        accountId,
        fetched.transactions,
        manager,
        onProgress,
      );
      const deleted =
        fetched.mode === 'full'
          ? await this.ledger.deleteTransactionsExcept(
              tenantId,
              accountId,
              fetched.transactions.map((tx) => tx.transactionId),
              manager,
            )
          : 0;
      counts = { ...written, deleted };
      // Accounts linked before or after the write both need new balances (a removed transfer unlinks).
      const linkedAfter = await this.ledger.transferLinkedAccounts(tenantId, [accountId], [], manager);
      const affected = [...new Set([...versionsNow.keys(), ...linkedAfter])].sort();
      const unchanged =
        sameVersions(versionsRead, versionsNow) &&
        affected.every((id) => precomputed.some((snapshot) => snapshot.accountId === id));
      const previous = await this.ledger.snapshotsOf(tenantId, affected, manager);
      let snapshots: readonly Snapshot[];
      if (unchanged) {
        snapshots = precomputed.filter((s) => affected.includes(s.accountId));
        for (const snapshot of snapshots) await this.ledger.replaceSnapshot(tenantId, snapshot, manager);
      } else {
        snapshots = await this.writeSnapshots(
          tenantId,
          affected,
          new Map([[accountId, reported]]),
          pricesUsd,
          now,
          manager,
        );
      }
      await this.state.bumpDataVersion(tenantId, accountId, manager);
      const review = reviewOf(snapshots.find((snapshot) => snapshot.accountId === accountId));
      await this.state.updateState(
        tenantId,
        accountId,
        {
          ...(keepSyncState
            ? {}
            : {
                syncStatus: 'synced' as const,
                connectionStatus: 'connected' as const,
                balanceSource: fetched.reportedBalances
                  ? ('source_reported' as const)
                  : ('calculated' as const),
                lastSyncedAt: now,
                lastError: null,
                refreshFailures: 0,
              }),
          nextRefreshAt: options.nextRefreshAt,
          lastRefreshAttemptAt: now,
          // Reconciliation: set (keeping when it was first seen) or cleared with every write.
          reviewReason: review,
          reviewSince: review === null ? null : (account.reviewSince ?? now),
        },
        manager,
      );
      const events = refreshEvents(tenantId, accountId, now, counts, snapshots, previous, fetched);
      // A revaluation that keeps the state says nothing synced: only what changed.
      await this.events.record(
        keepSyncState ? events.filter((event) => event.type !== 'account.synced') : events,
        manager,
      );
    });
    return { status: 'refreshed', ...counts };
  }

  /**
   * Snapshots of `accountIds` from the given transactions; reported balances default to the stored
   * ones. computeBalanceSnapshots runs in the compute pool on the encoded entries (the same
   * function over equal entries: the same figures); the request thread only encodes and waits.
   */
  private async computeSnapshots(
    tenantId: string,
    accountIds: readonly string[],
    transactions: readonly StoredTransaction[],
    freshReported: ReadonlyMap<string, Readonly<Record<string, string>> | null>,
    pricesUsd: ReadonlyMap<string, string>,
    now: Date,
    manager?: EntityManager,
  ): Promise<Snapshot[]> {
    if (accountIds.length === 0) return [];
    const previous = await this.ledger.snapshotsOf(tenantId, accountIds, manager);
    const reported = new Map(accountIds.map((id) => [id, previous.get(id)?.reportedBalances ?? null]));
    for (const [id, balances] of freshReported) reported.set(id, balances);
    const computed = await this.pool.run({
      kind: 'balanceSnapshots',
      input: {
        elections: await this.ledger.costBasisElections(tenantId, manager),
        selections: selectionsData(await this.ledger.lotSelectionsByDisposal(tenantId, manager)),
        transition: await this.ledger.safeHarborTransition(tenantId, manager),
        ledger: encodeLedger(transactions.map(toLedgerEntry)),
        accountIds,
        pricesUsd: [...pricesUsd],
        reportedBalances: [...reported],
        computedAt: now,
      },
    });
    return reviveSnapshots(computed);
  }

  /** Computes and stores the snapshots of `accountIds` from what is stored, inside `manager`'s transaction. */
  private async writeSnapshots(
    tenantId: string,
    accountIds: readonly string[],
    freshReported: ReadonlyMap<string, Readonly<Record<string, string>> | null>,
    pricesUsd: ReadonlyMap<string, string>,
    now: Date,
    manager: EntityManager,
  ): Promise<Snapshot[]> {
    const transactions = await this.ledger.storedTransactions(tenantId, accountIds, manager);
    const computed = await this.computeSnapshots(
      tenantId,
      accountIds,
      transactions,
      freshReported,
      pricesUsd,
      now,
      manager,
    );
    for (const snapshot of computed) await this.ledger.replaceSnapshot(tenantId, snapshot, manager);
    return computed;
  }

  private async existingAccounts(
    tenantId: string,
    accountIds: readonly string[],
    manager: EntityManager,
  ): Promise<string[]> {
    const present: string[] = [];
    for (const id of accountIds) if (await this.state.findById(tenantId, id, manager)) present.push(id);
    return present.sort();
  }

  private async latestPrices(
    symbols: readonly string[],
    more: readonly string[],
  ): Promise<Map<string, string>> {
    const wanted = [...new Set([...symbols, ...more])];
    if (wanted.length === 0) return new Map();
    const stored = await this.prices.latestPricesUsd(wanted);
    return new Map([...stored].map(([symbol, price]) => [symbol, price.priceUsd]));
  }
}

/** The stored transactions of the group with the account's fetched history applied (as the write will). */
function mergeHistory(
  stored: readonly StoredTransaction[],
  accountId: string,
  fetched: AccountHistory,
): StoredTransaction[] {
  const incoming = new Map(fetched.transactions.map((tx) => [tx.transactionId, tx]));
  const kept = stored.filter(
    (tx) => tx.accountId !== accountId || (fetched.mode === 'incremental' && !incoming.has(tx.transactionId)),
  );
  return [...kept, ...fetched.transactions.map((tx) => ({ ...tx, accountId }))];
}

/**
 * Why the account needs review: its source-reported balances (as the snapshot keeps them) disagree
 * with its transactions beyond dust (docs/sources.md, "Reconciliation"); null when they agree or
 * the source reports none.
 */
function reviewOf(snapshot: Snapshot | undefined): string | null {
  if (!snapshot?.reportedBalances) return null;
  return reconciliationReviewReason(reconcileBalances(snapshot.reportedBalances, snapshot.assets));
}

/**
 * The events of a stored refresh or import (docs/events.md): `account.synced` always,
 * `transactions.updated` when rows were added, changed or removed, `balances.updated` for every
 * account of the group whose quantities, cost basis or realized gains changed.
 */
function refreshEvents(
  tenantId: string,
  accountId: string,
  now: Date,
  counts: { inserted: number; updated: number; deleted: number },
  snapshots: readonly Snapshot[],
  previous: ReadonlyMap<string, Snapshot>,
  fetched: AccountHistory,
): AccountEvent[] {
  const at = now.toISOString();
  const events: AccountEvent[] = [
    {
      type: 'account.synced',
      tenantId,
      accountId,
      occurredAt: now,
      data: {
        accountId,
        syncStatus: 'synced',
        lastSyncedAt: at,
        balanceSource: fetched.reportedBalances ? 'source_reported' : 'calculated',
        transactions: { added: counts.inserted, changed: counts.updated, removed: counts.deleted },
      },
    },
  ];
  if (counts.inserted + counts.updated + counts.deleted > 0)
    events.push({
      type: 'transactions.updated',
      tenantId,
      accountId,
      occurredAt: now,
      data: {
        accountId,
        added: counts.inserted,
        changed: counts.updated,
        removed: counts.deleted,
        mode: fetched.mode,
      },
    });
  for (const snapshot of [...snapshots].sort((a, b) => (a.accountId < b.accountId ? -1 : 1))) {
    const changes = balanceChanges(previous.get(snapshot.accountId), snapshot);
    if (changes.length === 0) continue;
    events.push({
      type: 'balances.updated',
      tenantId,
      accountId: snapshot.accountId,
      occurredAt: now,
      data: {
        accountId: snapshot.accountId,
        computedAt: snapshot.lastUpdatedOn.toISOString(),
        method: snapshot.method,
        ...(snapshot.accountId === accountId ? {} : { causedBy: accountId }),
        assets: changes,
      },
    });
  }
  return events;
}

function sameVersions(read: ReadonlyMap<string, number>, now: ReadonlyMap<string, number>): boolean {
  return read.size === now.size && [...read].every(([id, version]) => now.get(id) === version);
}
