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
 * - Every write goes through the ledger's LedgerWriter (lease, transaction, balances, read cache):
 *   this engine decides when and what, fetches, and hands the history over.
 * Never: decides whether a refresh is due (callers do: AccountDataService, the scheduler, admin).
 */
import { Injectable, Logger, Optional } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { DomainError, ErrorCode } from '../../../common/errors/domain-error.js';
import {
  LEASE_MS,
  LeaseHolders,
  LeaseLostError,
  LedgerWriter,
  RefreshStateRepository,
  type Refreshed,
  type SyncAccount,
} from '../../ledger/index.js';
import { SyncMetrics } from '../../metrics/index.js';
import {
  SourceAuthorizationError,
  SourceUnavailableError,
  type SourceTransaction,
} from '../connectors/source-connector.js';
import { canonicalSourceTransaction } from '../connectors/source-transaction.rules.js';
import { SourceSchedules } from './source-schedule.js';
import { SourceFetcher, type FetchedHistory } from './source-fetcher.js';

export { STALE_AFTER_MS } from './refresh-timing.js';
/** The write lease is the ledger writer's (ledger/writer/lease-timing.ts). */
export { LEASE_MS };
/** Default connector timeout (per connector: ConnectorRegistry.register(…, { timeoutMs })). */
export { CONNECTOR_TIMEOUT_MS } from '../connectors/connector.registry.js';

export type RefreshTrigger = 'force' | 'schedule' | 'admin' | 'seed' | 'import' | 'link';

export type RefreshOutcome =
  | Refreshed
  /**
   * The source is still preparing the history (retry at `retryAt`); or, `retryAt` null, the
   * account's source is import-only and nothing was imported yet: nothing to revalue, nothing written.
   */
  | { readonly status: 'pending'; readonly retryAt: Date | null }
  | {
      readonly status: 'failed';
      readonly syncStatus: 'error' | 'reconnect_required';
      readonly message: string;
    }
  /** Another instance holds the lease: its refresh will land; this caller serves the cache. */
  | { readonly status: 'busy' };

@Injectable()
export class RefreshService {
  private readonly logger = new Logger(RefreshService.name);
  private readonly running = new Map<string, Promise<RefreshOutcome>>();

  constructor(
    private readonly holders: LeaseHolders,
    private readonly state: RefreshStateRepository,
    private readonly fetcher: SourceFetcher,
    private readonly ledger: LedgerWriter,
    private readonly clock: Clock,
    private readonly schedules: SourceSchedules,
    @Optional() private readonly metrics?: SyncMetrics, // absent in the CLI
  ) {}

  /** Identifies this instance's leases: its instance token (lease-holders.ts). */
  get owner(): string {
    return this.holders.instance;
  }

  /**
   * The owner of the leases the sandbox seed creates its accounts under (`<instance>/seed`): alive
   * with this process, taken from by the seed's first sync (`from`), never by the scheduler.
   */
  get seedOwner(): string {
    return `${this.holders.instance}/seed`;
  }

  /**
   * Refreshes the account now (the caller decided it should). Concurrent calls for one account in
   * this instance share one run; across instances, the lease lets one through and the others get
   * `busy`. Unknown account (or another tenant's): 404. `from`: the lease may be taken from that
   * owner (the sandbox seed's, which created the account leased).
   */
  refresh(
    tenantId: string,
    accountId: string,
    trigger: RefreshTrigger,
    options: { from?: string } = {},
  ): Promise<RefreshOutcome> {
    const key = `${tenantId}/${accountId}`;
    const running = this.running.get(key);
    if (running) return running;
    const run = this.claimAndRun(tenantId, accountId, trigger, options.from).finally(() =>
      this.running.delete(key),
    );
    this.running.set(key, run);
    return run;
  }

  /**
   * The scheduler's unit of work, awaited: claims the due accounts of every source (see
   * dispatchDueAccounts) and resolves when all their refreshes have finished.
   */
  async refreshDueAccounts(batchSize: number): Promise<RefreshOutcome[]> {
    const { done } = await this.dispatchDueAccounts(batchSize);
    return done;
  }

