import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { LotPick } from '../../../domain/cost-basis/index.js';
import { runSql } from '../../../database/sql.js';

/** A stored lot selection (docs/cost-basis.md, "Specific identification"). */
export interface StoredLotSelection {
  readonly id: string;
  readonly accountId: string;
  readonly transactionId: string;
  readonly lots: readonly LotPick[];
  readonly recordedAt: Date;
  readonly recordedBy: string;
  /** When its disposal happened, as the ledger has it now; null: the disposal is no longer in the history. */
  readonly disposedAt: Date | null;
}

export type LotSelectionInput = Omit<StoredLotSelection, 'id' | 'disposedAt'>;

interface Row {
  id: string;
  account_id: string;
  transaction_id: string;
  lots: string;
  recorded_at: Date;
  recorded_by: string;
  disposed_at: Date | null;
}

const toStored = (row: Row): StoredLotSelection => ({
  id: row.id,
  accountId: row.account_id,
  transactionId: row.transaction_id,
  lots: (JSON.parse(row.lots) as { lot_id: string; quantity: string }[]).map((pick) => ({
    lotId: pick.lot_id,
    quantity: pick.quantity,
  })),
  recordedAt: new Date(row.recorded_at),
  recordedBy: row.recorded_by,
  disposedAt: row.disposed_at === null ? null : new Date(row.disposed_at),
});

/** The selection's columns and its disposal's time (the transaction is unique per tenant, account and id). */
const SELECT = `SELECT s.id, s.account_id, s.transaction_id, s.lots, s.recorded_at, s.recorded_by,
       t.occurred_at AS disposed_at
  FROM lot_selection s
  LEFT JOIN "transaction" t
    ON t.tenant_id = s.tenant_id AND t.account_id = s.account_id AND t.transaction_id = s.transaction_id`;

/** The `lot_selection` table: at most one selection per disposal. Every query takes the tenant id first. */
@Injectable()
export class LotSelectionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The tenant's selections (optionally one account's), in recording order. */
  async forTenant(
    tenantId: string,
    accountId?: string,
    manager?: EntityManager,
  ): Promise<StoredLotSelection[]> {
    const { rows } = await runSql<Row>(
      manager ?? this.dataSource.manager,
      accountId === undefined
        ? `${SELECT} WHERE s.tenant_id = $1 ORDER BY s.recorded_at, s.id`
        : `${SELECT} WHERE s.tenant_id = $1 AND s.account_id = $2 ORDER BY s.recorded_at, s.id`,
      accountId === undefined ? [tenantId] : [tenantId, accountId],
    );
    return rows.map(toStored);
  }

  async findById(tenantId: string, id: string, manager?: EntityManager): Promise<StoredLotSelection | null> {
    const { rows } = await runSql<Row>(
      manager ?? this.dataSource.manager,
      `${SELECT} WHERE s.tenant_id = $1 AND s.id = $2`,
      [tenantId, id],
    );
    return rows.length > 0 ? toStored(rows[0]) : null;
  }

  /** Records a selection, replacing the disposal's earlier one (if any), in the caller's transaction. */
  async replace(
    tenantId: string,
    input: LotSelectionInput,
    manager: EntityManager,
  ): Promise<StoredLotSelection> {
    await runSql(
      manager,
      `DELETE FROM lot_selection WHERE tenant_id = $1 AND account_id = $2 AND transaction_id = $3`,
      [tenantId, input.accountId, input.transactionId],
    );
    const id = randomUUID();
    const lots = JSON.stringify(input.lots.map((pick) => ({ lot_id: pick.lotId, quantity: pick.quantity })));
    await runSql(
      manager,
      `INSERT INTO lot_selection (id, tenant_id, account_id, transaction_id, lots, recorded_at, recorded_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [id, tenantId, input.accountId, input.transactionId, lots, input.recordedAt, input.recordedBy],
    );
    return (await this.findById(tenantId, id, manager))!;
  }

  async delete(tenantId: string, id: string, manager: EntityManager): Promise<void> {
    await runSql(manager, `DELETE FROM lot_selection WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  }
}
