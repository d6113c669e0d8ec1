import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BalanceSnapshotEntity } from './balance-snapshot.entity.js';

/** One asset of a balance snapshot; exact decimal text. */
@Entity('balance_snapshot_asset')
export class BalanceSnapshotAssetEntity {
  @PrimaryColumn('uuid')
  accountId: string;

  @ManyToOne(() => BalanceSnapshotEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  snapshot?: BalanceSnapshotEntity;

  @PrimaryColumn({ type: 'varchar', length: 20, collation: 'C' })
  symbol: string;

  @Column('uuid')
  tenantId: string;

  @Column({ type: 'numeric' })
  quantity: string;

  /** Basis of the known-basis quantity. */
  @Column({ type: 'numeric' })
  costBasisUsd: string;

  /** null when no price is stored for the symbol. */
  @Column({ type: 'numeric', nullable: true })
  priceUsd: string | null;

  @Column({ type: 'numeric', nullable: true })
  marketValueUsd: string | null;

  @Column({ type: 'numeric' })
  realizedGainUsd: string;

  @Column({ type: 'numeric', nullable: true })
  unrealizedGainUsd: string | null;

  /** Unknown basis is involved (a deposit from outside, an unmatched transfer). */
  @Column({ type: 'boolean' })
  needsReview: boolean;
}