  /**
   * Per-source lanes (docs/sources.md, "Scheduling"): for each source with due accounts, leases up
   * to `batchSize` of them, never more than leave the source's `maxConcurrent` refreshes running
   * (across instances, SKIP LOCKED so instances take disjoint accounts), and starts their
   * refreshes at once, side by side. Resolves as soon as the claims are made: a slow source only
   * holds its own slots, and the next call claims for the other sources meanwhile. `done` resolves
   * with every outcome once all started refreshes have finished.
   */
  async dispatchDueAccounts(
    batchSize: number,
  ): Promise<{ started: number; done: Promise<RefreshOutcome[]> }> {
    const claimed = await this.claimDueAccounts(batchSize);
    const runs = claimed.map(({ tenantId, accountId }) => this.runClaimed(tenantId, accountId));
    const done = Promise.all(runs).then((outcomes) =>
      outcomes.filter((outcome): outcome is RefreshOutcome => outcome !== null),
    );
    return { started: claimed.length, done };
  }

  /**
   * The claim half of dispatchDueAccounts: per source, leases (as `this.owner`) up to `batchSize`
   * due accounts within the source's `maxConcurrent` live leases. The scheduler enqueues one
   * `refresh.account.<source>` job per claimed account (docs/jobs.md); the lease stays taken
   * until the job's refresh ends, so the per-source cap holds across instances.
   */
  async claimDueAccounts(
    batchSize: number,
  ): Promise<{ tenantId: string; accountId: string; source: string }[]> {
    // First the imports a dead process left unfinished: they say so, and their accounts are free.
    await this.resolveAbandonedImports();
    const now = this.clock.now();
    const leaseUntil = new Date(now.getTime() + LEASE_MS);
    const claimed: { tenantId: string; accountId: string; source: string }[] = [];
    for (const source of await this.state.dueSources(now)) {
      const { maxConcurrent } = this.schedules.of(source);
      const rows = await this.state.claimDueOfSource(
        now,
        this.owner,
        leaseUntil,
        source,
        batchSize,
        maxConcurrent,
      );
      claimed.push(...rows.map((row) => ({ ...row, source })));
    }
    return claimed;
  }

  /**
   * Imports that never finished, across tenants (the scheduler's run, start-up): each account says
   * `error`, "The import of … did not finish", and is free again. Returns how many.
   */
  async resolveAbandonedImports(): Promise<number> {
    const resolved = await this.ledger.resolveAbandonedImports(this.clock.now());
    return resolved.length;
  }

  /** Takes the account's lease as this instance (LedgerWriter.takeLease). Null: someone holds it. */
  private takeLease(
    tenantId: string,
    accountId: string,
    now: Date,
    options: { from?: string; importing?: string } = {},
  ): Promise<SyncAccount | null> {
    return this.ledger.takeLease(tenantId, accountId, this.owner, now, options);
  }

  /** Gives back the seed's lease on an account it created (a no-op once its first sync took it). */
  async releaseSeedLease(tenantId: string, accountId: string): Promise<void> {
    await this.state.releaseLease(tenantId, accountId, this.seedOwner);
  }

  /** Gives back a lease claimDueAccounts took (its job could not be enqueued). */
  async releaseClaim(tenantId: string, accountId: string): Promise<void> {
    await this.state.releaseLease(tenantId, accountId, this.owner);
  }

  /**
   * A `refresh.account` job (docs/jobs.md): takes over the lease the scheduler's claim took
   * (`claimOwner`, any instance) and refreshes. `busy` when another refresh holds the account or
   * it is no longer due. A failed refresh (the source's error) is an outcome, recorded in the
   * account's state with its backoff; only an unexpected error (the database went away) rejects,
   * after giving the lease back, so the queue retries the job.
   */
  async runScheduledJob(tenantId: string, accountId: string, claimOwner: string): Promise<RefreshOutcome> {
    const key = `${tenantId}/${accountId}`;
    if (this.running.has(key)) return { status: 'busy' };
    const now = this.clock.now();
    const account = await this.state.takeOverLease(
      tenantId,
      accountId,
      claimOwner,
      this.owner,
      now,
      new Date(now.getTime() + LEASE_MS),
    );
    if (!account) return { status: 'busy' };
    // (An import left unfinished is resolved by the scheduler's run before it claims.)
    const run = this.runLeased(account, 'schedule').finally(() => this.running.delete(key));
    this.running.set(key, run);
    try {
      return await run;
    } catch (error) {
      await this.state.releaseLease(tenantId, accountId, this.owner).catch(() => undefined);
      throw error;
    }
  }

