import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { SYNC_STATUSES, type SyncStatus } from '../../../domain/accounts/sync-status.js';
import { TenantEntity } from '../../tenancy/entities/tenant.entity.js';

/** design §5: the four states clients are told to display (src/domain/accounts). */
export { SYNC_STATUSES, type SyncStatus };
export type ConnectionStatus = 'connected' | 'disconnected';
export type BalanceSource = 'source_reported' | 'calculated';

/**
 * One connection an end client made to one platform (design §5: a collection yields one
 * account). Holds the sync state, the refresh lease that keeps one refresh per account at a
 * time across instances, and the connector credentials, encrypted (never returned or logged).
 */
@Entity('account')
@Index('UQ_account_tenant_identity', ['tenantId', 'identity'], { unique: true })
@Index('UQ_account_tenant_collection', ['tenantId', 'collectionId'], { unique: true })
@Index('IDX_account_tenant_created', ['tenantId', 'createdOn', 'id'])
@Index('IDX_account_tenant_platform', ['tenantId', 'platform'])
@Index('IDX_account_next_refresh', ['nextRefreshAt'])
// The scheduler's sweep for imports whose process died (RefreshService.resolveAbandonedImports).
@Index('IDX_account_lease_import', ['refreshLeaseUntil'], { where: 'refresh_lease_import IS NOT NULL' })
export class AccountEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid')
  tenantId: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: TenantEntity;

  @Column('uuid')
  collectionId: string;

  /** The partner's own identifier for the account, unique per tenant. */
  @Column({ type: 'varchar', length: 200 })
  identity: string;

  /** Source platform identifier, lower-case: coinbase, kraken, bitcoin, ethereum, ... */
  @Column({ type: 'varchar', length: 64 })
  platform: string;

  /** Which connector fetches the history: sandbox, csv (ConnectorRegistry). */
  @Column({ type: 'varchar', length: 32 })
  source: string;

  /** Non-secret connector settings (e.g. the sandbox profile and seed). */
  @Column({ type: 'jsonb', nullable: true })
  sourceOptions: Record<string, unknown> | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  address: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  chain: string | null;

  @Column({ type: 'varchar', length: 32 })
  syncStatus: SyncStatus;

  @Column({ type: 'varchar', length: 32 })
  connectionStatus: ConnectionStatus;

  @Column({ type: 'varchar', length: 32 })
  balanceSource: BalanceSource;

  @Column({ type: 'timestamptz', nullable: true })
  lastSyncedAt: Date | null;

  @Column({ type: 'timestamptz' })
  createdOn: Date;

  /** AES-256-GCM (CredentialsCipher); null when the source needs none. */
  @Column({ type: 'text', nullable: true })
  credentialsEncrypted: string | null;

  /** When the scheduler should next try this account; null: never on its own (reconnect required). */
  @Column({ type: 'timestamptz', nullable: true })
  nextRefreshAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastRefreshAttemptAt: Date | null;

  /** Why the last refresh failed, for the admin API (never shown to partners). */
  @Column({ type: 'varchar', length: 500, nullable: true })
  lastError: string | null;

  /**
   * Bumped whenever the account's transactions are written: lets a refresh compute balances
   * outside its transaction and check, under the row locks, that the linked accounts' data did
   * not change meanwhile.
   */
  @Column({ type: 'integer', default: 0 })
  dataVersion: number;

  /**
   * The refresh lease: one refresh or import per account at a time, across instances. Its owner is
   * an instance token (`host:pid:random`, optionally `/<part>`); a lease whose instance is gone is
   * taken over at once (docs/decisions.md, "A refresh lease whose holder is gone").
   */
  @Column({ type: 'timestamptz', nullable: true })
  refreshLeaseUntil: Date | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  refreshLeaseOwner: string | null;

  /**
   * What the import holding the lease imports (e.g. `a csv file (40000 rows) started …`); null for
   * a refresh. Left behind by an import whose process died: the account then says `error`, "The
   * import of … did not finish".
   */
  @Column({ type: 'varchar', length: 200, nullable: true })
  refreshLeaseImport: string | null;

  /**
   * Reconciliation (docs/sources.md): why the source-reported balances disagree with the
   * transactions beyond dust, naming the assets and amounts; null when they agree (or the source
   * reports none). Set and cleared by the refresh engine.
   */
  @Column({ type: 'varchar', length: 1000, nullable: true })
  reviewReason: string | null;

  /** When the disagreement in reviewReason was first seen; null with it. */
  @Column({ type: 'timestamptz', nullable: true })
  reviewSince: Date | null;

  /** Consecutive failed refreshes (the per-source backoff); 0 after a successful one. */
  @Column({ type: 'integer', default: 0 })
  refreshFailures: number;
}
