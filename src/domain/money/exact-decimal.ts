/**
 * The one decimal configuration of the service: every Decimal the application computes with is
 * an `ExactDecimal`, a quotient from `share` / `quotientToSignificantDigits`, or (projections
 * only) a `ProjectionDecimal`. Nothing else calls `Decimal.clone` or `Decimal.set`, so a precision
 * is decided here and nowhere else, and the global Decimal's settings (20 significant digits)
 * can never change a figure.
 *
 * Owns: the precision of sums, differences and products (1,000 significant digits, far beyond
 * any ledger value, so +, − and × never round), the named precisions of quotients and
 * projections, the cost-basis engine's pro-rata allocation, and plain decimal text in and out.
 * ScaledDecimal (scaled-decimal.ts) is the engine's fast form of the same arithmetic.
 * Never: rounds to cents or formats text (format.ts does that at the edge).
 */
import { Decimal } from 'decimal.js';

/** +, − and × never round: 1,000 significant digits; half-up wherever something must round. */
export const ExactDecimal = Decimal.clone({ precision: 1_000, rounding: Decimal.ROUND_HALF_UP });

/**
 * Shares and conversions (a holding's weight, a USD value in BTC, an amount bought for a sum of
 * USD): quotients rounded half-up to 60 significant digits, far below any satoshi or cent shown.
 */
export const SHARE_SIGNIFICANT_DIGITS = 60;

export const ZERO: Decimal = new ExactDecimal(0);

export function toExact(value: Decimal.Value): Decimal {
  return new ExactDecimal(value);
}

/** Exact sum; null entries (an unknown value) are left out. */
export function sumExact(values: Iterable<Decimal.Value | null>): Decimal {
  let sum = ZERO;
  for (const value of values) if (value !== null) sum = sum.plus(value);
  return sum;
}

/**
 * Projections (the ROI's compounding of a principal at a CAGR) work at 40 significant digits,
 * half-up: a model's figure, rounded to cents at the end, whose `pow` is only reproducible at the
 * precision it was specified with.
 */
export const ProjectionDecimal = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

export type Quotient = (dividend: Decimal.Value, divisor: Decimal.Value) => Decimal;

/**
 * Division correctly rounded to `significantDigits` with `rounding` (half-up unless told), its
 * result an ExactDecimal so that whatever is done with it next is exact again. Make one per use at
 * module load: the configuration is built once.
 */
export function quotientToSignificantDigits(
  significantDigits: number,
  rounding: Decimal.Rounding = Decimal.ROUND_HALF_UP,
): Quotient {
  const Rounded = Decimal.clone({ precision: significantDigits, rounding });
  return (dividend, divisor) => new ExactDecimal(new Rounded(dividend).dividedBy(new Rounded(divisor)));
}

/** A share or conversion: `dividend ÷ divisor` to SHARE_SIGNIFICANT_DIGITS, half-up. */
export const share: Quotient = quotientToSignificantDigits(SHARE_SIGNIFICANT_DIGITS);

/**
 * Pro-rata allocation, the cost-basis engine's one inexact operation (a ÷ b). Its quotient is rounded to
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

/** Canonical text: no exponent, no trailing zeros, never "-0". */
export function toCanonical(value: Decimal): string {
  return value.isZero() ? '0' : value.toFixed();
}
