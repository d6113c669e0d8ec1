import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { AllocatedLot, BasisTransition, CostBasisMethod } from '../../../domain/cost-basis/index.js';
import { runSql } from '../../../database/sql.js';

/** A confirmed safe-harbor allocation (docs/cost-basis.md, "Universal to per-wallet"). */
export interface StoredSafeHarborAllocation {
  readonly id: string;
  readonly transitionAt: Date;
  readonly universalMethod: CostBasisMethod;
  /** The first 2025+ disposal of the tenant when it was confirmed; null: none yet. */
  readonly firstDisposalAt: Date | null;
  readonly confirmedAt: Date;
  readonly confirmedBy: string;
  /** The allocated lots, in the order they were computed (by account, symbol, lot). */
  readonly lots: readonly AllocatedLot[];
}

export type SafeHarborAllocationInput = Omit<StoredSafeHarborAllocation, 'id'>;

interface HeaderRow {
  id: string;
  transition_at: Date;
  universal_method: CostBasisMethod;
  first_disposal_at: Date | null;
  confirmed_at: Date;
  confirmed_by: string;
}

interface LotRow {
  account_id: string;
  symbol: string;
  quantity: string;
  cost_basis_usd: string;
  acquired_at: Date;
  basis_known: boolean;
  origin_transaction_id: string;
}

/**
 * The `safe_harbor_allocation` and `safe_harbor_allocation_lot` tables: at most one confirmed
 * allocation per tenant, never changed. Every query takes the tenant id first.
 */
@Injectable()
export class SafeHarborAllocationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async find(tenantId: string, manager?: EntityManager): Promise<StoredSafeHarborAllocation | null> {
    const runner = manager ?? this.dataSource.manager;
    const { rows } = await runSql<HeaderRow>(
      runner,
      `SELECT id, transition_at, universal_method, first_disposal_at, confirmed_at, confirmed_by
         FROM safe_harbor_allocation WHERE tenant_id = $1`,
      [tenantId],
    );
    if (rows.length === 0) return null;
    const header = rows[0];
    const lots = await runSql<LotRow>(
      runner,
      `SELECT account_id, symbol, quantity, cost_basis_usd, acquired_at, basis_known, origin_transaction_id
         FROM safe_harbor_allocation_lot WHERE tenant_id = $1 AND allocation_id = $2 ORDER BY position`,
      [tenantId, header.id],
    );
    return {
      id: header.id,
      transitionAt: new Date(header.transition_at),
      universalMethod: header.universal_method,
      firstDisposalAt: header.first_disposal_at === null ? null : new Date(header.first_disposal_at),
      confirmedAt: new Date(header.confirmed_at),
      confirmedBy: header.confirmed_by,
      lots: lots.rows.map((row) => ({
        accountId: row.account_id,
        symbol: row.symbol,
        quantity: row.quantity,
        costBasisUsd: row.cost_basis_usd,
        acquiredAt: new Date(row.acquired_at),
        basisKnown: row.basis_known,
        originTransactionId: row.origin_transaction_id,
      })),
    };
  }

  /** The engine's input (CostBasisOptions.transition) of the tenant's confirmed allocation, if any. */
  async transition(tenantId: string, manager?: EntityManager): Promise<BasisTransition | undefined> {
    const stored = await this.find(tenantId, manager);
    return stored ? { at: stored.transitionAt, lots: stored.lots } : undefined;
  }

  /**
   * Stores a confirmed allocation in the caller's transaction; false when the tenant already has
   * one (the unique tenant_id decides, so two concurrent confirmations cannot both win).
   */
  async insert(
    tenantId: string,
    input: SafeHarborAllocationInput,
    manager: EntityManager,
  ): Promise<StoredSafeHarborAllocation | null> {
    const id = randomUUID();
    const { rows } = await runSql<{ id: string }>(
      manager,
      `INSERT INTO safe_harbor_allocation
         (id, tenant_id, transition_at, universal_method, first_disposal_at, confirmed_at, confirmed_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (tenant_id) DO NOTHING RETURNING id`,
      [
        id,
        tenantId,
        input.transitionAt,
        input.universalMethod,
        input.firstDisposalAt,
        input.confirmedAt,
        input.confirmedBy,
      ],
    );
    if (rows.length === 0) return null;
    let position = 0;
    for (const lot of input.lots) {
      await runSql(
        manager,
        `INSERT INTO safe_harbor_allocation_lot
           (allocation_id, position, tenant_id, account_id, symbol, quantity, cost_basis_usd, acquired_at, basis_known, origin_transaction_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          id,
          position++,
          tenantId,
          lot.accountId,
          lot.symbol,
          lot.quantity,
          lot.costBasisUsd,
          lot.acquiredAt,
          lot.basisKnown,
          lot.originTransactionId,
        ],
      );
    }
    return { id, ...input };
  }
}
