import { Decimal } from 'decimal.js';

/**
 * Decimal arithmetic for the engine. A private clone, so the global Decimal settings of
 * other code can never change our numbers, with a precision (1,000 significant digits)
 * far beyond any sum or product of ledger values: +, − and × never round here.
 *
 * The one inexact operation is pro-rata allocation (a ÷ b). Its quotient is rounded to
 * ALLOCATION_DECIMAL_PLACES, and callers give the remainder to the last piece, so totals
 * are conserved exactly. This is not rounding to cents: that happens at the API edge.
 */
const ExactDecimal = Decimal.clone({ precision: 1_000, rounding: Decimal.ROUND_HALF_UP });

export const ALLOCATION_DECIMAL_PLACES = 30;

export const ZERO: Decimal = new ExactDecimal(0);

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
