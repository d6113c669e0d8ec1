/**
 * The one decimal configuration of the service: every Decimal the application computes with is
 * an `ExactDecimal`, a quotient from `share` / `quotientToSignificantDigits`, or (projections
 * only) a `ProjectionDecimal`. Nothing else calls `Decimal.clone` or `Decimal.set`, so a precision
 * is decided here and nowhere else, and the global Decimal's settings (20 significant digits)
 * can never change a figure.
 *
 * Owns: the precision of sums, differences and products (1,000 significant digits, far beyond
 * any ledger value, so +, − and × never round) and the named precisions of quotients and
 * projections.
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
