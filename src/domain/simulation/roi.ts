/**
 * Single-shot ROI projection (design §9 `/roi/projection`, docs/simulation.md).
 *
 * Owns: compounding a principal at a CAGR, the difference to a benchmark CAGR, and the
 * CAGR of a daily price history. Never: chooses the benchmark (configuration passes it;
 * DEFAULT_BENCHMARK is the documented default) or formats text.
 */
import { Decimal } from 'decimal.js';
import { ProjectionDecimal } from '../money/exact-decimal.js';
import { roundUsdToCents, toDecimal, type DecimalInput } from '../money/format.js';
import { invalidInput } from './simulation-error.js';

/**
 * US large-cap equities: the S&P 500 with dividends reinvested has returned about 10 %
 * a year, nominal, over the long run (≈ 10.3 % 1926–2023 in the Stocks, Bonds, Bills
 * and Inflation yearbook). Configurable; this is only the default.
 */
export const DEFAULT_BENCHMARK = {
  name: 'US large-cap equities (S&P 500 total return, nominal)',
  cagr: 0.1,
} as const;

/** Compounding at the projections' precision (domain/money), independent of any global Decimal settings. */
const Exact = ProjectionDecimal;

export interface RoiInput {
  readonly principalUsd: DecimalInput | number;
  readonly horizonYears: number;
  /** Expected CAGR of the asset, as a fraction (0.12 = 12 %). */
  readonly baseCagr: number;
  /** Benchmark CAGR as a fraction, e.g. DEFAULT_BENCHMARK.cagr. */
  readonly benchmarkCagr: number;
}

export interface RoiProjection {
  /** Principal as canonical decimal text. */
  readonly principalUsd: string;
  readonly horizonYears: number;
  /** principal × (1 + cagr)^years, rounded half-up to cents, as decimal text ("25937.42"). */
  readonly terminalUsd: string;
  readonly cagr: number;
  readonly benchmarkCagr: number;
  /** cagr − benchmarkCagr as a fraction; format with formatSignedPercent ("+2.10%"). */
  readonly benchmarkDiff: number;
}

export function projectRoi(input: RoiInput): RoiProjection {
  const principal =
    typeof input.principalUsd === 'number'
      ? numberToDecimal(input.principalUsd)
      : toDecimal(input.principalUsd);
  if (!principal.isPositive() || principal.isZero()) throw invalidInput('principalUsd must be positive');
  if (!Number.isInteger(input.horizonYears) || input.horizonYears < 1) {
    throw invalidInput('horizonYears must be a positive integer');
  }
  for (const [name, value] of [
    ['baseCagr', input.baseCagr],
    ['benchmarkCagr', input.benchmarkCagr],
  ] as const) {
    if (!(Number.isFinite(value) && value > -1))
      throw invalidInput(`${name} must be a finite fraction above -1`);
  }

  // new Decimal(number) reads the shortest round-trip text of the float: 0.1 is exactly "0.1".
  const cagr = new Exact(input.baseCagr);
  const terminal = new Exact(principal).times(cagr.plus(1).pow(input.horizonYears));
  return {
    principalUsd: principal.toFixed(),
    horizonYears: input.horizonYears,
    terminalUsd: roundUsdToCents(new Decimal(terminal)).toFixed(2),
    cagr: input.baseCagr,
    benchmarkCagr: input.benchmarkCagr,
    benchmarkDiff: cagr.minus(input.benchmarkCagr).toNumber(),
  };
}

function numberToDecimal(value: number): Decimal {
  if (!Number.isFinite(value)) throw invalidInput('principalUsd must be finite');
  return new Decimal(value);
}
