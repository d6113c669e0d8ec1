import { Decimal } from 'decimal.js';
import { ExactDecimal, quotientToSignificantDigits, ZERO } from '../money/exact-decimal.js';

/**
 * Decimal arithmetic for the engine, in the service's one ExactDecimal configuration
 * (src/domain/money/exact-decimal.ts): the global Decimal settings of other code can never
 * change our numbers, and +, − and × never round here.
 *
 * The one inexact operation is pro-rata allocation (a ÷ b). Its quotient is rounded to
 * ALLOCATION_DECIMAL_PLACES, and callers give the remainder to the last piece, so totals
 * are conserved exactly. This is not rounding to cents: that happens at the API edge.
 */
export const ALLOCATION_DECIMAL_PLACES = 30;

/**
 * Division at 1,000 digits made the gains report of a 100,000-transaction account take seconds.
 * A quotient truncated (ROUND_DOWN) to 100 significant digits still carries every digit through the
 * 31st decimal place for any quotient under 10^67, and truncation never changes those digits, so
 * rounding it half-up to 30 places gives exactly the same result as rounding the exact quotient.
 */
const FAST_QUOTIENT_SIGNIFICANT_DIGITS = 100;
const truncatedQuotient = quotientToSignificantDigits(FAST_QUOTIENT_SIGNIFICANT_DIGITS, Decimal.ROUND_DOWN);
const MAX_FAST_QUOTIENT_EXPONENT = FAST_QUOTIENT_SIGNIFICANT_DIGITS - (ALLOCATION_DECIMAL_PLACES + 3);

export { ZERO };

export function toDecimal(value: Decimal.Value): Decimal {
  return new ExactDecimal(value);
}

// Plain decimal text only: decimal.js alone would also accept "0x10", "0b1", "Infinity" and spaces.
const DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Parses plain decimal text (optional exponent); returns null for anything else. */
export function parseDecimal(text: string): Decimal | null {
  if (typeof text !== 'string' || !DECIMAL_TEXT.test(text)) return null;
  const value = new ExactDecimal(text);
  return value.isFinite() ? value : null;
}

/** `total × part ÷ whole`, exact when part equals whole, else rounded to ALLOCATION_DECIMAL_PLACES. */
export function allocateProRata(total: Decimal, part: Decimal, whole: Decimal): Decimal {
  if (part.equals(whole)) return total;
  const numerator = total.times(part);
  if (numerator.e - whole.e + 1 <= MAX_FAST_QUOTIENT_EXPONENT) {
    return truncatedQuotient(numerator, whole).toDecimalPlaces(
      ALLOCATION_DECIMAL_PLACES,
      Decimal.ROUND_HALF_UP,
    );
  }
  return allocateProRataExact(total, part, whole);
}

/** The reference: the quotient at 1,000 digits, rounded once. Used for huge quotients and in tests. */
export function allocateProRataExact(total: Decimal, part: Decimal, whole: Decimal): Decimal {
  if (part.equals(whole)) return total;
  return total.times(part).dividedBy(whole).toDecimalPlaces(ALLOCATION_DECIMAL_PLACES, Decimal.ROUND_HALF_UP);
}

export function sumDecimals(values: Iterable<Decimal>): Decimal {
  let sum = ZERO;
  for (const value of values) sum = sum.plus(value);
  return sum;
}

/** Canonical text: no exponent, no trailing zeros, never "-0". */
export function toCanonical(value: Decimal): string {
  return value.isZero() ? '0' : value.toFixed();
}
