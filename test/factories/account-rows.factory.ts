/**
 * Rows for service tests that run a module without the accounts module above it (e.g. the refresh
 * engine): a tenant and a linked account, written as the accounts module writes them.
 */
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';

export async function insertTenant(dataSource: DataSource, slug: string): Promise<string> {
  const id = randomUUID();
  await dataSource.query(
    `INSERT INTO tenant (id, slug, name, is_sandbox, kind) VALUES ($1, $2, $3, false, 'partner')`,
    [id, slug, `Service test ${slug}`],
  );
  return id;
}

/** A newly linked account (`syncing`, due now), as AccountsService.create leaves it. */
export async function insertAccount(
  dataSource: DataSource,
  tenantId: string,
  fields: { source: string; createdOn: Date; platform?: string; identity?: string },
): Promise<string> {
  const id = randomUUID();
  await dataSource.query(
    `INSERT INTO account (id, tenant_id, collection_id, identity, platform, source, sync_status, connection_status,
       balance_source, created_on, next_refresh_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'syncing', 'connected', 'calculated', $7, $7)`,
    [
      id,
      tenantId,
      randomUUID(),
      fields.identity ?? `identity-${id}`,
      fields.platform ?? 'coinbase',
      fields.source,
      fields.createdOn,
    ],
  );
  return id;
}

export interface AccountState {
  syncStatus: string;
  connectionStatus: string;
  nextRefreshAt: Date | null;
  lastSyncedAt: Date | null;
  lastError: string | null;
  leaseOwner: string | null;
}

export async function accountState(dataSource: DataSource, accountId: string): Promise<AccountState> {
  const [row] = await dataSource.query(
    `SELECT sync_status, connection_status, next_refresh_at, last_synced_at, last_error, refresh_lease_owner
     FROM account WHERE id = $1`,
    [accountId],
  );
  return {
    syncStatus: row.sync_status,
    connectionStatus: row.connection_status,
    nextRefreshAt: row.next_refresh_at && new Date(row.next_refresh_at),
    lastSyncedAt: row.last_synced_at && new Date(row.last_synced_at),
    lastError: row.last_error,
    leaseOwner: row.refresh_lease_owner,
  };
}
