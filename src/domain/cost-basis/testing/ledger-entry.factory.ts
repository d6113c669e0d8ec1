/**
 * Test factory for ledger entries (used by the cost-basis specs only). Defaults keep the
 * tables short: account 'acct-a', symbol 'BTC', price '0'. `at` is ISO 8601; a bare date
 * means UTC midnight.
 */
import type { Direction, LedgerEntry } from '../cost-basis.types.js';

export interface LedgerEntryFields {
  readonly tx: string;
  readonly at: string;
  readonly direction: Direction;
  readonly amount: string;
  readonly priceUsd?: string;
  readonly feeUsd?: string;
  readonly account?: string;
  readonly symbol?: string;
  readonly transferId?: string;
}

export function ledgerEntry(fields: LedgerEntryFields): LedgerEntry {
  return {
    accountId: fields.account ?? 'acct-a',
    transactionId: fields.tx,
    symbol: fields.symbol ?? 'BTC',
    direction: fields.direction,
    amount: fields.amount,
    priceUsd: fields.priceUsd ?? '0',
    ...(fields.feeUsd === undefined ? {} : { feeUsd: fields.feeUsd }),
    timestamp: new Date(fields.at),
    ...(fields.transferId === undefined ? {} : { transferId: fields.transferId }),
  };
}

/** Dates in results as YYYY-MM-DD, so expectations read like the docs. */
export function isoDate(date: Date | null): string | null {
  return date === null ? null : date.toISOString().slice(0, 10);
}
