import { invalidInput, SimulationError, SimulationErrorCode } from './simulation-error.js';

/** Crypto trades every calendar day, so daily statistics annualise over 365 days. */
export const DAYS_PER_YEAR = 365;

export interface AnnualMoments {
  /** Mean log return per year, per asset (μ). */
  readonly drift: number[];
  /** Covariance of log returns per year (Σ), sample (n − 1) estimate. */
  readonly covariance: number[][];
}

/**
 * μ and Σ of daily log returns, annualised (× daysPerYear). The series must be aligned:
 * element t of every series is the same day.
 *
 * Deviations are taken from each series' first value before averaging (the shifted-data
 * method): numerically stable, and a constant series gets a variance and covariances of
 * exactly 0, so a zero-volatility asset stays deterministic instead of picking up noise.
 */
export function estimateAnnualMoments(
  dailyLogReturns: readonly ArrayLike<number>[],
  daysPerYear: number = DAYS_PER_YEAR,
): AnnualMoments {
  const { length, deviations } = centredSeries(dailyLogReturns);
  const assetCount = deviations.length;
  const drift = deviations.map(({ mean }) => mean * daysPerYear);
  const covariance = Array.from({ length: assetCount }, () => new Array<number>(assetCount).fill(0));
  for (let i = 0; i < assetCount; i++) {
    for (let j = 0; j <= i; j++) {
      const a = deviations[i].centred;
      const b = deviations[j].centred;
      let sum = 0;
      for (let t = 0; t < length; t++) sum += a[t] * b[t];
      const annual = (sum / (length - 1)) * daysPerYear;
      covariance[i][j] = annual;
      covariance[j][i] = annual;
    }
  }
  return { drift, covariance };
}

/**
 * μ and the diagonal of Σ only (each asset's own variance), for callers that need no
 * correlation (the return assumptions): the same operations in the same order as
 * estimateAnnualMoments gives them, so the same numbers, at a cost that grows with the assets
 * instead of their square (30 assets: 30 sums instead of 465).
 */
export function estimateAnnualDriftAndVariance(
  dailyLogReturns: readonly ArrayLike<number>[],
  daysPerYear: number = DAYS_PER_YEAR,
): { readonly drift: number[]; readonly variance: number[] } {
  const { length, deviations } = centredSeries(dailyLogReturns);
  const drift = deviations.map(({ mean }) => mean * daysPerYear);
  const variance = deviations.map(({ centred }) => {
    let sum = 0;
    for (let t = 0; t < length; t++) sum += centred[t] * centred[t];
    return (sum / (length - 1)) * daysPerYear;
  });
  return { drift, variance };
}

/** The series' checks, and each one's mean and deviations from it (the shifted-data method). */
function centredSeries(dailyLogReturns: readonly ArrayLike<number>[]): {
  readonly length: number;
  readonly deviations: { readonly mean: number; readonly centred: Float64Array }[];
} {
  const assetCount = dailyLogReturns.length;
  if (assetCount === 0) throw invalidInput('At least one return series is required');
  const length = dailyLogReturns[0].length;
  if (length < 2) {
    throw new SimulationError(
      SimulationErrorCode.InsufficientHistory,
      'At least two daily returns per asset are required',
    );
  }
  // Plain indexed loops (no callback or iterator per day): the same operations in the same order.
  for (let index = 0; index < assetCount; index++) {
    const series = dailyLogReturns[index];
    if (series.length !== length) throw invalidInput(`Return series ${index} is not aligned with series 0`);
    for (let t = 0; t < length; t++) {
      if (!Number.isFinite(series[t])) throw invalidInput(`Return series ${index} has a non-finite value`);
    }
  }

  const deviations = dailyLogReturns.map((series) => {
    const shift = series[0];
    const shifted = new Float64Array(length);
    let sum = 0;
    for (let t = 0; t < length; t++) {
      shifted[t] = series[t] - shift;
      sum += shifted[t];
    }
    const shiftedMean = sum / length;
    for (let t = 0; t < length; t++) shifted[t] -= shiftedMean;
    return { mean: shift + shiftedMean, centred: shifted };
  });
  return { length, deviations };
}
