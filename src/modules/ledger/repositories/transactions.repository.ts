import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { Direction, LedgerEntry } from '../../../domain/cost-basis/index.js';
import type { TransactionInput } from '../transaction-input.js';
import { runSql } from '../../../database/sql.js';

/** A stored transaction as the API shows it (decimals as stored: canonical text). */
export interface StoredTransaction {
  readonly accountId: string;
  readonly transactionId: string;
  readonly symbol: string;
  readonly direction: Direction;
  readonly amount: string;
  readonly priceUsd: string | null;
  readonly feeUsd: string | null;
  readonly occurredAt: Date;
  readonly transferId: string | null;
}

export interface TransactionKeysetPosition {
  readonly occurredAt: Date;
  readonly transactionId: string;
}

/** A transaction's key in its tenant. */
export interface LedgerKey {
  readonly accountId: string;
  readonly transactionId: string;
}

export interface TransactionRange {
  /** Inclusive. */
  readonly fromInclusive: Date | null;
  /** Exclusive. */
  readonly toExclusive: Date | null;
}

export interface ChecksumFilters {
  readonly platform?: string;
  readonly collectionId?: string;
  readonly identity?: string;
}

interface TransactionRow {
  account_id: string;
  transaction_id: string;
  symbol: string;
  direction: Direction;
  amount: string;
  price_usd: string | null;
  fee_usd: string | null;
  occurred_at: Date;
  transfer_id: string | null;
}

const toStored = (row: TransactionRow): StoredTransaction => ({
  accountId: row.account_id,
  transactionId: row.transaction_id,
  symbol: row.symbol,
  direction: row.direction,
  amount: row.amount,
  priceUsd: row.price_usd,
  feeUsd: row.fee_usd,
  occurredAt: row.occurred_at,
  transferId: row.transfer_id,
});

/** The engine's input shape. A transaction without a price has none to use ('0' is ignored for its direction). */
export function toLedgerEntry(tx: StoredTransaction): LedgerEntry {
  return {
    accountId: tx.accountId,
    transactionId: tx.transactionId,
    symbol: tx.symbol,
    direction: tx.direction,
    amount: tx.amount,
    priceUsd: tx.priceUsd ?? '0',
    ...(tx.feeUsd === null ? {} : { feeUsd: tx.feeUsd }),
    timestamp: tx.occurredAt,
    ...(tx.transferId === null ? {} : { transferId: tx.transferId }),
  };
}

const SELECT_COLUMNS =
  'account_id, transaction_id, symbol, direction, amount, price_usd, fee_usd, occurred_at, transfer_id';

/**
 * A transaction as the cost-basis engine's encoded input takes it (encodedKeyPage): no account
 * column when the page is one account's (it is that account), the instant as milliseconds.
 */
export interface LedgerPageRow {
  readonly account_id?: string;
  readonly transaction_id: string;
  readonly symbol: string;
  readonly direction: Direction;
  readonly amount: string;
  readonly price_usd: string | null;
  readonly fee_usd: string | null;
  /** occurred_at in milliseconds since the epoch, the sub-millisecond part dropped as a Date's parse drops it. */
  readonly occurred_ms: number;
  readonly transfer_id: string | null;
}

/**
 * The instant as node-postgres' Date of it would give it (getTime()): whole milliseconds, the
 * fraction below cut off (postgres-date truncates, toward the past, as floor does here). Read as a
 * double by the driver instead of a timestamp text parsed into a Date per row.
 */
const OCCURRED_MS = 'floor(extract(epoch FROM occurred_at) * 1000)::float8 AS occurred_ms';
const LEDGER_PAGE_COLUMNS = `transaction_id, symbol, direction, amount, price_usd, fee_usd, ${OCCURRED_MS}, transfer_id`;

/** Rows per multi-row INSERT: 9 parameters each, well under Postgres' 65,535. */
const INSERT_BATCH = 1_000;

