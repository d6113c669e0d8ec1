/**
 * Partner reads of an account's data (transactions, balances), served from the cache with the
 * forceRefresh rule of design §5: a forced refresh happens only when the cached data is at least
 * 30 minutes old (or there is none); otherwise the cached result comes back. Every answer says
 * how fresh it is (refreshed, cacheAgeSeconds, lastUpdatedOn).
 */
import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import { CursorCodec } from '../../common/pagination/cursor-codec.js';
import { AccountsService, type AccountRecord } from '../accounts/index.js';
import { RefreshService, STALE_AFTER_MS } from '../sources/index.js';
import {
  BalancesReadCache,
  LedgerService,
  type BalancesMemo,
  type Snapshot,
  type StoredTransaction,
  type TransactionRange,
} from '../ledger/index.js';

export interface Freshness {
  /** A refresh from the source completed during this request. */
  readonly refreshed: boolean;
  /** Seconds since the data was last synchronised from the source; null when it never was. */
  readonly cacheAgeSeconds: number | null;
}

export interface TransactionsView {
  readonly account: AccountRecord;
  readonly transactions: readonly StoredTransaction[];
  readonly nextCursor: string | null;
  readonly freshness: Freshness;
}

export interface BalancesView {
  readonly account: AccountRecord;
  readonly snapshot: Snapshot;
  readonly freshness: Freshness;
}

/** Balances held in the read cache, with the entry's memo for what a reader derives from them. */
export interface CachedBalancesView extends BalancesView {
  readonly memo: BalancesMemo;
}

export interface TransactionsQuery {
  readonly range: TransactionRange;
  readonly forceRefresh: boolean;
  /** Paging: page size (≤ 1000) and/or the cursor of the previous page. */
  readonly limit?: number;
  readonly cursor?: string;
}

export const MAX_TRANSACTIONS_PAGE = 1_000;

interface TransactionCursor {
  readonly t: number;
  readonly id: string;
}

const isTransactionCursor = (value: unknown): value is TransactionCursor =>
  typeof value === 'object' &&
  value !== null &&
  Number.isSafeInteger((value as TransactionCursor).t) &&
  typeof (value as TransactionCursor).id === 'string';

/** Why balances cannot be served (the 422's `reason`; the values are the API's). */
export enum BalancesUnavailableReason {
  InitialSyncPending = 'initial_sync_pending',
  ReconnectRequired = 'reconnect_required',
  InitialSyncFailed = 'initial_sync_failed',
  InconsistentHistory = 'inconsistent_history',
}

