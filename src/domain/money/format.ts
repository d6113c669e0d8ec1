/**
 * The one place where money, percentages and asset amounts become text (design §9).
 *
 * Owns: rounding at the edge (half-up, i.e. half away from zero, to cents for USD and
 * to hundredths of a percent for percentages) and the exact text shapes of the API.
 * Never: rounds intermediate values, parses user input, or accepts a float for money —
 * USD amounts come in as `Decimal` or decimal text so no cent is lost to binary floats.
 * Percentages are ratios produced by float models (simulation, scores), so they may
 * also come in as numbers. Rules and examples: docs/formatting.md.
 */
import { Decimal } from 'decimal.js';
import { ExactDecimal } from './exact-decimal.js';
import { parseScaled, roundScaled } from './scaled-decimal.js';

/** Money and amounts: exact decimal, never a binary float. */
export type DecimalInput = Decimal | string;

/** Ratios (fractions, 0.1234 = 12.34 %): exact decimal or a float from a model. */
export type RatioInput = Decimal | string | number;

export const USD_FRACTION_DIGITS = 2;
export const PERCENT_FRACTION_DIGITS = 2;
/** Asset amounts are shown to the satoshi (1e-8), whatever the asset. */
export const AMOUNT_FRACTION_DIGITS = 8;

// Plain decimal text only: decimal.js would also accept "0x10", "0b1" and "Infinity".
const DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export class InvalidDecimalError extends Error {
  constructor(readonly input: string) {
    super(`Not a finite decimal number: ${JSON.stringify(input)}`);
    this.name = 'InvalidDecimalError';
  }
}

/** Parses decimal text (or passes a Decimal through) and rejects NaN, infinities and non-decimal notations. */
export function toDecimal(value: DecimalInput): Decimal {
  if (typeof value === 'string') {
    if (!DECIMAL_TEXT.test(value)) throw new InvalidDecimalError(value);
    return new ExactDecimal(value);
  }
  if (!value.isFinite()) throw new InvalidDecimalError(value.toString());
  return value;
}

function toRatio(value: RatioInput): Decimal {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new InvalidDecimalError(String(value));
    // decimal.js reads a number through its shortest round-trip text: 0.1 → "0.1".
    return new ExactDecimal(value);
  }
  return toDecimal(value);
}

/** USD rounded to cents, half away from zero (1.005 → 1.01, -1.005 → -1.01). */
export function roundUsdToCents(value: DecimalInput): Decimal {
  if (typeof value === 'string') {
    // Text (a Form 8949 line has tens of thousands) is rounded as a scaled integer: the same
    // value, without parsing 30 decimal places into decimal.js first.
    const scaled = parseScaled(value);
    if (scaled !== null) return new ExactDecimal(roundScaled(scaled, USD_FRACTION_DIGITS).toCanonical());
  }
  return toDecimal(value).toDecimalPlaces(USD_FRACTION_DIGITS, Decimal.ROUND_HALF_UP);
}

/**
 * Canonical decimal text: no exponent, no trailing fractional zeros, no trailing
 * point, no leading "+", and zero is "0" (never "-0"). Used by the integrity checksum,
 * so it must never change: '1.50' → '1.5', '1e-7' → '0.0000001', '100' → '100'.
 */
export function canonicalDecimal(value: DecimalInput): string {
  if (typeof value === 'string') {
    const scaled = parseScaled(value); // the same text as below, without decimal.js
    if (scaled !== null) return scaled.toCanonical();
  }
  const decimal = toDecimal(value);
  return decimal.isZero() ? '0' : decimal.toFixed();
}

/** "$12,345.68"; negative "-$1,234.56"; anything that rounds to zero is "$0.00". */
export function formatUsd(value: DecimalInput): string {
  const cents = roundUsdToCents(value);
  const sign = cents.isNegative() && !cents.isZero() ? '-' : '';
  return `${sign}$${groupThousands(cents.abs().toFixed(USD_FRACTION_DIGITS))}`;
}

/**
 * Cents as printed forms and statements write them (accounting style): "1,234.50", a loss in
 * parentheses "(20.00)", with `symbol` before the digits ("$1,234.50", "($20.00)"); anything that
 * rounds to zero is "0.00".
 */
export function formatAccounting(value: DecimalInput, symbol = ''): string {
  const cents = roundUsdToCents(value);
  const text = `${symbol}${groupThousands(cents.abs().toFixed(USD_FRACTION_DIGITS))}`;
  return cents.isNegative() && !cents.isZero() ? `(${text})` : text;
}

/** "+$1,234.56" / "-$1,234.56"; zero (after rounding) carries no sign: "$0.00". */
export function formatSignedUsd(value: DecimalInput): string {
  const cents = roundUsdToCents(value);
  const text = formatUsd(cents);
  return cents.isPositive() && !cents.isZero() ? `+${text}` : text;
}

/** A fraction as percentage text: 0.1234 → "12.34%", -0.05 → "-5.00%". */
export function formatPercent(fraction: RatioInput): string {
  const percent = roundPercent(fraction);
  const sign = percent.isNegative() && !percent.isZero() ? '-' : '';
  return `${sign}${percent.abs().toFixed(PERCENT_FRACTION_DIGITS)}%`;
}

/** A fraction as signed percentage text: 0.021 → "+2.10%", -0.021 → "-2.10%", 0 → "0.00%". */
export function formatSignedPercent(fraction: RatioInput): string {
  const percent = roundPercent(fraction);
  const text = formatPercent(fraction);
  return percent.isPositive() && !percent.isZero() ? `+${text}` : text;
}

/**
 * An asset amount with its unit, always to 8 decimal places (trailing zeros kept, no
 * thousands separators, half away from zero beyond the 8th place):
 * ('1.23456789', 'BTC') → "1.23456789 BTC", ('0.5', 'ETH') → "0.50000000 ETH".
 */
export function formatAmountWithUnit(amount: DecimalInput, unit: string): string {
  const rounded = toDecimal(amount).toDecimalPlaces(AMOUNT_FRACTION_DIGITS, Decimal.ROUND_HALF_UP);
  const sign = rounded.isNegative() && !rounded.isZero() ? '-' : '';
  return `${sign}${rounded.abs().toFixed(AMOUNT_FRACTION_DIGITS)} ${unit}`;
}

function roundPercent(fraction: RatioInput): Decimal {
  return new ExactDecimal(toRatio(fraction))
    .times(100)
    .toDecimalPlaces(PERCENT_FRACTION_DIGITS, Decimal.ROUND_HALF_UP);
}

function groupThousands(unsignedFixed: string): string {
  const [integer, fraction] = unsignedFixed.split('.');
  const grouped = integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}
