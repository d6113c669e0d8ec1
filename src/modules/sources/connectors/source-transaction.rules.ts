/**
 * What a transaction must look like before it is stored, whatever its source (connector page or
 * CSV row). Fields written into the integrity checksum line (docs/checksum.md) are unescaped and
 * `|`-separated, so ids must not contain `|` or line breaks.
 */
import {
  DIRECTIONS,
  FEE_DIRECTIONS,
  isDirection,
  PRICED_DIRECTIONS,
  TRANSFER_DIRECTIONS,
} from '../../../domain/cost-basis/index.js';
import { canonicalDecimal } from '../../../domain/money/format.js';
import type { SourceTransaction } from './source-connector.js';

const ID = /^[^|\r\n\u0000-\u001f\u007f]{1,200}$/;
const SYMBOL = /^[A-Z0-9]{1,20}$/;
/** Plain decimal text: digits, optional fraction. No sign, exponent or separators. */
const DECIMAL_SHAPE = /^(\d+)(?:\.(\d+))?$/;
/** Digits allowed before and after the point (docs/csv-format.md); beyond them the error says so. */
export const MAX_DECIMAL_DIGITS = 30;
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
  if (!isDirection(tx.direction)) add('direction', `must be one of ${DIRECTIONS.join(', ')}`);
  const positiveAmount = 'must be a decimal number > 0 (digits and an optional fraction, e.g. 0.5)';
  const amountProblem = decimalProblem(tx.amount, positiveAmount);
  if (amountProblem) add('amount', amountProblem);
  else if (canonicalDecimal(tx.amount) === '0') add('amount', positiveAmount);
  const usd = 'must be a decimal number >= 0 in USD';
  const priceProblem = tx.priceUsd === null ? null : decimalProblem(tx.priceUsd, usd);
  if (priceProblem) add('price', priceProblem);
  if (tx.priceUsd === null && PRICED_DIRECTIONS.has(tx.direction))
    add('price', `is required for ${tx.direction}`);
  if (tx.feeUsd !== null) {
    const feeProblem = decimalProblem(tx.feeUsd, usd);
    if (feeProblem) add('fee', feeProblem);
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

/**
 * Why a decimal field cannot be stored, or null when it can: the shape (digits, optional
 * fraction), then the digit limits, so a long but well-formed number is told which limit it broke.
 */
function decimalProblem(value: unknown, shapeMessage: string): string | null {
  const match = typeof value === 'string' ? DECIMAL_SHAPE.exec(value) : null;
  if (!match) return shapeMessage;
  const [, integer, fraction = ''] = match;
  if (integer.length > MAX_DECIMAL_DIGITS)
    return `has ${integer.length} integer digits; at most ${MAX_DECIMAL_DIGITS} are accepted`;
  if (fraction.length > MAX_DECIMAL_DIGITS)
    return `has ${fraction.length} fraction digits; at most ${MAX_DECIMAL_DIGITS} are accepted`;
  return null;
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
