import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type {
  AccountEntity,
  BalanceSource,
  ConnectionStatus,
  SyncStatus,
} from '../entities/account.entity.js';
import { SYNC_STATUSES } from '../entities/account.entity.js';
import { runSql } from '../../../database/sql.js';

export interface AccountKeysetPosition {
  readonly createdOn: Date;
  readonly id: string;
}

interface AccountRow {
  id: string;
  tenant_id: string;
  collection_id: string;
  identity: string;
  platform: string;
  source: string;
  source_options: Record<string, unknown> | null;
  address: string | null;
  chain: string | null;
  sync_status: SyncStatus;
  connection_status: ConnectionStatus;
  balance_source: BalanceSource;
  last_synced_at: Date | null;
  created_on: Date;
  credentials_encrypted: string | null;
  next_refresh_at: Date | null;
  last_refresh_attempt_at: Date | null;
  last_error: string | null;
  data_version: number;
  refresh_lease_until: Date | null;
  refresh_lease_owner: string | null;
  refresh_lease_import: string | null;
  review_reason: string | null;
  review_since: Date | null;
  refresh_failures: number;
}

export function accountFromRow(row: AccountRow): AccountEntity {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    collectionId: row.collection_id,
    identity: row.identity,
    platform: row.platform,
    source: row.source,
    sourceOptions: row.source_options,
    address: row.address,
    chain: row.chain,
    syncStatus: row.sync_status,
    connectionStatus: row.connection_status,
    balanceSource: row.balance_source,
    lastSyncedAt: row.last_synced_at,
    createdOn: row.created_on,
    credentialsEncrypted: row.credentials_encrypted,
    nextRefreshAt: row.next_refresh_at,
    lastRefreshAttemptAt: row.last_refresh_attempt_at,
    lastError: row.last_error,
    dataVersion: row.data_version,
    refreshLeaseUntil: row.refresh_lease_until,
    refreshLeaseOwner: row.refresh_lease_owner,
    refreshLeaseImport: row.refresh_lease_import ?? null,
    reviewReason: row.review_reason ?? null,
    reviewSince: row.review_since ?? null,
    refreshFailures: Number(row.refresh_failures ?? 0),
  };
}

/**
 * Accounts: identity and lifecycle (the refresh engine's state columns are written by the sources
 * module's RefreshStateRepository). Every partner-facing query takes the tenant id first, so
 * forgetting it is a type error. The few cross-tenant methods (admin lookups) say so in their name.
 */