@Injectable()
export class AccountDataService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly ledger: LedgerService,
    private readonly refresher: RefreshService,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    private readonly readCache: BalancesReadCache<AccountRecord>,
  ) {}

  async transactionsOf(
    tenantId: string,
    accountId: string,
    query: TransactionsQuery,
  ): Promise<TransactionsView> {
    const purpose = `transactions:${accountId}`;
    const after = query.cursor
      ? await this.cursors.decode(tenantId, purpose, query.cursor, isTransactionCursor)
      : null;
    const { account, refreshed } = await this.loadWithOptionalRefresh(
      tenantId,
      accountId,
      query.forceRefresh,
    );
    const paged = query.limit !== undefined || query.cursor !== undefined;
    const limit = query.limit ?? MAX_TRANSACTIONS_PAGE;
    const rows = await this.ledger.transactionsInRange(
      tenantId,
      accountId,
      query.range,
      after ? { occurredAt: new Date(after.t), transactionId: after.id } : null,
      paged ? limit + 1 : null,
    );
    const hasMore = paged && rows.length > limit;
    const page = hasMore ? rows.slice(0, limit) : rows;
    const last = page[page.length - 1];
    return {
      account,
      transactions: page,
      nextCursor: hasMore
        ? await this.cursors.encode(tenantId, purpose, {
            t: last.occurredAt.getTime(),
            id: last.transactionId,
          })
        : null,
      freshness: this.freshness(account, refreshed),
    };
  }

  async balancesOf(tenantId: string, accountId: string, forceRefresh: boolean): Promise<BalancesView> {
    if (forceRefresh) {
      const { account, refreshed } = await this.loadWithOptionalRefresh(tenantId, accountId, true);
      const snapshot = await this.usableSnapshot(tenantId, account);
      this.readCache.set(tenantId, accountId, account, snapshot);
      return { account, snapshot, freshness: this.freshness(account, refreshed) };
    }
    const cached = await this.readCache.getOrLoad(tenantId, accountId, async () => {
      const { account } = await this.loadWithOptionalRefresh(tenantId, accountId, false);
      return { account, snapshot: await this.usableSnapshot(tenantId, account) };
    });
    return { ...cached, freshness: this.freshness(cached.account, false) };
  }

  /**
   * The balances `balancesOf(tenantId, accountId, false)` would answer with, when this instance
   * holds them in its read cache; undefined otherwise. Synchronous: no database, no refresh.
   */
  cachedBalancesOf(tenantId: string, accountId: string): CachedBalancesView | undefined {
    const cached = this.readCache.get(tenantId, accountId);
    if (!cached) return undefined;
    const { account, snapshot, memo } = cached;
    return { account, snapshot, memo, freshness: this.freshness(account, false) };
  }

  /** The stored snapshot, or the 422 that says why there is no usable one. */
  private async usableSnapshot(tenantId: string, account: AccountRecord): Promise<Snapshot> {
    const snapshot = await this.ledger.snapshotOf(tenantId, account.id);
    if (!snapshot) throw noBalancesYet(account);
    if (snapshot.issue) {
      throw new DomainError(ErrorCode.Unprocessable, snapshot.issue.detail, undefined, snapshot.issue.reason);
    }
    return snapshot;
  }

  /** 404 for unknown and other tenants' accounts alike; refreshes first when forced and stale. */
  private async loadWithOptionalRefresh(
    tenantId: string,
    accountId: string,
    forceRefresh: boolean,
  ): Promise<{ account: AccountRecord; refreshed: boolean }> {
    const account = await this.accounts.findById(tenantId, accountId);
    if (!account) throw DomainError.notFound('Account');
    if (!forceRefresh || !this.isStale(account)) return { account, refreshed: false };
    const outcome = await this.refresher.refresh(tenantId, accountId, 'force');
    const reloaded = await this.accounts.findById(tenantId, accountId);
    if (!reloaded) throw DomainError.notFound('Account');
    return { account: reloaded, refreshed: outcome.status === 'refreshed' };
  }

  /** Eligible for a forced refresh: never synchronised, or at least 30 minutes ago. */
  private isStale(account: AccountRecord): boolean {
    return (
      account.lastSyncedAt === null ||
      this.clock.now().getTime() - account.lastSyncedAt.getTime() >= STALE_AFTER_MS
    );
  }

  private freshness(account: AccountRecord, refreshed: boolean): Freshness {
    const age = account.lastSyncedAt
      ? Math.floor((this.clock.now().getTime() - account.lastSyncedAt.getTime()) / 1000)
      : null;
    return { refreshed, cacheAgeSeconds: age === null ? null : Math.max(0, age) };
  }
}

function noBalancesYet(account: AccountRecord): DomainError {
  const [reason, detail]: [BalancesUnavailableReason, string] =
    account.syncStatus === 'reconnect_required'
      ? [
          BalancesUnavailableReason.ReconnectRequired,
          'The source rejected the account authorization before any data was synchronised; the end client must reconnect the account.',
        ]
      : account.syncStatus === 'error'
        ? [
            BalancesUnavailableReason.InitialSyncFailed,
            'The initial synchronisation of the account failed; it is retried automatically. No balances are cached yet.',
          ]
        : [
            BalancesUnavailableReason.InitialSyncPending,
            'The initial synchronisation of the account has not finished yet; balances are available once syncStatus is "synced".',
          ];
  return new DomainError(ErrorCode.Unprocessable, detail, undefined, reason);
}
