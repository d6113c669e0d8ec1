import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ChecksumLine } from '../../domain/checksum/checksum.js';
import type { ChecksumFilters } from '../ledger/index.js';

/**
 * The integrity checksum's lines, written by the database and read through a cursor.
 *
 * Why the database writes the lines: at a million rows, turning each row into JavaScript values
 * (a Date, decimal text) and back into the line cost more than the hashing and the query
 * together. The SQL below spells docs/checksum.md's canonical forms, which are the
 * database's own text forms once trailing zeros are trimmed:
 *   - `trim_scale(numeric)::text`: plain digits, no exponent, no trailing fractional zeros, no
 *     trailing point, zero as "0" (numeric has no −0) — canonicalDecimal's text;
 *   - `to_char(… AT TIME ZONE 'UTC', …MS"Z")`: UTC with milliseconds truncated, not rounded —
 *     canonicalTimestamp's text;
 *   - the account id as the uuid's lower-case text, 36 characters.
 * test/checksum.e2e-spec.ts holds these lines to ChecksumAccumulator.add and to the reference
 * script on PGlite and Postgres, awkward ids and decimal spellings included.
 *
 * Why a cursor: rows stream in fetches of `fetchSize` inside the caller's transaction, so memory
 * holds one fetch whatever the row count, and each FETCH is a short statement that stays inside
 * the database timeout (one statement for a million rows would not).
 */
@Injectable()
export class ChecksumLinesRepository {
  async *lines(
    tenantId: string,
    filters: ChecksumFilters,
    fetchSize: number,
    manager: EntityManager,
  ): AsyncGenerator<ChecksumLine[]> {
    const params: unknown[] = [tenantId];
    const param = (value: unknown) => `$${params.push(value)}`;
    const accountConditions: string[] = [];
    if (filters.platform !== undefined) accountConditions.push(`a.platform = ${param(filters.platform)}`);
    if (filters.collectionId !== undefined) {
      accountConditions.push(`a.collection_id = ${param(filters.collectionId)}::uuid`);
    }
    if (filters.identity !== undefined) accountConditions.push(`a.identity = ${param(filters.identity)}`);
    const accountFilter = accountConditions.length
      ? `AND t.account_id IN (SELECT a.id FROM account a WHERE a.tenant_id = $1 AND ${accountConditions.join(' AND ')})`
      : '';
    // account_id is a uuid, whose order is that of its lower-case text; transaction_id is
    // COLLATE "C": together docs/checksum.md's byte order, on PGlite and Postgres alike.
    await manager.query(
      `DECLARE checksum_lines NO SCROLL CURSOR FOR
       SELECT t.transaction_id AS "transactionId",
         t.account_id::text || '|' || t.transaction_id || '|' || t.symbol || '|' || t.direction || '|' ||
         trim_scale(t.amount)::text || '|' || coalesce(trim_scale(t.price_usd)::text, '') || '|' ||
         to_char(t.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS line
       FROM "transaction" t
       WHERE t.tenant_id = $1 ${accountFilter}
       ORDER BY t.account_id, t.transaction_id`,
      params,
    );
    type Row = { transactionId: string; line: string };
    const fetch = (): Promise<Row[]> =>
      manager.query(`FETCH FORWARD ${Math.trunc(fetchSize)} FROM checksum_lines`);
    // The next fetch is sent before the current one is handed out, so the database writes lines
    // while the caller hashes: at most two fetches are in memory.
    let next: Promise<Row[]> | null = fetch();
    let failed = false;
    try {
      while (next) {
        const rows: Row[] = await next;
        next = rows.length === fetchSize ? fetch() : null;
        if (rows.length > 0) {
          yield rows.map((row) => ({
            accountId: row.line.slice(0, 36),
            transactionId: row.transactionId,
            line: row.line,
          }));
        }
      }
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      // A caller that stops early leaves one fetch in flight: never an unhandled rejection.
      void next?.catch(() => undefined);
      // After a failed FETCH the transaction is aborted and takes the cursor with it.
      if (!failed) await manager.query('CLOSE checksum_lines');
    }
  }
}
