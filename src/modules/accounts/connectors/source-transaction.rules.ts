/**
 * What a transaction must look like before it is stored, whatever its source (connector page or
 * CSV row). Fields written into the integrity checksum line (docs/checksum.md) are unescaped and
 * `|`-separated, so ids must not contain `|` or line breaks.
 */
import type { Direction } from '../../../domain/cost-basis/index.js';
import { canonicalDecimal } from '../../../domain/money/format.js';
import type { SourceTransaction } from './source-connector.js';

export const DIRECTIONS: readonly Direction[] = [
  'buy',
  'sell',
  'deposit',
  'withdrawal',
  'transfer_in',
  'transfer_out',
  'income',
  'fee',
];

/** Directions whose cost-basis treatment needs a USD price (docs/cost-basis.md). */
export const PRICED_DIRECTIONS: ReadonlySet<Direction> = new Set<Direction>(['buy', 'sell', 'income', 'fee']);
/** Directions that may carry a trade fee. */
export const FEE_DIRECTIONS: ReadonlySet<Direction> = new Set<Direction>(['buy', 'sell']);
export const TRANSFER_DIRECTIONS: ReadonlySet<Direction> = new Set<Direction>([
  'transfer_in',
  'transfer_out',
]);

const ID = /^[^|\r\n\u0000-\u001f\u007f]{1,200}$/;
const SYMBOL = /^[A-Z0-9]{1,20}$/;
/** Plain decimal text: digits, optional fraction. No sign, exponent or separators. */
const DECIMAL = /^\d{1,30}(\.\d{1,30})?$/;
/** Bitcoin's genesis block: nothing in a crypto ledger is older. */
export const EARLIEST_TRANSACTION = new Date('2009-01-03T00:00:00Z');
/** Clock skew allowed for a source's "now". */
const FUTURE_TOLERANCE_MS = 24 * 3_600_000;

export interface FieldProblem {
  readonly field: string;
  readonly message: string;
}

/** Problems of one transaction; empty when it can be stored. */
export function checkSourceTransaction(tx: SourceTransaction, now: Date): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const add = (field: string, message: string) => problems.push({ field, message });
  if (typeof tx.transactionId !== 'string' || !ID.test(tx.transactionId))
    add('transactionId', 'must be 1-200 characters without "|", line breaks or control characters');
  if (typeof tx.symbol !== 'string' || !SYMBOL.test(tx.symbol))
    add('symbol', 'must be an upper-case ticker of 1-20 letters or digits');
  if (!DIRECTIONS.includes(tx.direction)) add('direction', `must be one of ${DIRECTIONS.join(', ')}`);
  if (typeof tx.amount !== 'string' || !DECIMAL.test(tx.amount) || canonicalDecimal(tx.amount) === '0')
    add('amount', 'must be a decimal number > 0 (digits and an optional fraction, e.g. 0.5)');
  if (tx.priceUsd !== null && (typeof tx.priceUsd !== 'string' || !DECIMAL.test(tx.priceUsd)))
    add('price', 'must be a decimal number >= 0 in USD');
  if (tx.priceUsd === null && PRICED_DIRECTIONS.has(tx.direction))
    add('price', `is required for ${tx.direction}`);
  if (tx.feeUsd !== null) {
    if (typeof tx.feeUsd !== 'string' || !DECIMAL.test(tx.feeUsd))
      add('fee', 'must be a decimal number >= 0 in USD');
    else if (!FEE_DIRECTIONS.has(tx.direction) && canonicalDecimal(tx.feeUsd) !== '0')
      add('fee', 'is only allowed on buy and sell (a fee paid in an asset is its own "fee" transaction)');
  }
  const time = tx.occurredAt instanceof Date ? tx.occurredAt.getTime() : Number.NaN;
  if (Number.isNaN(time))
    add('timestamp', 'must be an ISO 8601 timestamp with an offset (e.g. 2024-01-02T03:04:05Z)');
  else if (time < EARLIEST_TRANSACTION.getTime()) add('timestamp', 'is before 2009-01-03');
  else if (time > now.getTime() + FUTURE_TOLERANCE_MS) add('timestamp', 'is in the future');
  if (tx.transferId !== null) {
    if (!TRANSFER_DIRECTIONS.has(tx.direction))
      add('transferId', 'is only allowed on transfer_in and transfer_out');
    else if (typeof tx.transferId !== 'string' || !ID.test(tx.transferId))
      add('transferId', 'must be 1-200 characters without "|", line breaks or control characters');
  }
  return problems;
}

/** The stored form: canonical decimals, timestamps truncated to milliseconds by Date already. */
export function canonicalSourceTransaction(tx: SourceTransaction): SourceTransaction {
  return {
    ...tx,
    amount: canonicalDecimal(tx.amount),
    priceUsd: tx.priceUsd === null ? null : canonicalDecimal(tx.priceUsd),
    feeUsd: tx.feeUsd === null || canonicalDecimal(tx.feeUsd) === '0' ? null : canonicalDecimal(tx.feeUsd),
  };
}
