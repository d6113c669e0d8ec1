import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { CommunityData, DeveloperData } from '../../../domain/market/derived-scores.js';

export type MarketSource = 'sandbox' | 'coingecko';

/**
 * Where the raw developer/community counts behind the derived scores came from:
 * the provider itself, the service's reference catalog (when the provider no longer
 * publishes them), or nowhere (scores then count them as zero).
 */
export type ScoreInputsSource = 'sandbox' | 'coingecko' | 'catalog' | 'none';

/** One tracked cryptoasset: identity, supplies and the raw inputs of the derived scores. */
@Entity('asset')
export class AssetEntity {
  /** The service's stable integer id (the market-data record's `id`); never renumbered. */
  @PrimaryColumn('integer')
  id: number;

  /** CoinGecko's id ("bitcoin"): the identifier clients use in /api/crypto-data. */
  @Column({ type: 'varchar', length: 100, unique: true })
  coingeckoId: string;

  /** Upper-case ticker ("BTC"). Not unique across all coins, so not a key. */
  @Index()
  @Column({ type: 'varchar', length: 20 })
  symbol: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  /** Supplies as decimal text (provider values can be fractional and exceed 2^53). */
  @Column({ type: 'numeric', nullable: true })
  circulatingSupply: string | null;

  @Column({ type: 'numeric', nullable: true })
  totalSupply: string | null;

  /** Null when uncapped (ETH); never a made-up 0. */
  @Column({ type: 'numeric', nullable: true })
  maxSupply: string | null;

  @Column({ type: 'jsonb', nullable: true })
  developerData: DeveloperData | null;

  @Column({ type: 'jsonb', nullable: true })
  communityData: CommunityData | null;

  @Column({ type: 'varchar', length: 20, default: 'none' })
  scoreInputsSource: ScoreInputsSource;

  /** When the raw developer/community inputs were last fetched. */
  @Column({ type: 'timestamptz', nullable: true })
  scoreInputsAsOf: Date | null;

  @Column({ type: 'varchar', length: 20 })
  source: MarketSource;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
