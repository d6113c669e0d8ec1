import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { AssetEntity, type MarketSource } from './asset.entity.js';

/** The latest market numbers of one asset, replaced by every refresh. Money as numeric. */
@Entity('market_snapshot')
export class MarketSnapshotEntity {
  @PrimaryColumn('integer')
  assetId: number;

  @OneToOne(() => AssetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id' })
  asset?: AssetEntity;

  @Column({ type: 'numeric' })
  priceUsd: string;

  @Column({ type: 'numeric', nullable: true })
  marketCapUsd: string | null;

  @Column({ type: 'numeric', nullable: true })
  volume24hUsd: string | null;

  @Column({ type: 'integer', nullable: true })
  marketCapRank: number | null;

  /** When the provider says these numbers were current (CoinGecko's last_updated). */
  @Column({ type: 'timestamptz' })
  providerUpdatedAt: Date;

  /** When this service fetched them from the provider. */
  @Column({ type: 'timestamptz' })
  asOf: Date;

  @Column({ type: 'varchar', length: 20 })
  source: MarketSource;
}
