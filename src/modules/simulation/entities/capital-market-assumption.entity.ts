import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { TenantEntity } from '../../tenancy/entities/tenant.entity.js';

/**
 * A tenant's capital-market assumption for one asset (design §9): the expected compound annual
 * return its projections use instead of the shrunk historical default, and optionally the
 * volatility. Correlations always come from history.
 */
@Entity('capital_market_assumption')
export class CapitalMarketAssumptionEntity {
  @PrimaryColumn('uuid')
  tenantId: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: TenantEntity;

  /** Upper-case ticker. */
  @PrimaryColumn({ type: 'varchar', length: 20 })
  symbol: string;

  /** Expected compound annual return, a fraction as decimal text (0.07 = 7 %). */
  @Column({ type: 'numeric', precision: 12, scale: 8 })
  expectedReturn: string;

  /** Annual volatility, a fraction as decimal text; null: the history's. */
  @Column({ type: 'numeric', precision: 12, scale: 8, nullable: true })
  volatility: string | null;

  /** Where the firm's figure comes from (e.g. "CIO CMA 2026"). */
  @Column({ type: 'varchar', length: 500, nullable: true })
  note: string | null;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
