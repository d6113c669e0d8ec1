/**
 * The refresh engine (design §5): fetches an account's history from its source and replaces the
 * account's data and balances in one database transaction.
 *
 * - One refresh per account at a time across instances: a lease on the account row, taken with
 *   one atomic UPDATE. Within one instance, concurrent callers for the same account share the
 *   running refresh, so the connector runs once.
 * - The connector runs outside any transaction (PGlite is one session; a transaction held open
 *   during network I/O would stall every request). Then ONE short transaction upserts the
 *   transactions, removes those the source no longer reports (full histories), recomputes the
 *   balance snapshots of every account linked by transfers and sets the state.
 * - A failed refresh keeps the old data and only sets the state: `reconnect_required` when the
 *   source rejected the authorization, `error` otherwise.
 * Never: decides whether a refresh is due (callers do: AccountDataService, the scheduler, admin).
 */
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock/clock.js';
import { DomainError, ErrorCode } from '../../../common/errors/domain-error.js';
import { BalancesReadCache } from '../balances/balances-read.cache.js';
import { MARKET_PRICES, type MarketPricesPort } from '../../../common/ports/market-prices.port.js';
import { computeBalanceSnapshots } from '../../../domain/balances/index.js';
import { SyncMetrics } from '../../metrics/sync-metrics.js';
import { ConnectorRegistry } from '../connectors/connector.registry.js';
import {
  SourceAuthorizationError,
  SourceUnavailableError,
  type ConnectorResult,
  type SourceTransaction,
} from '../connectors/source-connector.js';
import {
  canonicalSourceTransaction,
  checkSourceTransaction,
} from '../connectors/source-transaction.rules.js';
import { CredentialsCipher } from '../credentials/credentials-cipher.js';
import type { AccountEntity } from '../entities/account.entity.js';
import { AccountsRepository } from '../repositories/accounts.repository.js';
import { BalanceSnapshotsRepository, type Snapshot } from '../repositories/balance-snapshots.repository.js';
import {
  toLedgerEntry,
  TransactionsRepository,
  type StoredTransaction,
} from '../repositories/transactions.repository.js';

/** Data younger than this is fresh: forceRefresh returns the cache, the scheduler leaves it alone. */
export const STALE_AFTER_MS = 30 * 60_000;
/** Default connector timeout (per connector: ConnectorRegistry.register(…, { timeoutMs })). */
export { CONNECTOR_TIMEOUT_MS } from '../connectors/connector.registry.js';
/** Longer than a refresh can take, so a crashed instance's lease expires and another takes over. */
export const LEASE_MS = 5 * 60_000;
/** Retry delay for a source that is still preparing the history without saying when it is ready. */
const PENDING_RETRY_MS = 60_000;

export type RefreshTrigger = 'force' | 'schedule' | 'admin' | 'seed' | 'import';

export type RefreshOutcome =
  | {
      readonly status: 'refreshed';
      readonly inserted: number;
      readonly updated: number;
      readonly deleted: number;
    }
  | { readonly status: 'pending'; readonly retryAt: Date }
  | {
      readonly status: 'failed';
      readonly syncStatus: 'error' | 'reconnect_required';
      readonly message: string;
    }
  /** Another instance holds the lease: its refresh will land; this caller serves the cache. */
  | { readonly status: 'busy' };

interface FetchedHistory {
  readonly transactions: readonly SourceTransaction[];
  readonly mode: 'full' | 'incremental';
  readonly reportedBalances: ReadonlyMap<string, string> | null;
}

class InvalidSourceDataError extends Error {
  override name = 'InvalidSourceDataError';
}

