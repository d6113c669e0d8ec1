import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Lease and outcome of a scheduled market job. An instance runs the job only after claiming the
 * lease in one short UPDATE, so N instances never refresh at once; the provider I/O happens
 * outside any transaction.
 */
@Entity('market_refresh_job')
export class MarketRefreshJobEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  name: string;

  /** Instance holding the lease, or null. */
  @Column({ type: 'varchar', length: 128, nullable: true })
  owner: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  leaseUntil: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastStartedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastSucceededAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastFailedAt: Date | null;

  /** Message of the last failure (no secrets: provider status and message only). */
  @Column({ type: 'text', nullable: true })
  lastError: string | null;
}
