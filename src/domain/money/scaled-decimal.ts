/**
 * The cost-basis engine's number (and the tax report's sums): an exact decimal held as a scaled
 * integer, `units × 10^-scale`, with BigInt units. It gives the same values as the ExactDecimal
 * operations it replaces in hot loops (exact-decimal.ts: +, −, × never round; the engine's one
 * division, pro-rata allocation, rounded half-up to its decimal places), at a fraction of the cost:
 * decimal.js at 1,000 significant digits was most of a large gains report's time
 * (bench/profiles/gains-report.md). scaled-decimal.spec.ts holds the two to the same results
 * digit for digit.
 *
 * Why the results are the same: +, − and × of scaled integers are exact, as ExactDecimal's are
 * while a result has at most 1,000 significant digits (ledger values have a few dozen). The
 * allocation's quotient is rounded once, half away from zero, from the exact rational here; the
 * decimal.js path rounds a quotient truncated to 100 significant digits, which
 * exact-decimal.ts (allocateProRata) shows is the same thing.
 */

const POWERS_OF_TEN: bigint[] = [1n];

function pow10(exponent: number): bigint {
  for (let k = POWERS_OF_TEN.length; k <= exponent; k++) POWERS_OF_TEN.push(POWERS_OF_TEN[k - 1] * 10n);
  return POWERS_OF_TEN[exponent];
}

/** Inputs with an exponent beyond this are refused rather than expanded to millions of digits. */
const MAX_EXPONENT = 1_000_000;

export class ScaledDecimal {
  /** `units × 10^-scale`; scale ≥ 0. */
  constructor(
    readonly units: bigint,
    readonly scale: number,
  ) {}

  plus(other: ScaledDecimal): ScaledDecimal {
    if (this.scale === other.scale) return new ScaledDecimal(this.units + other.units, this.scale);
    if (this.scale > other.scale) {
      return new ScaledDecimal(this.units + other.units * pow10(this.scale - other.scale), this.scale);
    }
    return new ScaledDecimal(this.units * pow10(other.scale - this.scale) + other.units, other.scale);
  }

  minus(other: ScaledDecimal): ScaledDecimal {
    if (this.scale === other.scale) return new ScaledDecimal(this.units - other.units, this.scale);
    if (this.scale > other.scale) {
      return new ScaledDecimal(this.units - other.units * pow10(this.scale - other.scale), this.scale);
    }
    return new ScaledDecimal(this.units * pow10(other.scale - this.scale) - other.units, other.scale);
  }

  times(other: ScaledDecimal): ScaledDecimal {
    return new ScaledDecimal(this.units * other.units, this.scale + other.scale);
  }