  /** Runs one scheduler-claimed account; never rejects (a failure is logged, the lease given back). */
  private async runClaimed(tenantId: string, accountId: string): Promise<RefreshOutcome | null> {
    const key = `${tenantId}/${accountId}`;
    try {
      const account = await this.state.findById(tenantId, accountId);
      if (!account) return null;
      const run = this.runLeased(account, 'schedule').finally(() => this.running.delete(key));
      this.running.set(key, run);
      return await run;
    } catch (error) {
      // E.g. the database went away: give the lease back where possible and go on with the others.
      this.logger.error(
        { accountId, tenantId },
        `Scheduled refresh failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      await this.state.releaseLease(tenantId, accountId, this.owner).catch(() => undefined);
      return null;
    }
  }

  /**
   * Stores imported transactions (CSV, export files) through the same single-writer path as a
   * refresh: under the lease, in one transaction with the recomputed balances. Busy account: 409.
   * The lease records what is imported (`what`, e.g. "a csv file (40000 rows)"): if the process
   * dies before the write lands, the account later says that import did not finish. `from`: the
   * lease may be taken from that owner (the sandbox seed's).
   */
  async importTransactions(
    tenantId: string,
    accountId: string,
    transactions: readonly SourceTransaction[],
    options: { onProgress?: (written: number) => void; what?: string; from?: string } = {},
  ): Promise<{ inserted: number; updated: number }> {
    const now = this.clock.now();
    const what = `${options.what ?? `a file of ${transactions.length} transactions`} started ${now.toISOString()}`;
    const account = await this.takeLease(tenantId, accountId, now, { importing: what, from: options.from });
    if (!account) {
      if (!(await this.state.findById(tenantId, accountId))) throw DomainError.notFound('Account');
      throw new DomainError(
        ErrorCode.Conflict,
        'A refresh or import of this account is running; retry in a moment.',
      );
    }
    // From here the account is the import's until its write lands: say so, an operator looks here
    // when an account answers 409.
    this.logger.log({ accountId, tenantId, rows: transactions.length }, 'Import started');
    try {
      const written = await this.ledger.writeHistory(
        account,
        {
          transactions: transactions.map(canonicalSourceTransaction),
          mode: 'incremental',
          reportedBalances: null,
        },
        now,
        {
          owner: this.owner,
          onProgress: options.onProgress,
          nextRefreshAt: this.schedules.nextAfterSuccess(account.source, now),
        },
      );
      return { inserted: written.inserted, updated: written.updated };
    } catch (error) {
      if (error instanceof LeaseLostError)
        throw new DomainError(
          ErrorCode.Conflict,
          'Another instance took this account over before the import was stored; nothing of it was stored. Import the file again.',
        );
      throw error;
    } finally {
      await this.ledger.releaseLease(tenantId, accountId, this.owner);
    }
  }

  /**
   * Starts a refresh without waiting for it (a partner's link or reconnect answers 202 at once);
   * its outcome lands in the account's state. A failure to even start it is logged: the account
   * stays due, so the scheduler picks it up.
   */
  startRefresh(tenantId: string, accountId: string, trigger: RefreshTrigger): void {
    this.refresh(tenantId, accountId, trigger).catch((error: unknown) =>
      this.logger.warn(
        { accountId, tenantId, trigger },
        `Refresh could not start: ${error instanceof Error ? error.name : 'unknown'}`,
      ),
    );
  }

  /**
   * New credentials were stored for the account (a reconnect): it is connected again, `syncing`
   * until its next refresh lands, and due at once. Clears `reconnect_required` and the last error.
   */
  async markReconnected(tenantId: string, accountId: string): Promise<void> {
    await this.state.updateState(tenantId, accountId, {
      syncStatus: 'syncing',
      connectionStatus: 'connected',
      nextRefreshAt: this.clock.now(),
      lastError: null,
    });
  }

  private async claimAndRun(
    tenantId: string,
    accountId: string,
    trigger: RefreshTrigger,
    from?: string,
  ): Promise<RefreshOutcome> {
    const now = this.clock.now();
    const account = await this.takeLease(tenantId, accountId, now, { from });
    if (!account) {
      if (!(await this.state.findById(tenantId, accountId))) throw DomainError.notFound('Account');
      return { status: 'busy' };
    }
    return this.runLeased(account, trigger);
  }

  /** Runs one refresh of an account whose lease this instance holds, and gives the lease back. */
  private runLeased(account: SyncAccount, trigger: RefreshTrigger): Promise<RefreshOutcome> {
    const run = () => this.runLeasedUncounted(account, trigger);
    return this.metrics ? this.metrics.observe(account.source, trigger, run) : run();
  }

  private async runLeasedUncounted(account: SyncAccount, trigger: RefreshTrigger): Promise<RefreshOutcome> {
    const now = this.clock.now();
    try {
      // An import-only account (csv) gets its transactions by import; a refresh only revalues
      // them. Never imported: there is nothing to revalue and no state to set (it waits for its
      // import, not for the scheduler). Its last import did not finish (`error`): revalued, and
      // it still says so. Either way it is never marked `synced` without data.
      const importOnly = this.fetcher.importOnly(account.source);
      if (importOnly && account.lastSyncedAt === null) {
        await this.state.updateState(account.tenantId, account.id, {
          nextRefreshAt: null,
          lastRefreshAttemptAt: now,
        });
        return { status: 'pending', retryAt: null };
      }
      let fetched: FetchedHistory | { pending: Date };
      try {
        fetched = await this.fetcher.fetch(account, now);
      } catch (error) {
        return await this.recordFailure(account, error, now, trigger);
      }
      if ('pending' in fetched) {
        await this.state.updateState(account.tenantId, account.id, {
          syncStatus: account.lastSyncedAt === null ? 'syncing' : account.syncStatus,
          nextRefreshAt: fetched.pending,
          lastRefreshAttemptAt: now,
        });
        return { status: 'pending', retryAt: fetched.pending };
      }
      try {
        return await this.ledger.writeHistory(account, fetched, now, {
          owner: this.owner,
          keepSyncState: importOnly && account.syncStatus !== 'synced',
          nextRefreshAt: this.schedules.nextAfterSuccess(account.source, now),
        });
      } catch (error) {
        // Taken over meanwhile (lease-holders.ts): the new holder's refresh lands, not this one.
        if (error instanceof LeaseLostError) return { status: 'busy' };
        return await this.recordFailure(account, error, now, trigger);
      }
    } finally {
      await this.ledger.releaseLease(account.tenantId, account.id, this.owner);
    }
  }

  /** Keeps the data, records why the refresh failed. */
  private async recordFailure(
    account: SyncAccount,
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
    // The sandbox's outages and expired authorizations are part of its script: debug, marked (at
    // info, every simulated-outage account logged a line or two every 30–60 s).
    if (isSimulated(error)) this.logger.debug({ ...fields, simulated: true }, `Refresh failed: ${message}`);
    else this.logger.warn(fields, `Refresh failed: ${message}`);
    // Consecutive failures set the backoff (per source: exponential, capped, with jitter). An
    // expired authorization is not retried at all, so it does not count.
    const failures = authorization ? account.refreshFailures : account.refreshFailures + 1;
    const nextRefreshAt = authorization
      ? null
      : this.schedules.nextAfterFailure(account.source, failures, now);
    // The state and its event in one transaction (the outbox): never one without the other.
    await this.ledger.writeState(
      account.tenantId,
      account.id,
      {
        syncStatus: authorization ? 'reconnect_required' : 'error',
        ...(authorization ? { connectionStatus: 'disconnected' as const } : {}),
        // Retrying an expired authorization cannot help; the account waits for new credentials.
        nextRefreshAt,
        refreshFailures: failures,
        lastRefreshAttemptAt: now,
        lastError: message,
      },
      [
        {
          type: authorization ? 'account.reconnect_required' : 'account.sync_failed',
          tenantId: account.tenantId,
          accountId: account.id,
          occurredAt: now,
          // Never the source's own message (it may echo what was sent); a reason code instead.
          data: authorization
            ? {
                accountId: account.id,
                syncStatus: 'reconnect_required',
                connectionStatus: 'disconnected',
                lastSyncedAt: account.lastSyncedAt?.toISOString() ?? null,
              }
            : {
                accountId: account.id,
                syncStatus: 'error',
                reason: error instanceof SourceUnavailableError ? 'source_unavailable' : 'refresh_failed',
                consecutiveFailures: failures,
                nextRetryAt: nextRefreshAt?.toISOString() ?? null,
                lastSyncedAt: account.lastSyncedAt?.toISOString() ?? null,
              },
        },
      ],
    );
    return { status: 'failed', syncStatus: authorization ? 'reconnect_required' : 'error', message };
  }
}

/** A source failure the sandbox plays on purpose (expired authorization, outage). */
function isSimulated(error: unknown): boolean {
  return (
    (error instanceof SourceAuthorizationError || error instanceof SourceUnavailableError) && error.simulated
  );
}
