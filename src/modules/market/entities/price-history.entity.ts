import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One price per asset and UTC calendar day; the last observation of the day wins.
 * Deliberately no foreign key to `asset`: checking one per row doubles the time of the bulk
 * history insert that seeds a fresh store (~75,000 rows), and assets are never deleted. The refresh
 * writes the asset before its history in the same transaction.
 */
@Entity('price_history')
export class PriceHistoryEntity {
  @PrimaryColumn('integer')
  assetId: number;

  /** UTC calendar date, YYYY-MM-DD. */
  @PrimaryColumn({ type: 'date' })
  date: string;

  @Column({ type: 'numeric' })
  priceUsd: string;

  @Column({ type: 'numeric', nullable: true })
  marketCapUsd: string | null;

  @Column({ type: 'numeric', nullable: true })
  volumeUsd: string | null;
}