@Injectable()
export class AccountsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  findById(tenantId: string, accountId: string, manager?: EntityManager): Promise<AccountEntity | null> {
    return this.findOneBy(tenantId, 'id', accountId, manager);
  }

  findByCollection(tenantId: string, collectionId: string): Promise<AccountEntity | null> {
    return this.findOneBy(tenantId, 'collection_id', collectionId);
  }

  findByIdentity(tenantId: string, identity: string): Promise<AccountEntity | null> {
    return this.findOneBy(tenantId, 'identity', identity);
  }

  /** One account of the tenant by a unique key (the column is one of a fixed set, never input). */
  private async findOneBy(
    tenantId: string,
    column: 'id' | 'collection_id' | 'identity',
    value: string,
    manager?: EntityManager,
  ): Promise<AccountEntity | null> {
    const { rows } = await runSql<AccountRow>(
      this.m(manager),
      `SELECT * FROM account WHERE tenant_id = $1 AND ${column} = $2`,
      [tenantId, value],
    );
    return rows[0] ? accountFromRow(rows[0]) : null;
  }

  /** Keyset page in (createdOn, id) order: a deep page costs the same as the first. */
  async listPage(
    tenantId: string,
    after: AccountKeysetPosition | null,
    limit: number,
  ): Promise<AccountEntity[]> {
    const { rows } = await runSql<AccountRow>(
      this.m(),
      `SELECT * FROM account WHERE tenant_id = $1
         AND ($2::timestamptz IS NULL OR (created_on, id) > ($2::timestamptz, $3::uuid))
       ORDER BY created_on, id LIMIT $4`,
      [tenantId, after?.createdOn ?? null, after?.id ?? null, limit],
    );
    return rows.map(accountFromRow);
  }

  /** Every account of the tenant in (createdOn, id) order (reports and summaries over the whole tenant). */
  async listAllForTenant(tenantId: string): Promise<AccountEntity[]> {
    const { rows } = await runSql<AccountRow>(
      this.m(),
      'SELECT * FROM account WHERE tenant_id = $1 ORDER BY created_on, id',
      [tenantId],
    );
    return rows.map(accountFromRow);
  }

  /**
   * Keyset page of the tenant's on-chain accounts (address and chain set), in (createdOn, id)
   * order, for /qeychain/wallets: a deep page costs the same as the first, and an account linked
   * during a walk never makes the walk repeat or skip one that existed before.
   */
  async listOnChainPage(
    tenantId: string,
    after: AccountKeysetPosition | null,
    limit: number,
  ): Promise<AccountEntity[]> {
    const { rows } = await runSql<AccountRow>(
      this.m(),
      `SELECT * FROM account WHERE tenant_id = $1 AND address IS NOT NULL AND chain IS NOT NULL
         AND ($2::timestamptz IS NULL OR (created_on, id) > ($2::timestamptz, $3::uuid))
       ORDER BY created_on, id LIMIT $4`,
      [tenantId, after?.createdOn ?? null, after?.id ?? null, limit],
    );
    return rows.map(accountFromRow);
  }

  /** Inserts unless the id, identity or collection already exists; true when inserted. */
  /** Runs `work` in one transaction (a write and its events: the outbox). */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async insertIfAbsent(account: AccountEntity, manager?: EntityManager): Promise<boolean> {
    const { rows } = await runSql(
      this.m(manager),
      `INSERT INTO account (id, tenant_id, collection_id, identity, platform, source, source_options, address, chain,
         sync_status, connection_status, balance_source, last_synced_at, created_on, credentials_encrypted,
         next_refresh_at, last_refresh_attempt_at, last_error, refresh_lease_until, refresh_lease_owner)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20)
       ON CONFLICT DO NOTHING RETURNING id`,
      [
        account.id,
        account.tenantId,
        account.collectionId,
        account.identity,
        account.platform,
        account.source,
        account.sourceOptions === null ? null : JSON.stringify(account.sourceOptions),
        account.address,
        account.chain,
        account.syncStatus,
        account.connectionStatus,
        account.balanceSource,
        account.lastSyncedAt,
        account.createdOn,
        account.credentialsEncrypted,
        account.nextRefreshAt,
        account.lastRefreshAttemptAt,
        account.lastError,
        // A creator that syncs the account itself first creates it leased (the sandbox seed).
        account.refreshLeaseUntil,
        account.refreshLeaseOwner,
      ],
    );
    return rows.length === 1;
  }

  /** Which of identity / collectionId are taken in the tenant (for a precise 409). */
  async conflicts(
    tenantId: string,
    identity: string,
    collectionId: string,
  ): Promise<{ identity: boolean; collectionId: boolean }> {
    const { rows } = await runSql<{ identity: string; collection_id: string }>(
      this.m(),
      'SELECT identity, collection_id FROM account WHERE tenant_id = $1 AND (identity = $2 OR collection_id = $3)',
      [tenantId, identity, collectionId],
    );
    return {
      identity: rows.some((r) => r.identity === identity),
      collectionId: rows.some((r) => r.collection_id === collectionId),
    };
  }

  /** Replaces the account's encrypted credentials (a reconnect). */
  async updateCredentials(tenantId: string, accountId: string, encrypted: string): Promise<void> {
    await runSql(this.m(), 'UPDATE account SET credentials_encrypted = $3 WHERE tenant_id = $1 AND id = $2', [
      tenantId,
      accountId,
      encrypted,
    ]);
  }

  async delete(tenantId: string, accountId: string, manager?: EntityManager): Promise<boolean> {
    const { affected } = await runSql(
      this.m(manager),
      'DELETE FROM account WHERE tenant_id = $1 AND id = $2',
      [tenantId, accountId],
    );
    return affected > 0;
  }

  /** Admin API (cross-tenant by design: the internal admin team): the tenant an account belongs to. */
  async adminFindTenantOf(accountId: string): Promise<string | null> {
    const { rows } = await runSql<{ tenant_id: string }>(
      this.m(),
      'SELECT tenant_id FROM account WHERE id = $1',
      [accountId],
    );
    return rows[0]?.tenant_id ?? null;
  }

  /** Admin API: accounts of one tenant, or of all tenants when tenantId is null, keyset by (createdOn, id). */
  async adminListPage(
    tenantId: string | null,
    after: AccountKeysetPosition | null,
    limit: number,
    syncStatus: SyncStatus | null = null,
    needsReview = false,
  ): Promise<AccountEntity[]> {
    const { rows } = await runSql<AccountRow>(
      this.m(),
      `SELECT * FROM account WHERE ($1::uuid IS NULL OR tenant_id = $1)
         AND ($5::text IS NULL OR sync_status = $5)
         AND (NOT $6::boolean OR review_reason IS NOT NULL)
         AND ($2::timestamptz IS NULL OR (created_on, id) > ($2::timestamptz, $3::uuid))
       ORDER BY created_on, id LIMIT $4`,
      [tenantId, after?.createdOn ?? null, after?.id ?? null, limit, syncStatus, needsReview],
    );
    return rows.map(accountFromRow);
  }

  /** Accounts needing review (reconciliation), of one tenant or of all (admin API). */
  async adminCountNeedingReview(tenantId: string | null): Promise<number> {
    const { rows } = await runSql<{ count: string | number }>(
      this.m(),
      `SELECT count(*) AS count FROM account WHERE ($1::uuid IS NULL OR tenant_id = $1) AND review_reason IS NOT NULL`,
      [tenantId],
    );
    return Number(rows[0]?.count ?? 0);
  }

  /** Accounts per sync state, of one tenant or of all (admin API); every state present, 0 included. */
  async adminCountBySyncStatus(tenantId: string | null): Promise<Record<SyncStatus, number>> {
    const { rows } = await runSql<{ sync_status: SyncStatus; count: string | number }>(
      this.m(),
      `SELECT sync_status, count(*) AS count FROM account WHERE ($1::uuid IS NULL OR tenant_id = $1)
       GROUP BY sync_status`,
      [tenantId],
    );
    const counts = Object.fromEntries(SYNC_STATUSES.map((status) => [status, 0])) as Record<
      SyncStatus,
      number
    >;
    for (const row of rows) counts[row.sync_status] = Number(row.count);
    return counts;
  }
}
