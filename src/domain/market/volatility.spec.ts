import {
  annualizeCovariance,
  annualizedVolatility,
  correlation,
  covarianceMatrix,
  dailyLogReturns,
  maxDrawdown,
} from './volatility.js';

describe('dailyLogReturns', () => {
  it('takes ln(p[i] / p[i-1]) for each consecutive pair', () => {
    const returns = dailyLogReturns([100, 110, 99]);
    expect(returns).toHaveLength(2);
    expect(returns[0]).toBeCloseTo(Math.log(1.1), 15);
    expect(returns[1]).toBeCloseTo(Math.log(0.9), 15);
  });

  it.each([[0], [-1], [Number.NaN], [Number.POSITIVE_INFINITY]])('rejects the price %p', (bad) => {
    expect(() => dailyLogReturns([100, bad])).toThrow(RangeError);
  });
});

describe('annualizedVolatility', () => {
  it('is the sample standard deviation of daily log returns × √365', () => {
    // Returns ln 1.1, ln 0.9, ln 1.1; sample variance (n − 1) × 365, square root.
    expect(annualizedVolatility([100, 110, 99, 108.9])).toBeCloseTo(2.213450227307371, 12);
  });

  it('uses only the last `windowDays` returns', () => {
    const calm = Array.from({ length: 31 }, (_, i) => 100 * Math.pow(1.01, i));
    const wildThenCalm = [1, 1000, 1, ...calm];
    expect(annualizedVolatility(wildThenCalm)).toBeCloseTo(0, 12);
    expect(annualizedVolatility(wildThenCalm, 33)).toBeGreaterThan(10);
  });

  it('is 0 for a constant price and null with fewer than two returns', () => {
    expect(annualizedVolatility([5, 5, 5, 5])).toBe(0);
    expect(annualizedVolatility([5, 6])).toBeNull();
    expect(annualizedVolatility([])).toBeNull();
  });
});

describe('maxDrawdown', () => {
  it.each([
    { prices: [100, 120, 90, 130, 65], expected: 0.5 },
    { prices: [100, 120, 90, 130], expected: 0.25 },
    { prices: [1, 2, 3], expected: 0 },
    { prices: [], expected: 0 },
  ])('$prices → $expected', ({ prices, expected }) => {
    expect(maxDrawdown(prices)).toBeCloseTo(expected, 15);
  });
});

describe('covariance and correlation', () => {
  const a = [0.01, -0.02, 0.03, 0.0];
  const b = [0.02, -0.01, 0.01, 0.02];

  it('computes the sample covariance matrix (n − 1), symmetric', () => {
    const matrix = covarianceMatrix([a, b]);
    expect(matrix[0][0]).toBeCloseTo(0.0004333333333333335, 16);
    expect(matrix[0][1]).toBeCloseTo(0.00016666666666666666, 16);
    expect(matrix[1][0]).toBe(matrix[0][1]);
    expect(matrix[1][1]).toBeCloseTo(0.0002, 16);
  });

  it('annualizes by 365, so the diagonal is the squared annualized volatility', () => {
    const prices = [100, 103, 101, 106, 104, 108];
    const returns = dailyLogReturns(prices);
    const [[variance]] = annualizeCovariance(covarianceMatrix([returns]));
    expect(Math.sqrt(variance)).toBeCloseTo(annualizedVolatility(prices) as number, 12);
  });

  it('gives Pearson correlation, ±1 for (anti)proportional series and 0 for a constant one', () => {
    expect(correlation(a, b)).toBeCloseTo(0.5661385170722978, 12);
    expect(
      correlation(
        a,
        a.map((x) => 3 * x),
      ),
    ).toBeCloseTo(1, 12);
    expect(
      correlation(
        a,
        a.map((x) => -x),
      ),
    ).toBeCloseTo(-1, 12);
    expect(correlation(a, [1, 1, 1, 1])).toBe(0);
  });

  it('rejects series of different lengths', () => {
    expect(() => covarianceMatrix([a, [1, 2]])).toThrow(RangeError);
  });
});
