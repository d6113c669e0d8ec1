import { choleskyDecompose } from './cholesky.js';
import { factorCovariance } from './covariance-factor.js';
import { SimulationErrorCode } from './simulation-error.js';

function multiplyByTranspose(lower: number[][]): number[][] {
  return lower.map((row) => lower.map((_, j) => row.reduce((sum, v, k) => sum + v * lower[j][k], 0)));
}

describe('choleskyDecompose', () => {
  it.each([
    {
      name: '2×2',
      // 4 = 2², 2 = 2·1, 3 = 1² + (√2)²
      matrix: [
        [4, 2],
        [2, 3],
      ],
      lower: [
        [2, 0],
        [1, Math.SQRT2],
      ],
    },
    {
      name: '3×3',
      // Row 2: 12/2 = 6, √(37 − 36) = 1. Row 3: −16/2 = −8, (−43 + 48)/1 = 5, √(98 − 64 − 25) = 3.
      matrix: [
        [4, 12, -16],
        [12, 37, -43],
        [-16, -43, 98],
      ],
      lower: [
        [2, 0, 0],
        [6, 1, 0],
        [-8, 5, 3],
      ],
    },
    {
      name: 'diagonal',
      matrix: [
        [9, 0],
        [0, 0.25],
      ],
      lower: [
        [3, 0],
        [0, 0.5],
      ],
    },
  ])('factors the $name example computed by hand', ({ matrix, lower }) => {
    const result = choleskyDecompose(matrix);
    result.forEach((row, i) => row.forEach((value, j) => expect(value).toBeCloseTo(lower[i][j], 14)));
    multiplyByTranspose(result).forEach((row, i) =>
      row.forEach((value, j) => expect(value).toBeCloseTo(matrix[i][j], 12)),
    );
  });

  it.each([
    {
      name: 'indefinite',
      matrix: [
        [1, 2],
        [2, 1],
      ],
    },
    {
      name: 'singular (semi-definite)',
      matrix: [
        [1, 1],
        [1, 1],
      ],
    },
    { name: 'zero', matrix: [[0]] },
  ])('rejects a $name matrix', ({ matrix }) => {
    expect(() => choleskyDecompose(matrix)).toThrow(
      expect.objectContaining({ code: SimulationErrorCode.NotPositiveDefinite }),
    );
  });

  it.each([
    {
      name: 'non-square',
      matrix: [
        [1, 0],
        [0, 1, 0],
      ],
    },
    {
      name: 'asymmetric',
      matrix: [
        [1, 0.5],
        [0.4, 1],
      ],
    },
    {
      name: 'non-finite',
      matrix: [
        [1, NaN],
        [NaN, 1],
      ],
    },
  ])('rejects a $name matrix as invalid input', ({ matrix }) => {
    expect(() => choleskyDecompose(matrix)).toThrow(
      expect.objectContaining({ code: SimulationErrorCode.InvalidInput }),
    );
  });
});

describe('factorCovariance', () => {
  it('uses plain Cholesky when the matrix is positive definite', () => {
    expect(
      factorCovariance([
        [4, 2],
        [2, 3],
      ]),
    ).toEqual({
      lower: [
        [2, 0],
        [1, Math.sqrt(2)],
      ],
      jitter: 0,
    });
  });

  it('adds the smallest sufficient jitter to a singular matrix (identical histories)', () => {
    const { lower, jitter } = factorCovariance([
      [0.5, 0.5],
      [0.5, 0.5],
    ]);
    expect(jitter).toBeGreaterThan(0);
    expect(jitter).toBeLessThanOrEqual(0.5 * 1e-4);
    const product = multiplyByTranspose(lower);
    expect(product[0][1]).toBeCloseTo(0.5, 12);
    expect(product[1][1]).toBeCloseTo(0.5 + jitter, 12);
  });

  it('keeps zero-variance assets deterministic: zero rows, no jitter', () => {
    expect(
      factorCovariance([
        [0, 0, 0],
        [0, 4, 0],
        [0, 0, 0],
      ]),
    ).toEqual({
      lower: [
        [0, 0, 0],
        [0, 2, 0],
        [0, 0, 0],
      ],
      jitter: 0,
    });
    expect(factorCovariance([[0]])).toEqual({ lower: [[0]], jitter: 0 });
  });

  it.each([
    {
      name: 'a negative variance',
      matrix: [[-1]],
    },
    {
      name: 'covariance with a zero-variance asset',
      matrix: [
        [0, 0.1],
        [0.1, 1],
      ],
    },
    {
      name: 'a clearly indefinite matrix',
      matrix: [
        [1, 2],
        [2, 1],
      ],
    },
  ])('rejects $name', ({ matrix }) => {
    expect(() => factorCovariance(matrix)).toThrow(
      expect.objectContaining({ code: SimulationErrorCode.NotPositiveDefinite }),
    );
  });
});
