import { choleskyDecompose, type Matrix } from './cholesky.js';
import { SimulationError, SimulationErrorCode } from './simulation-error.js';

export interface CovarianceFactor {
  /** Lower-triangular L with L·Lᵀ = Σ (+ jitter on the diagonal of the random assets). */
  readonly lower: number[][];
  /** What was added to the diagonal to make Σ positive definite; 0 when nothing was. */
  readonly jitter: number;
}

/** First jitter, relative to the mean variance; grows ×10 per attempt up to 1e-4. */
const FIRST_RELATIVE_JITTER = 1e-10;
const JITTER_ATTEMPTS = 7;

/**
 * Factors a covariance matrix for drawing correlated normals.
 *
 * Assets with zero variance (a constant history) are deterministic: they get zero rows
 * in L and take no part in the factorisation. The rest must be positive definite; a
 * sample covariance is only guaranteed semi-definite (e.g. two identical histories, or
 * fewer days than assets), so when plain Cholesky fails, a jitter of 1e-10 × the mean
 * variance is added to the diagonal and multiplied by 10 per retry, up to 1e-4. That
 * perturbs each volatility by a relative 5e-11 at first — far below estimation error.
 */
export function factorCovariance(covariance: Matrix): CovarianceFactor {
  const n = covariance.length;
  const random: number[] = [];
  for (let i = 0; i < n; i++) {
    const variance = covariance[i][i];
    if (variance < 0 || !Number.isFinite(variance))
      throw notPositiveSemidefinite(`variance ${variance} at ${i}`);
    if (variance > 0) {
      random.push(i);
    } else if (covariance[i].some((value, j) => value !== 0 || covariance[j][i] !== 0)) {
      throw notPositiveSemidefinite(`zero variance but non-zero covariance at ${i}`);
    }
  }

  const sub = random.map((i) => random.map((j) => covariance[i][j]));
  const meanVariance = random.reduce((sum, i) => sum + covariance[i][i], 0) / Math.max(random.length, 1);
  let jitter = 0;
  let subLower: number[][] | undefined;
  for (let attempt = 0; attempt <= JITTER_ATTEMPTS && subLower === undefined; attempt++) {
    try {
      subLower = choleskyDecompose(
        jitter === 0 ? sub : sub.map((row, i) => row.map((v, j) => (i === j ? v + jitter : v))),
      );
    } catch (error) {
      if (!(error instanceof SimulationError) || error.code !== SimulationErrorCode.NotPositiveDefinite)
        throw error;
      jitter = meanVariance * FIRST_RELATIVE_JITTER * 10 ** attempt;
    }
  }
  if (subLower === undefined) throw notPositiveSemidefinite('jitter up to 1e-4 × mean variance did not help');

  const lower = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  random.forEach((i, a) => random.forEach((j, b) => (lower[i][j] = subLower[a][b])));
  return { lower, jitter };
}

function notPositiveSemidefinite(detail: string): SimulationError {
  return new SimulationError(
    SimulationErrorCode.NotPositiveDefinite,
    `Covariance matrix is not positive semi-definite: ${detail}`,
  );
}