@Injectable()
export class RefreshService {
  private readonly logger = new Logger(RefreshService.name);
  /** Identifies this instance's leases. */
  readonly owner = `${hostname().slice(0, 40)}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly running = new Map<string, Promise<RefreshOutcome>>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly accounts: AccountsRepository,
    private readonly transactions: TransactionsRepository,
    private readonly snapshots: BalanceSnapshotsRepository,
    private readonly connectors: ConnectorRegistry,
    private readonly cipher: CredentialsCipher,
    private readonly clock: Clock,
    @Inject(MARKET_PRICES) private readonly prices: MarketPricesPort,
    private readonly readCache: BalancesReadCache,
    @Optional() private readonly metrics?: SyncMetrics, // absent in the CLI
  ) {}

  /**
   * Refreshes the account now (the caller decided it should). Concurrent calls for one account in
   * this instance share one run; across instances, the lease lets one through and the others get
   * `busy`. Unknown account (or another tenant's): 404.
   */
  refresh(tenantId: string, accountId: string, trigger: RefreshTrigger): Promise<RefreshOutcome> {
    const key = `${tenantId}/${accountId}`;
    const running = this.running.get(key);
    if (running) return running;
    const run = this.claimAndRun(tenantId, accountId, trigger).finally(() => this.running.delete(key));
    this.running.set(key, run);
    return run;
  }

  /**
   * The scheduler's unit of work: leases up to `batchSize` accounts whose refresh is due (across
   * tenants, SKIP LOCKED so instances take disjoint batches) and refreshes them one by one.
   */
  async refreshDueAccounts(batchSize: number): Promise<RefreshOutcome[]> {
    const now = this.clock.now();
    const claimed = await this.accounts.claimDueAcrossTenants(
      now,
      this.owner,
      new Date(now.getTime() + LEASE_MS),
      batchSize,
    );
    const outcomes: RefreshOutcome[] = [];
    for (const { tenantId, accountId } of claimed) {
      const key = `${tenantId}/${accountId}`;
      try {
        const account = await this.accounts.findById(tenantId, accountId);
        if (!account) continue;
        const run = this.runLeased(account, 'schedule').finally(() => this.running.delete(key));
        this.running.set(key, run);
        outcomes.push(await run);
      } catch (error) {
        // E.g. the database went away: give the lease back where possible and go on with the batch.
        this.logger.error(
          { accountId, tenantId },
          `Scheduled refresh failed: ${error instanceof Error ? error.message : String(error)}`,
        );
        await this.accounts.releaseLease(tenantId, accountId, this.owner).catch(() => undefined);
      }
    }
    return outcomes;
  }

  /**
   * Stores imported transactions (CSV) through the same single-writer path as a refresh: under the
   * lease, in one transaction with the recomputed balances. Busy account: 409.
   */
  async importTransactions(
    tenantId: string,
    accountId: string,
    transactions: readonly SourceTransaction[],
    onProgress?: (written: number) => void,
  ): Promise<{ inserted: number; updated: number }> {
    const now = this.clock.now();
    const account = await this.accounts.claimLease(
      tenantId,
      accountId,
      this.owner,
      now,
      new Date(now.getTime() + LEASE_MS),
    );
    if (!account) {
      if (!(await this.accounts.findById(tenantId, accountId))) throw DomainError.notFound('Account');
      throw new DomainError(
        ErrorCode.Conflict,
        'A refresh or import of this account is running; retry in a moment.',
      );
    }
    try {
      const written = await this.persist(
        account,
        {
          transactions: transactions.map(canonicalSourceTransaction),
          mode: 'incremental',
          reportedBalances: null,
        },
        now,
        onProgress,
      );
      return { inserted: written.inserted, updated: written.updated };
    } finally {
      this.readCache.invalidateAll();
      await this.accounts.releaseLease(tenantId, accountId, this.owner);
    }
  }

  /**
   * Recomputes the balance snapshots of the given accounts (and everything linked to them) from
   * the stored transactions at current prices, inside the caller's transaction; `beforeWrite`
   * runs first under the same row locks (e.g. deleting an account).
   */
  async recomputeLinked(
    tenantId: string,
    accountIds: readonly string[],
    beforeWrite?: (manager: EntityManager) => Promise<void>,
  ): Promise<void> {
    const linked = await this.transactions.transferLinkedAccounts(tenantId, accountIds, []);
    const pricesUsd = await this.latestPrices(await this.transactions.symbolsOf(tenantId, linked), []);
    const now = this.clock.now();
    await this.dataSource.transaction(async (manager) => {
      await this.accounts.lockForUpdate(tenantId, linked, manager);
      await beforeWrite?.(manager);
      const remaining = (
        await this.transactions.transferLinkedAccounts(tenantId, linked, [], manager)
      ).filter((id) => linked.includes(id));
      const surviving = await this.existingAccounts(tenantId, remaining, manager);
      await this.writeSnapshots(tenantId, surviving, new Map(), pricesUsd, now, manager);
    });
    this.readCache.invalidateAll();
  }

  private async claimAndRun(
    tenantId: string,
    accountId: string,
    trigger: RefreshTrigger,
  ): Promise<RefreshOutcome> {
    const now = this.clock.now();
    const account = await this.accounts.claimLease(
      tenantId,
      accountId,
      this.owner,
      now,
      new Date(now.getTime() + LEASE_MS),
    );
    if (!account) {
      if (!(await this.accounts.findById(tenantId, accountId))) throw DomainError.notFound('Account');
      return { status: 'busy' };
    }
    return this.runLeased(account, trigger);
  }

  /** Runs one refresh of an account whose lease this instance holds, and gives the lease back. */
  private runLeased(account: AccountEntity, trigger: RefreshTrigger): Promise<RefreshOutcome> {
    const run = () => this.runLeasedUncounted(account, trigger);
    return this.metrics ? this.metrics.observe(account.source, trigger, run) : run();
  }

  private async runLeasedUncounted(account: AccountEntity, trigger: RefreshTrigger): Promise<RefreshOutcome> {
    const now = this.clock.now();
    try {
      let fetched: FetchedHistory | { pending: Date };
      try {
        fetched = await this.fetch(account, now);
      } catch (error) {
        return await this.recordFailure(account, error, now, trigger);
      }
      if ('pending' in fetched) {
        await this.accounts.updateState(account.tenantId, account.id, {
          syncStatus: account.lastSyncedAt === null ? 'syncing' : account.syncStatus,
          nextRefreshAt: fetched.pending,
          lastRefreshAttemptAt: now,
        });
        return { status: 'pending', retryAt: fetched.pending };
      }
      try {
        return await this.persist(account, fetched, now);
      } catch (error) {
        return await this.recordFailure(account, error, now, trigger);
      }
    } finally {
      this.readCache.invalidateAll();
      await this.accounts.releaseLease(account.tenantId, account.id, this.owner);
    }
  }

  /** Calls the connector with a timeout and collects its pages; no database transaction is open. */
  private async fetch(account: AccountEntity, now: Date): Promise<FetchedHistory | { pending: Date }> {
    const connector = this.connectors.get(account.source);
    const timeoutMs = this.connectors.timeoutOf(account.source);
    const credentials = account.credentialsEncrypted
      ? await this.cipher.decrypt(account.id, account.credentialsEncrypted)
      : null;
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(new Error(`The source did not answer within ${timeoutMs / 1000} s.`));
      }, timeoutMs);
      timer.unref?.();
    });
    const collect = async (): Promise<FetchedHistory | { pending: Date }> => {
      const result: ConnectorResult = await connector.fetch({
        account: {
          id: account.id,
          tenantId: account.tenantId,
          platform: account.platform,
          identity: account.identity,
          address: account.address,
          chain: account.chain,
          createdOn: account.createdOn,
          lastSyncedAt: account.lastSyncedAt,
          sourceOptions: account.sourceOptions,
        },
        credentials,
        now,
        signal: abort.signal,
      });
      if (result.status === 'pending') {
        const retryAt =
          result.retryAt && result.retryAt > now
            ? result.retryAt
            : new Date(now.getTime() + PENDING_RETRY_MS);
        return { pending: retryAt };
      }
      const transactions: SourceTransaction[] = [];
      const seen = new Set<string>();
      for await (const page of result.pages) {
        for (const tx of page) {
          const problems = checkSourceTransaction(tx, now);
          if (problems.length > 0) {
            throw new InvalidSourceDataError(
              `The source sent an invalid transaction ${JSON.stringify(String(tx.transactionId).slice(0, 80))}: ` +
                problems.map((p) => `${p.field} ${p.message}`).join('; '),
            );
          }
          if (seen.has(tx.transactionId))
            throw new InvalidSourceDataError(`The source sent transaction ${tx.transactionId} twice.`);
          seen.add(tx.transactionId);
          transactions.push(canonicalSourceTransaction(tx));
        }
      }
      return { transactions, mode: result.mode, reportedBalances: result.reportedBalances };
    };
    try {
      return await Promise.race([collect(), timeout]);
    } finally {
      clearTimeout(timer);
    }
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
  private async persist(
    account: AccountEntity,
    fetched: FetchedHistory,
    now: Date,
    onProgress?: (written: number) => void,
  ): Promise<RefreshOutcome & { status: 'refreshed' }> {
    const { tenantId, id: accountId } = account;
    const transferIds = [
      ...new Set(fetched.transactions.flatMap((tx) => (tx.transferId ? [tx.transferId] : []))),
    ];
    const reported = fetched.reportedBalances ? Object.fromEntries(fetched.reportedBalances) : null;
    // Outside the transaction: what the group holds now, prices (another module's store: never
    // read through another connection inside the transaction) and the new balances.
    const linked = await this.transactions.transferLinkedAccounts(tenantId, [accountId], transferIds);
    const versionsRead = await this.accounts.versions(tenantId, linked);
    const stored = await this.transactions.forAccounts(tenantId, linked);
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
      const linkedNow = await this.transactions.transferLinkedAccounts(
        tenantId,
        [accountId],
        transferIds,
        manager,
      );
      const versionsNow = await this.accounts.lockForUpdate(tenantId, linkedNow, manager);
      const written = await this.transactions.upsert(
        tenantId,
        accountId,
        fetched.transactions,
        manager,
        onProgress,
      );
      const deleted =
        fetched.mode === 'full'
          ? await this.transactions.deleteAllExcept(
              tenantId,
              accountId,
              fetched.transactions.map((tx) => tx.transactionId),
              manager,
            )
          : 0;
      counts = { ...written, deleted };
      // Accounts linked before or after the write both need new balances (a removed transfer unlinks).
      const linkedAfter = await this.transactions.transferLinkedAccounts(tenantId, [accountId], [], manager);
      const affected = [...new Set([...versionsNow.keys(), ...linkedAfter])].sort();
      const unchanged =
        sameVersions(versionsRead, versionsNow) &&
        affected.every((id) => precomputed.some((snapshot) => snapshot.accountId === id));
      if (unchanged) {
        for (const snapshot of precomputed.filter((s) => affected.includes(s.accountId)))
          await this.snapshots.replace(tenantId, snapshot, manager);
      } else {
        await this.writeSnapshots(
          tenantId,
          affected,
          new Map([[accountId, reported]]),
          pricesUsd,
          now,
          manager,
        );
      }
      await this.accounts.bumpDataVersion(tenantId, accountId, manager);
      await this.accounts.updateState(
        tenantId,
        accountId,
        {
          syncStatus: 'synced',
          connectionStatus: 'connected',
          balanceSource: fetched.reportedBalances ? 'source_reported' : 'calculated',
          lastSyncedAt: now,
          nextRefreshAt: new Date(now.getTime() + STALE_AFTER_MS),
          lastRefreshAttemptAt: now,
          lastError: null,
        },
        manager,
      );
    });
    return { status: 'refreshed', ...counts };
  }

  /** Snapshots of `accountIds` from the given transactions; reported balances default to the stored ones. */
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
    const previous = await this.snapshots.findMany(tenantId, accountIds, manager);
    const reported = new Map(accountIds.map((id) => [id, previous.get(id)?.reportedBalances ?? null]));
    for (const [id, balances] of freshReported) reported.set(id, balances);
    return computeBalanceSnapshots({
      entries: transactions.map(toLedgerEntry),
      accountIds,
      pricesUsd,
      reportedBalances: reported,
      computedAt: now,
    });
  }

  /** Computes and stores the snapshots of `accountIds` from what is stored, inside `manager`'s transaction. */
  private async writeSnapshots(
    tenantId: string,
    accountIds: readonly string[],
    freshReported: ReadonlyMap<string, Readonly<Record<string, string>> | null>,
    pricesUsd: ReadonlyMap<string, string>,
    now: Date,
    manager: EntityManager,
  ): Promise<void> {
    const transactions = await this.transactions.forAccounts(tenantId, accountIds, manager);
    const computed = await this.computeSnapshots(
      tenantId,
      accountIds,
      transactions,
      freshReported,
      pricesUsd,
      now,
      manager,
    );
    for (const snapshot of computed) await this.snapshots.replace(tenantId, snapshot, manager);
  }

  private async existingAccounts(
    tenantId: string,
    accountIds: readonly string[],
    manager: EntityManager,
  ): Promise<string[]> {
    const present: string[] = [];
    for (const id of accountIds) if (await this.accounts.findById(tenantId, id, manager)) present.push(id);
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

  /** Keeps the data, records why the refresh failed. */
  private async recordFailure(
    account: AccountEntity,
    error: unknown,
    now: Date,
    trigger: RefreshTrigger,
  ): Promise<RefreshOutcome> {
    const authorization = error instanceof SourceAuthorizationError;
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    const fields = {
      accountId: account.id,
      tenantId: account.tenantId,
      trigger,
      error: error instanceof Error ? error.name : 'unknown',
    };
    // The sandbox's outages and expired authorizations are part of its script: info, marked.
    if (isSimulated(error)) this.logger.log({ ...fields, simulated: true }, `Refresh failed: ${message}`);
    else this.logger.warn(fields, `Refresh failed: ${message}`);
    await this.accounts.updateState(account.tenantId, account.id, {
      syncStatus: authorization ? 'reconnect_required' : 'error',
      ...(authorization ? { connectionStatus: 'disconnected' as const } : {}),
      // Retrying an expired authorization cannot help; the account waits for new credentials.
      nextRefreshAt: authorization ? null : new Date(now.getTime() + STALE_AFTER_MS),
      lastRefreshAttemptAt: now,
      lastError: message,
    });
    return { status: 'failed', syncStatus: authorization ? 'reconnect_required' : 'error', message };
  }
}

/** A source failure the sandbox plays on purpose (expired authorization, outage). */
function isSimulated(error: unknown): boolean {
  return (
    (error instanceof SourceAuthorizationError || error instanceof SourceUnavailableError) && error.simulated
  );
}

/** The stored transactions of the group with the account's fetched history applied (as the write will). */
function mergeHistory(
  stored: readonly StoredTransaction[],
  accountId: string,
  fetched: FetchedHistory,
): StoredTransaction[] {
  const incoming = new Map(fetched.transactions.map((tx) => [tx.transactionId, tx]));
  const kept = stored.filter(
    (tx) => tx.accountId !== accountId || (fetched.mode === 'incremental' && !incoming.has(tx.transactionId)),
  );
  return [...kept, ...fetched.transactions.map((tx) => ({ ...tx, accountId }))];
}

function sameVersions(read: ReadonlyMap<string, number>, now: ReadonlyMap<string, number>): boolean {
  return read.size === now.size && [...read].every(([id, version]) => now.get(id) === version);
}
