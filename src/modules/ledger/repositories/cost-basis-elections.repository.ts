import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { CostBasisMethod, MethodElection } from '../../../domain/cost-basis/index.js';
import { runSql } from '../../../database/sql.js';

/** A stored method election (docs/cost-basis.md, "Method elections"). */
export interface StoredElection extends MethodElection {
  readonly id: string;
  readonly recordedBy: string;
}

export interface ElectionInput {
  readonly accountId: string | null;
  readonly method: CostBasisMethod;
  readonly effectiveFrom: string;
  readonly recordedAt: Date;
  readonly recordedBy: string;
}

interface Row {
  id: string;
  account_id: string | null;
  method: CostBasisMethod;
  effective_from: string | Date;
  recorded_at: Date;
  recorded_by: string;
}

/** A DATE column as YYYY-MM-DD whatever the driver hands back (text or a Date at UTC midnight). */
const dateText = (value: string | Date): string =>
  typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10);

/** The append-only `cost_basis_election` table. Every query takes the tenant id first. */
@Injectable()
export class CostBasisElectionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Every election of the tenant (tenant-wide and per account), in recording order. */
  async forTenant(tenantId: string, manager?: EntityManager): Promise<StoredElection[]> {
    const { rows } = await runSql<Row>(
      manager ?? this.dataSource.manager,
      `SELECT id, account_id, method, effective_from::text AS effective_from, recorded_at, recorded_by
         FROM cost_basis_election WHERE tenant_id = $1 ORDER BY recorded_at, id`,
      [tenantId],
    );
    return rows.map((row) => ({
      id: row.id,
      accountId: row.account_id,
      method: row.method,
      effectiveFrom: dateText(row.effective_from),
      recordedAt: new Date(row.recorded_at),
      recordedBy: row.recorded_by,
    }));
  }

  async insert(tenantId: string, input: ElectionInput, manager?: EntityManager): Promise<StoredElection> {
    const id = randomUUID();
    await runSql(
      manager ?? this.dataSource.manager,
      `INSERT INTO cost_basis_election (id, tenant_id, account_id, method, effective_from, recorded_at, recorded_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [id, tenantId, input.accountId, input.method, input.effectiveFrom, input.recordedAt, input.recordedBy],
    );
    return { id, ...input };
  }
}