  /** −1, 0 or 1 as this is less than, equal to or greater than `other`. */
  compare(other: ScaledDecimal): number {
    let a = this.units;
    let b = other.units;
    if (this.scale > other.scale) b *= pow10(this.scale - other.scale);
    else if (this.scale < other.scale) a *= pow10(other.scale - this.scale);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  equals(other: ScaledDecimal): boolean {
    return this.compare(other) === 0;
  }

  isZero(): boolean {
    return this.units === 0n;
  }

  isPositive(): boolean {
    return this.units > 0n;
  }

  isNegative(): boolean {
    return this.units < 0n;
  }

  /** Canonical text (ExactDecimal's `toFixed()`, zero as "0"): no exponent, no trailing zeros. */
  toCanonical(): string {
    if (this.units === 0n) return '0';
    const negative = this.units < 0n;
    const digits = (negative ? -this.units : this.units).toString();
    let text: string;
    if (this.scale === 0) {
      text = digits;
    } else {
      const padded =
        digits.length > this.scale ? digits : '0'.repeat(this.scale - digits.length + 1) + digits;
      const point = padded.length - this.scale;
      let end = padded.length;
      while (end > point && padded.charCodeAt(end - 1) === 48 /* 0 */) end--;
      text = end === point ? padded.slice(0, point) : `${padded.slice(0, point)}.${padded.slice(point, end)}`;
    }
    return negative ? `-${text}` : text;
  }
}

export const SCALED_ZERO = new ScaledDecimal(0n, 0);

/** Rounded half away from zero (decimal.js ROUND_HALF_UP) to `places` ≤ scale decimal places. */
export function roundScaled(value: ScaledDecimal, places: number): ScaledDecimal {
  if (value.scale <= places) return value;
  const divisor = pow10(value.scale - places);
  const negative = value.units < 0n;
  const magnitude = ((negative ? -value.units : value.units) * 2n + divisor) / (2n * divisor);
  return new ScaledDecimal(negative ? -magnitude : magnitude, places);
}

// The same accepted text as exact-decimal.ts's parseDecimal.
const DECIMAL_TEXT = /^([+-]?)(\d*)\.?(\d*)(?:[eE]([+-]?\d+))?$/;
const PLAIN_DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

// What a numeric column holds: digits with an optional fraction, no sign or exponent.
const UNSIGNED_PLAIN = /^(\d+)(?:\.(\d*))?$/;

/** At most this many digits make an integer a double holds exactly (< 2^53). */
const EXACT_DOUBLE_DIGITS = 15;

/**
 * UNSIGNED_PLAIN's texts of at most 15 digits (every amount, price and fee of a ledger), read
 * digit by digit into a double, exact below 10^15, then into a BigInt: the same value as
 * BigInt(whole + fraction) with the same scale, at a third of the cost (no regular expression,
 * no concatenated string). Null for anything else (left to the full parser).
 */
function parseShortUnsigned(text: string): ScaledDecimal | null {
  const length = text.length;
  if (length === 0 || length > EXACT_DOUBLE_DIGITS + 1) return null;
  let units = 0;
  let point = -1;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) units = units * 10 + (code - 48);
    else if (code === 46 /* . */ && point < 0 && i > 0) point = i;
    else return null;
  }
  if (point < 0) return length > EXACT_DOUBLE_DIGITS ? null : new ScaledDecimal(BigInt(units), 0);
  return new ScaledDecimal(BigInt(units), length - point - 1);
}

/** Parses plain decimal text (optional exponent), as parseDecimal does; null for anything else. */
export function parseScaled(text: string): ScaledDecimal | null {
  if (typeof text !== 'string') return null;
  const fast = parseShortUnsigned(text);
  if (fast !== null) return fast;
  const plain = UNSIGNED_PLAIN.exec(text);
  if (plain) {
    const fraction = plain[2] ?? '';
    return new ScaledDecimal(BigInt(plain[1] + fraction), fraction.length);
  }
  // A loss or a negative sum as the engine writes it: '-' then plain digits (no second regex).
  const negative = text.charCodeAt(0) === 45 /* - */ ? UNSIGNED_PLAIN.exec(text.slice(1)) : null;
  if (negative) {
    const fraction = negative[2] ?? '';
    return new ScaledDecimal(-BigInt(negative[1] + fraction), fraction.length);
  }
  if (!PLAIN_DECIMAL_TEXT.test(text)) return null;
  const [, sign, whole, fraction, exponentText] = DECIMAL_TEXT.exec(text)!;
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > MAX_EXPONENT) return null;
  let units = BigInt(whole + fraction || '0');
  let scale = fraction.length - exponent;
  if (scale < 0) {
    units *= pow10(-scale);
    scale = 0;
  }
  return new ScaledDecimal(sign === '-' ? -units : units, scale);
}

export function sumScaled(values: Iterable<ScaledDecimal>): ScaledDecimal {
  let sum = SCALED_ZERO;
  for (const value of values) sum = sum.plus(value);
  return sum;
}

/**
 * `total × part ÷ whole`: exactly `total` when part equals whole, else the exact quotient rounded
 * half away from zero (decimal.js ROUND_HALF_UP) to `places` decimal places.
 */
export function allocateScaledProRata(
  total: ScaledDecimal,
  part: ScaledDecimal,
  whole: ScaledDecimal,
  places: number,
): ScaledDecimal {
  if (part.equals(whole)) return total;
  let numerator = total.units * part.units;
  let denominator = whole.units;
  const shift = whole.scale + places - total.scale - part.scale;
  if (shift >= 0) numerator *= pow10(shift);
  else denominator *= pow10(-shift);
  const negative = numerator < 0n !== denominator < 0n;
  if (numerator < 0n) numerator = -numerator;
  if (denominator < 0n) denominator = -denominator;
  const magnitude = (2n * numerator + denominator) / (2n * denominator);
  return new ScaledDecimal(negative ? -magnitude : magnitude, places);
}
