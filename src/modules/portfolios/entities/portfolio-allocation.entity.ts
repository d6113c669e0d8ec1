import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { PortfolioEntity } from './portfolio.entity.js';

/** One asset's share of a portfolio, in percent (exact numeric, 8 decimals). */
@Entity('portfolio_allocation')
export class PortfolioAllocationEntity {
  @PrimaryColumn('uuid')
  portfolioId: string;

  @ManyToOne(() => PortfolioEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'portfolio_id' })
  portfolio?: PortfolioEntity;

  /** Upper-case ticker. */
  @PrimaryColumn({ type: 'varchar', length: 20 })
  symbol: string;

  /** Percentage as decimal text, 0-100 with up to 8 decimals. */
  @Column({ type: 'numeric', precision: 11, scale: 8 })
  percentage: string;
}
