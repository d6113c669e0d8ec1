/**
 * The refresh engine's columns of the `account` table: sync state, the refresh lease, the next
 * due time, the data version. The accounts module owns the row (identity, lifecycle); the engine
 * owns these columns and reads the few identity fields a connector may know. Raw SQL, tenant id
 * first; the cross-tenant scheduler claim says so in its name.
 */
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { SyncStatus } from '../../../domain/accounts/sync-status.js';
import { runSql } from '../../../database/sql.js';
import { holderGone, LeaseHolders } from './lease-holders.js';

export type ConnectionStatus = 'connected' | 'disconnected';
export type BalanceSource = 'source_reported' | 'calculated';

/** What the engine reads of an account: its source, what a connector may know, and its state. */
export interface SyncAccount {
  readonly id: string;
  readonly tenantId: string;
  readonly platform: string;
  readonly identity: string;
  readonly source: string;
  readonly sourceOptions: Record<string, unknown> | null;
  readonly address: string | null;
  readonly chain: string | null;
  readonly createdOn: Date;
  readonly syncStatus: SyncStatus;
  readonly lastSyncedAt: Date | null;
  readonly credentialsEncrypted: string | null;
  /** Consecutive failed refreshes (the per-source backoff). */
  readonly refreshFailures: number;
  /** Since when the account needs review (reconciliation); null when it does not. */
  readonly reviewSince: Date | null;
}

export interface AccountStateChange {
  syncStatus?: SyncStatus;
  connectionStatus?: ConnectionStatus;
  balanceSource?: BalanceSource;
  lastSyncedAt?: Date | null;
  nextRefreshAt?: Date | null;
  lastRefreshAttemptAt?: Date | null;
  lastError?: string | null;
  refreshFailures?: number;
  reviewReason?: string | null;
  reviewSince?: Date | null;
}

const COLUMNS: Record<keyof AccountStateChange, string> = {
  syncStatus: 'sync_status',
  connectionStatus: 'connection_status',
  balanceSource: 'balance_source',
  lastSyncedAt: 'last_synced_at',
  nextRefreshAt: 'next_refresh_at',
  lastRefreshAttemptAt: 'last_refresh_attempt_at',
  lastError: 'last_error',
  refreshFailures: 'refresh_failures',
  reviewReason: 'review_reason',
  reviewSince: 'review_since',
};

interface SyncAccountRow {
  id: string;
  tenant_id: string;
  platform: string;
  identity: string;
  source: string;
  source_options: Record<string, unknown> | null;
  address: string | null;
  chain: string | null;
  created_on: Date;
  sync_status: SyncStatus;
  last_synced_at: Date | null;
  credentials_encrypted: string | null;
  refresh_failures: number;
  review_since: Date | null;
}

const SYNC_COLUMNS =
  'id, tenant_id, platform, identity, source, source_options, address, chain, created_on, sync_status, last_synced_at, credentials_encrypted, refresh_failures, review_since';

/**
 * The SQL of "anyone may take this row's lease": there is none, it lapsed, or its holder is gone
 * (lease-holders.ts). Never while it records an import: an import whose process died is first
 * resolved (resolveAbandonedImports: the account says the import did not finish), then freed.
 */
function leaseFree(now: string, live: string): string {
  return `(refresh_lease_import IS NULL
    AND (refresh_lease_until IS NULL OR refresh_lease_until < ${now} OR ${holderGone(live)}))`;
}

/** An account whose import never finished (resolveAbandonedImports), with what its event says. */
export interface AbandonedImport {
  readonly tenantId: string;
  readonly accountId: string;
  readonly lastError: string;
  readonly lastSyncedAt: Date | null;
  readonly refreshFailures: number;
}

function fromRow(row: SyncAccountRow): SyncAccount {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    platform: row.platform,
    identity: row.identity,
    source: row.source,
    sourceOptions: row.source_options,
    address: row.address,
    chain: row.chain,
    createdOn: row.created_on,
    syncStatus: row.sync_status,
    lastSyncedAt: row.last_synced_at,
    credentialsEncrypted: row.credentials_encrypted,
    refreshFailures: Number(row.refresh_failures ?? 0),
    reviewSince: row.review_since ?? null,
  };
}

