import fc from 'fast-check';
import { estimateAnnualDriftAndVariance, estimateAnnualMoments } from './annual-moments.js';

describe('annual moments', () => {
  it('gives μ and Σ annualised from daily log returns, worked by hand', () => {
    // Asset A: 0.01, 0.03 (mean 0.02, sample variance 0.0002); B: 0.02, 0.00 (mean 0.01,
    // variance 0.0002); covariance (−0.01·0.01 + 0.01·−0.01) / 1 = −0.0002. × 365.
    const { drift, covariance } = estimateAnnualMoments(
      [
        [0.01, 0.03],
        [0.02, 0.0],
      ],
      365,
    );
    expect(drift[0]).toBeCloseTo(7.3, 12);
    expect(drift[1]).toBeCloseTo(3.65, 12);
    expect(covariance[0]![0]).toBeCloseTo(0.073, 12);
    expect(covariance[1]![1]).toBeCloseTo(0.073, 12);
    expect(covariance[0]![1]).toBeCloseTo(-0.073, 12);
    expect(covariance[1]![0]).toBe(covariance[0]![1]);
  });

  it('drift and variance alone are the very numbers of μ and Σ’s diagonal, bit for bit', () => {
    const series = fc.integer({ min: 2, max: 60 }).chain((days) =>
      fc.array(
        fc.array(fc.double({ min: -0.5, max: 0.5, noNaN: true }), { minLength: days, maxLength: days }),
        {
          minLength: 1,
          maxLength: 6,
        },
      ),
    );
    fc.assert(
      fc.property(series, (returns) => {
        const full = estimateAnnualMoments(returns);
        const alone = estimateAnnualDriftAndVariance(returns);
        expect(alone.drift).toEqual(full.drift);
        expect(alone.variance).toEqual(full.covariance.map((row, i) => row[i]));
      }),
    );
  });

  it('refuses what the full estimate refuses', () => {
    expect(() => estimateAnnualDriftAndVariance([])).toThrow('At least one return series');
    expect(() => estimateAnnualDriftAndVariance([[0.1]])).toThrow('At least two daily returns');
    expect(() => estimateAnnualDriftAndVariance([[0.1, 0.2], [0.1]])).toThrow('not aligned');
    expect(() => estimateAnnualDriftAndVariance([[0.1, Number.NaN]])).toThrow('non-finite');
  });
});
