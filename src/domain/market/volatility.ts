/**
 * Return statistics over daily price histories: the `volatility` of the market-data
 * record, drawdowns and the covariance the portfolio scores and simulations use.
 *
 * Annualisation uses 365 periods a year, not the 252 of equity markets: crypto trades
 * every calendar day and the stored history has one price per calendar day, so a year
 * holds 365 daily returns. Inputs are plain number arrays, oldest first.
 */

export const TRADING_DAYS_PER_YEAR = 365;
export const DEFAULT_VOLATILITY_WINDOW_DAYS = 30;

/** ln(p[i] / p[i−1]) for each consecutive pair; RangeError on a non-positive or non-finite price. */
export function dailyLogReturns(pricesAscending: readonly number[]): number[] {
  for (const price of pricesAscending) {
    if (!Number.isFinite(price) || price <= 0) throw new RangeError(`Prices must be positive, got ${price}`);
  }
  const returns: number[] = [];
  for (let i = 1; i < pricesAscending.length; i++)
    returns.push(Math.log(pricesAscending[i] / pricesAscending[i - 1]));
  return returns;
}

/**
 * Sample standard deviation (n − 1) of the last `windowDays` daily log returns × √365.
 * With a shorter history it uses the returns there are; null when fewer than two returns
 * exist (one return has no spread to measure).
 */
export function annualizedVolatility(
  pricesAscending: readonly number[],
  windowDays: number = DEFAULT_VOLATILITY_WINDOW_DAYS,
): number | null {
  if (!Number.isInteger(windowDays) || windowDays < 2)
    throw new RangeError(`windowDays must be an integer ≥ 2`);
  const returns = dailyLogReturns(pricesAscending.slice(-(windowDays + 1)));
  if (returns.length < 2) return null;
  return Math.sqrt(sampleCovariance(returns, returns) * TRADING_DAYS_PER_YEAR);
}

/** Largest peak-to-trough fall as a fraction in [0, 1] (0.8 = an 80 % fall); 0 for fewer than two prices. */
export function maxDrawdown(pricesAscending: readonly number[]): number {
  let peak = Number.NEGATIVE_INFINITY;
  let worst = 0;
  for (const price of pricesAscending) {
    if (price > peak) peak = price;
    else if (peak > 0) worst = Math.max(worst, (peak - price) / peak);
  }
  return worst;
}

/** Sample covariance (n − 1) of two equally long series. */
export function sampleCovariance(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new RangeError(`Series lengths differ: ${a.length} vs ${b.length}`);
  if (a.length < 2) throw new RangeError('Covariance needs at least two observations');
  const meanA = mean(a);
  const meanB = mean(b);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] - meanA) * (b[i] - meanB);
  return sum / (a.length - 1);
}

/** Pearson correlation in [−1, 1]; 0 when either series is constant (no co-movement to measure). */
export function correlation(a: readonly number[], b: readonly number[]): number {
  const varianceA = sampleCovariance(a, a);
  const varianceB = sampleCovariance(b, b);
  if (varianceA <= 0 || varianceB <= 0) return 0;
  return Math.max(-1, Math.min(1, sampleCovariance(a, b) / Math.sqrt(varianceA * varianceB)));
}

/**
 * Sample covariance matrix of aligned return series (one series per asset, same days,
 * same order). Per-period units: multiply by 365 (`annualizeCovariance`) for daily returns.
 */
export function covarianceMatrix(returnSeries: readonly (readonly number[])[]): number[][] {
  const n = returnSeries.length;
  const matrix: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      const value = sampleCovariance(returnSeries[i], returnSeries[j]);
      matrix[i][j] = value;
      matrix[j][i] = value;
    }
  }
  return matrix;
}

/** Daily covariance × 365: the units of annualizedVolatility squared. */
export function annualizeCovariance(dailyCovariance: readonly (readonly number[])[]): number[][] {
  return dailyCovariance.map((row) => row.map((value) => value * TRADING_DAYS_PER_YEAR));
}

function mean(values: readonly number[]): number {
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}