@Injectable()
export class RefreshStateRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly holders: LeaseHolders,
  ) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  async findById(tenantId: string, accountId: string, manager?: EntityManager): Promise<SyncAccount | null> {
    const { rows } = await runSql<SyncAccountRow>(
      this.m(manager),
      `SELECT ${SYNC_COLUMNS} FROM account WHERE tenant_id = $1 AND id = $2`,
      [tenantId, accountId],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async updateState(
    tenantId: string,
    accountId: string,
    change: AccountStateChange,
    manager?: EntityManager,
  ): Promise<void> {
    const entries = Object.entries(change).filter(([, v]) => v !== undefined) as [
      keyof AccountStateChange,
      unknown,
    ][];
    if (entries.length === 0) return;
    const sets = entries.map(([key], i) => `${COLUMNS[key]} = $${i + 3}`).join(', ');
    await runSql(this.m(manager), `UPDATE account SET ${sets} WHERE tenant_id = $1 AND id = $2`, [
      tenantId,
      accountId,
      ...entries.map(([, v]) => v),
    ]);
  }

  /**
   * Takes the refresh lease if nobody holds it (it lapsed, or its holder is gone: lease-holders.ts):
   * one atomic UPDATE, so of N instances asking at once exactly one gets the account. `from`: the
   * lease may also be taken from that owner (the sandbox seed hands over the accounts it created
   * leased). `importing`: what the import taking it imports (refresh_lease_import).
   */
  async claimLease(
    tenantId: string,
    accountId: string,
    owner: string,
    now: Date,
    until: Date,
    options: { from?: string; importing?: string } = {},
  ): Promise<SyncAccount | null> {
    await this.holders.ready();
    const { rows } = await runSql<SyncAccountRow>(
      this.m(),
      `UPDATE account SET refresh_lease_until = $4, refresh_lease_owner = $3, refresh_lease_import = $7
       WHERE tenant_id = $1 AND id = $2 AND (${leaseFree('$5', '$6')} OR refresh_lease_owner = $8)
       RETURNING ${SYNC_COLUMNS}`,
      [
        tenantId,
        accountId,
        owner,
        until,
        now,
        this.holders.live(),
        options.importing ?? null,
        options.from ?? null,
      ],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /**
   * A queued refresh job takes over the lease its scheduler claim took (`claimOwner`, possibly
   * another instance), or a free one if the account is still due (the job waited in the queue past
   * the lease, a crashed attempt gave it back, or its holder is gone). Null: someone else holds it,
   * or the account is no longer due (a partner's refresh ran meanwhile).
   */
  async takeOverLease(
    tenantId: string,
    accountId: string,
    claimOwner: string,
    owner: string,
    now: Date,
    until: Date,
  ): Promise<SyncAccount | null> {
    await this.holders.ready();
    const { rows } = await runSql<SyncAccountRow>(
      this.m(),
      `UPDATE account SET refresh_lease_until = $5, refresh_lease_owner = $4
       WHERE tenant_id = $1 AND id = $2
         AND ((refresh_lease_owner = $3 AND refresh_lease_until >= $6 AND refresh_lease_import IS NULL)
           OR (${leaseFree('$6', '$7')} AND next_refresh_at <= $6))
       RETURNING ${SYNC_COLUMNS}`,
      [tenantId, accountId, claimOwner, owner, until, now, this.holders.live()],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** Gives the lease back, only if this owner still holds it. */
  async releaseLease(
    tenantId: string,
    accountId: string,
    owner: string,
    manager?: EntityManager,
  ): Promise<void> {
    await runSql(
      this.m(manager),
      `UPDATE account SET refresh_lease_until = NULL, refresh_lease_owner = NULL, refresh_lease_import = NULL
       WHERE tenant_id = $1 AND id = $2 AND refresh_lease_owner = $3`,
      [tenantId, accountId, owner],
    );
  }

  /**
   * Inside a write's transaction, after its row locks: whether `owner` still holds the account's
   * lease. A holder taken for gone (lease-holders.ts) or whose lease lapsed and was taken over
   * must not write: the new holder does.
   */
  async holdsLease(
    tenantId: string,
    accountId: string,
    owner: string,
    manager: EntityManager,
  ): Promise<boolean> {
    const { rows } = await runSql(
      manager,
      'SELECT 1 FROM account WHERE tenant_id = $1 AND id = $2 AND refresh_lease_owner = $3',
      [tenantId, accountId, owner],
    );
    return rows.length === 1;
  }

  /**
   * Imports that never finished (docs/sources.md, "An import that did not finish"): the accounts
   * whose lease records an import and lapsed or whose holder is gone. Each says `error` with the
   * reason (its data, all of the import or none, is untouched: the import writes in one
   * transaction), and its lease is free again. Across tenants (the scheduler, start-up), or one
   * account (a claim that found it); inside the caller's transaction (the events).
   */
  async resolveAbandonedImports(
    now: Date,
    manager: EntityManager,
    account?: { tenantId: string; accountId: string },
  ): Promise<AbandonedImport[]> {
    await this.holders.ready();
    const { rows } = await runSql<{
      tenant_id: string;
      id: string;
      last_error: string;
      last_synced_at: Date | null;
      refresh_failures: number;
    }>(
      manager,
      `UPDATE account SET sync_status = 'error',
         last_error = left('The import of ' || refresh_lease_import || ' did not finish: the service stopped during it, and nothing of it was stored. Import the file again.', 500),
         refresh_lease_until = NULL, refresh_lease_owner = NULL, refresh_lease_import = NULL
       WHERE refresh_lease_import IS NOT NULL
         AND (refresh_lease_until < $1 OR ${holderGone('$2')})
         AND ($3::uuid IS NULL OR (tenant_id = $3 AND id = $4))
       RETURNING tenant_id, id, last_error, last_synced_at, refresh_failures`,
      [now, this.holders.live(), account?.tenantId ?? null, account?.accountId ?? null],
    );
    return rows.map((row) => ({
      tenantId: row.tenant_id,
      accountId: row.id,
      lastError: row.last_error,
      lastSyncedAt: row.last_synced_at,
      refreshFailures: Number(row.refresh_failures ?? 0),
    }));
  }

  /**
   * Scheduler, across tenants: leases up to `limit` accounts whose next refresh is due and
   * whose lease is free, oldest due first. SKIP LOCKED lets N instances claim disjoint batches.
   */
  async claimDueAcrossTenants(
    now: Date,
    owner: string,
    leaseUntil: Date,
    limit: number,
  ): Promise<{ tenantId: string; accountId: string }[]> {
    await this.holders.ready();
    const { rows } = await runSql<{ tenant_id: string; id: string }>(
      this.m(),
      `UPDATE account SET refresh_lease_until = $2, refresh_lease_owner = $3
       WHERE id IN (
         SELECT id FROM account
         WHERE next_refresh_at <= $1 AND ${leaseFree('$1', '$5')}
         ORDER BY next_refresh_at LIMIT $4 FOR UPDATE SKIP LOCKED)
       RETURNING tenant_id, id`,
      [now, leaseUntil, owner, limit, this.holders.live()],
    );
    return rows.map((r) => ({ tenantId: r.tenant_id, accountId: r.id }));
  }

  /** The sources with an account due now whose lease is free (the scheduler's lanes). */
  async dueSources(now: Date): Promise<string[]> {
    await this.holders.ready();
    const { rows } = await runSql<{ source: string }>(
      this.m(),
      `SELECT DISTINCT source FROM account
       WHERE next_refresh_at <= $1 AND ${leaseFree('$1', '$2')}
       ORDER BY source`,
      [now, this.holders.live()],
    );
    return rows.map((r) => r.source);
  }

  /**
   * Scheduler, across tenants, one source: leases up to `limit` due accounts of `source`, and no
   * more than leave at most `maxConcurrent` live leases on the source (whoever holds them: this
   * instance, another, a partner's forced refresh; not a gone holder's). A transaction-scoped
   * advisory lock per source makes the count and the claim one step across instances, so the cap
   * holds globally.
   */
  async claimDueOfSource(
    now: Date,
    owner: string,
    leaseUntil: Date,
    source: string,
    limit: number,
    maxConcurrent: number,
  ): Promise<{ tenantId: string; accountId: string }[]> {
    await this.holders.ready();
    return this.dataSource.transaction(async (manager) => {
      await runSql(manager, `SELECT pg_advisory_xact_lock(hashtext('account-refresh:' || $1))`, [source]);
      const { rows } = await runSql<{ tenant_id: string; id: string }>(
        manager,
        `UPDATE account SET refresh_lease_until = $2, refresh_lease_owner = $3
         WHERE id IN (
           SELECT id FROM account
           WHERE source = $4 AND next_refresh_at <= $1 AND ${leaseFree('$1', '$7')}
           ORDER BY next_refresh_at, id
           LIMIT GREATEST(0, LEAST($5::int, $6::int - (
             SELECT count(*)::int FROM account
             WHERE source = $4 AND refresh_lease_until >= $1 AND NOT ${holderGone('$7')})))
           FOR UPDATE SKIP LOCKED)
         RETURNING tenant_id, id`,
        [now, leaseUntil, owner, source, limit, maxConcurrent, this.holders.live()],
      );
      return rows.map((r) => ({ tenantId: r.tenant_id, accountId: r.id }));
    });
  }

  /**
   * Locks the accounts' rows until the transaction ends, in id order (no deadlocks), and returns
   * the data version of each account that exists.
   */
  async lockForUpdate(
    tenantId: string,
    accountIds: readonly string[],
    manager: EntityManager,
  ): Promise<Map<string, number>> {
    return this.versions(tenantId, accountIds, manager, 'FOR UPDATE');
  }

  /** Data version per existing account (see AccountEntity.dataVersion). */
  async versions(
    tenantId: string,
    accountIds: readonly string[],
    manager?: EntityManager,
    lock: '' | 'FOR UPDATE' = '',
  ): Promise<Map<string, number>> {
    const { rows } = await runSql<{ id: string; data_version: number }>(
      this.m(manager),
      `SELECT id, data_version FROM account WHERE tenant_id = $1 AND id = ANY($2::uuid[]) ORDER BY id ${lock}`,
      [tenantId, [...accountIds]],
    );
    return new Map(rows.map((r) => [r.id, Number(r.data_version)]));
  }

  async bumpDataVersion(tenantId: string, accountId: string, manager: EntityManager): Promise<void> {
    await runSql(
      this.m(manager),
      'UPDATE account SET data_version = data_version + 1 WHERE tenant_id = $1 AND id = $2',
      [tenantId, accountId],
    );
  }
}
