import { invalidInput, SimulationError, SimulationErrorCode } from './simulation-error.js';

export type Matrix = readonly (readonly number[])[];

/**
 * Cholesky–Banachiewicz: the lower-triangular L with L·Lᵀ = matrix, for a symmetric
 * positive-definite matrix. Strict: a pivot that is negative, zero or within rounding
 * noise of zero (≤ n·ε·aᵢᵢ) throws NotPositiveDefinite; the simulation's
 * factorCovariance decides what to do then.
 */
export function choleskyDecompose(matrix: Matrix): number[][] {
  const n = matrix.length;
  assertSymmetric(matrix);
  const lower = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = matrix[i][j];
      for (let k = 0; k < j; k++) sum -= lower[i][k] * lower[j][k];
      if (i === j) {
        // A pivot within rounding noise of zero means "singular", not "barely definite".
        if (!(sum > n * Number.EPSILON * matrix[i][i])) {
          throw new SimulationError(
            SimulationErrorCode.NotPositiveDefinite,
            `Matrix is not positive definite (pivot ${sum} at ${i})`,
          );
        }
        lower[i][i] = Math.sqrt(sum);
      } else {
        lower[i][j] = sum / lower[j][j];
      }
    }
  }
  return lower;
}

function assertSymmetric(matrix: Matrix): void {
  const n = matrix.length;
  for (let i = 0; i < n; i++) {
    if (matrix[i].length !== n) throw invalidInput('Matrix must be square');
    for (let j = 0; j < n; j++) {
      const a = matrix[i][j];
      if (!Number.isFinite(a)) throw invalidInput(`Matrix entry [${i}][${j}] is not finite`);
      const b = matrix[j][i];
      if (Math.abs(a - b) > 1e-12 * Math.max(1, Math.abs(a), Math.abs(b))) {
        throw invalidInput(`Matrix is not symmetric at [${i}][${j}]`);
      }
    }
  }
}
