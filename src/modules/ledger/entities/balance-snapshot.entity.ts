import { Column, Entity, Index, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import type { CostBasisMethod } from '../../../domain/cost-basis/index.js';
import type { SnapshotIssue } from '../../../domain/balances/index.js';

export type { SnapshotIssue };

/**
 * The account's balances as last computed by the cost-basis engine at the prices of that moment:
 * account totals and `lastUpdatedOn`. One row per account; the per-asset rows are in
 * balance_snapshot_asset. Written in the same database transaction as the transactions it was
 * computed from, so readers never see one without the other. Exact decimals; rounding to cents
 * happens at the API edge.
 */
@Entity('balance_snapshot')
@Index('IDX_balance_snapshot_tenant', ['tenantId'])
export class BalanceSnapshotEntity {
  @PrimaryColumn('uuid')
  accountId: string;

  // The account row (accounts module), named not imported: the ledger sits below accounts.
  @OneToOne('AccountEntity', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: unknown;

  @Column('uuid')
  tenantId: string;

  @Column({ type: 'timestamptz' })
  lastUpdatedOn: Date;

  @Column({ type: 'varchar', length: 8 })
  method: CostBasisMethod;

  /** Sum over priced assets. */
  @Column({ type: 'numeric' })
  marketValueUsd: string;

  @Column({ type: 'numeric' })
  realizedGainUsd: string;

  /** Sum over priced assets. */
  @Column({ type: 'numeric' })
  unrealizedGainUsd: string;

  /**
   * Quantities the source last reported (symbol → decimal text) when it reports balances
   * itself; kept so a recomputation triggered by a linked account can still check them.
   */
  @Column({ type: 'jsonb', nullable: true })
  reportedBalances: Record<string, string> | null;

  /** Set when the history is inconsistent: balances answer 422 with it. */
  @Column({ type: 'jsonb', nullable: true })
  issue: SnapshotIssue | null;
}