/** Transactions of the tenant's accounts. Every query takes the tenant id first. */
@Injectable()
export class TransactionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  /**
   * Inserts new transactions and updates changed ones (same key); unchanged rows are not
   * rewritten. Returns how many were inserted and updated.
   */
  async upsert(
    tenantId: string,
    accountId: string,
    transactions: readonly TransactionInput[],
    manager: EntityManager,
    onBatch?: (written: number) => void,
  ): Promise<{ inserted: number; updated: number }> {
    let inserted = 0;
    let updated = 0;
    for (let start = 0; start < transactions.length; start += INSERT_BATCH) {
      const batch = transactions.slice(start, start + INSERT_BATCH);
      const params: unknown[] = [tenantId, accountId];
      const values = batch.map((tx) => {
        const base = params.length;
        params.push(
          tx.transactionId,
          tx.symbol,
          tx.direction,
          tx.amount,
          tx.priceUsd,
          tx.feeUsd,
          tx.occurredAt,
          tx.transferId,
        );
        const p = (i: number) => `$${base + i}`;
        return `($1, $2, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}::numeric, ${p(5)}::numeric, ${p(6)}::numeric, ${p(7)}::timestamptz, ${p(8)})`;
      });
      const { rows } = await runSql<{ inserted: boolean }>(
        manager,
        `INSERT INTO "transaction" AS t (tenant_id, account_id, transaction_id, symbol, direction, amount, price_usd, fee_usd, occurred_at, transfer_id)
         VALUES ${values.join(', ')}
         ON CONFLICT (tenant_id, account_id, transaction_id) DO UPDATE SET
           symbol = EXCLUDED.symbol, direction = EXCLUDED.direction, amount = EXCLUDED.amount,
           price_usd = EXCLUDED.price_usd, fee_usd = EXCLUDED.fee_usd, occurred_at = EXCLUDED.occurred_at,
           transfer_id = EXCLUDED.transfer_id
         WHERE (t.symbol, t.direction, t.amount, t.price_usd, t.fee_usd, t.occurred_at, t.transfer_id)
           IS DISTINCT FROM (EXCLUDED.symbol, EXCLUDED.direction, EXCLUDED.amount, EXCLUDED.price_usd,
                             EXCLUDED.fee_usd, EXCLUDED.occurred_at, EXCLUDED.transfer_id)
         RETURNING (xmax = 0) AS inserted`,
        params,
      );
      for (const row of rows) if (row.inserted) inserted++;
      updated += rows.length - rows.filter((r) => r.inserted).length;
      onBatch?.(Math.min(start + INSERT_BATCH, transactions.length));
    }
    return { inserted, updated };
  }

  /** Full refresh: removes the account's transactions the source no longer reports. */
  async deleteAllExcept(
    tenantId: string,
    accountId: string,
    keepIds: readonly string[],
    manager: EntityManager,
  ): Promise<number> {
    const { affected } = await runSql(
      manager,
      `DELETE FROM "transaction" WHERE tenant_id = $1 AND account_id = $2 AND NOT (transaction_id = ANY($3::varchar[]))`,
      [tenantId, accountId, [...keepIds]],
    );
    return affected;
  }

  /** In (occurredAt, transactionId) order; keyset paging when `limit` is given. */
  async listRange(
    tenantId: string,
    accountId: string,
    range: TransactionRange,
    after: TransactionKeysetPosition | null,
    limit: number | null,
  ): Promise<StoredTransaction[]> {
    const params: unknown[] = [tenantId, accountId];
    const where = ['tenant_id = $1', 'account_id = $2'];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (range.fromInclusive) where.push(`occurred_at >= ${param(range.fromInclusive)}`);
    if (range.toExclusive) where.push(`occurred_at < ${param(range.toExclusive)}`);
    if (after) {
      where.push(
        `(occurred_at, transaction_id) > (${param(after.occurredAt)}::timestamptz, ${param(after.transactionId)}::varchar COLLATE "C")`,
      );
    }
    const { rows } = await runSql<TransactionRow>(
      this.m(),
      `SELECT ${SELECT_COLUMNS} FROM "transaction" WHERE ${where.join(' AND ')}
       ORDER BY occurred_at, transaction_id ${limit === null ? '' : `LIMIT ${param(limit)}`}`,
      params,
    );
    return rows.map(toStored);
  }

  /**
   * One page of the tenant's transactions (or one account's) in key order (account_id, then
   * transaction_id byte order: the primary key's index), after `after`; keyset paging for reading
   * a whole ledger a chunk at a time (LedgerService).
   */
  async keyPage(
    tenantId: string,
    accountId: string | null,
    after: LedgerKey | null,
    limit: number,
    manager?: EntityManager,
  ): Promise<StoredTransaction[]> {
    const { params, where, param } = keyPageFilter(tenantId, accountId, after);
    const { rows } = await runSql<TransactionRow>(
      this.m(manager),
      `SELECT ${SELECT_COLUMNS} FROM "transaction" WHERE ${where.join(' AND ')}
       ORDER BY account_id, transaction_id LIMIT ${param(limit)}`,
      params,
    );
    return rows.map(toStored);
  }

  /**
   * keyPage as the compute pool's encoding reads it (LedgerService.encodedLedgerForAccount): the
   * same rows in the same order, with only the columns the engine takes (LedgerPageRow), so a
   * whole history costs less to fetch and parse than the rows' own SELECT.
   */
  async encodedKeyPage(
    tenantId: string,
    accountId: string | null,
    after: LedgerKey | null,
    limit: number,
    manager?: EntityManager,
  ): Promise<LedgerPageRow[]> {
    const { params, where, param } = keyPageFilter(tenantId, accountId, after);
    const columns = accountId === null ? `account_id, ${LEDGER_PAGE_COLUMNS}` : LEDGER_PAGE_COLUMNS;
    const { rows } = await runSql<LedgerPageRow>(
      this.m(manager),
      `SELECT ${columns} FROM "transaction" WHERE ${where.join(' AND ')}
       ORDER BY account_id, transaction_id LIMIT ${param(limit)}`,
      params,
    );
    return rows;
  }

  /** Every transaction of the tenant. */
  async forTenant(tenantId: string, manager?: EntityManager): Promise<StoredTransaction[]> {
    const { rows } = await runSql<TransactionRow>(
      this.m(manager),
      `SELECT ${SELECT_COLUMNS} FROM "transaction" WHERE tenant_id = $1`,
      [tenantId],
    );
    return rows.map(toStored);
  }

  /**
   * The accounts linked to `accountIds` by own-account transfers (same transferId), transitively,
   * including themselves; `extraTransferIds` (of transactions not stored yet) link in too.
   */
  async transferLinkedAccounts(
    tenantId: string,
    accountIds: readonly string[],
    extraTransferIds: readonly string[],
    manager?: EntityManager,
  ): Promise<string[]> {
    const { rows } = await runSql<{ account_id: string }>(
      this.m(manager),
      `WITH RECURSIVE linked(account_id) AS (
         SELECT unnest($2::uuid[])
         UNION
         SELECT account_id FROM "transaction" WHERE tenant_id = $1 AND transfer_id = ANY($3::varchar[])
         UNION
         SELECT other.account_id FROM linked
           JOIN "transaction" own ON own.tenant_id = $1 AND own.account_id = linked.account_id AND own.transfer_id IS NOT NULL
           JOIN "transaction" other ON other.tenant_id = $1 AND other.transfer_id = own.transfer_id
       )
       SELECT account_id FROM linked ORDER BY account_id`,
      [tenantId, [...accountIds], [...extraTransferIds]],
    );
    return rows.map((r) => r.account_id);
  }

  async symbolsOf(tenantId: string, accountIds: readonly string[]): Promise<string[]> {
    const { rows } = await runSql<{ symbol: string }>(
      this.m(),
      `SELECT DISTINCT symbol FROM "transaction" WHERE tenant_id = $1 AND account_id = ANY($2::uuid[])`,
      [tenantId, [...accountIds]],
    );
    return rows.map((r) => r.symbol);
  }
}

/**
 * The WHERE of a key-order page (keyPage, encodedKeyPage): the tenant, the account when one is
 * named, and the rows after `after` in (account_id, transaction_id) byte order; `param` adds one
 * more parameter (the LIMIT).
 */
function keyPageFilter(tenantId: string, accountId: string | null, after: LedgerKey | null) {
  const params: unknown[] = [tenantId];
  const param = (value: unknown) => `$${params.push(value)}`;
  const where = ['tenant_id = $1'];
  if (accountId !== null) {
    where.push(`account_id = ${param(accountId)}::uuid`);
    // Not the row comparison below: with the account fixed too, Postgres starts the index scan
    // at the account's first row and filters up to `after` (each page slower than the last).
    if (after !== null) where.push(`transaction_id > ${param(after.transactionId)}::varchar COLLATE "C"`);
  } else if (after !== null) {
    where.push(
      `(account_id, transaction_id) > (${param(after.accountId)}::uuid, ${param(after.transactionId)}::varchar COLLATE "C")`,
    );
  }
  return { params, where, param };
}
