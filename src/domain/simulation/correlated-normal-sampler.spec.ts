import { SeededRandom } from '../random/seeded-random.js';
import { estimateAnnualMoments } from './annual-moments.js';
import { choleskyDecompose } from './cholesky.js';
import { CorrelatedNormalSampler } from './correlated-normal-sampler.js';
import { SimulationErrorCode } from './simulation-error.js';

/** σ = 0.2, 0.15, 0.03; ρ₁₂ = 0.6, ρ₁₃ = −0.5, ρ₂₃ = −0.4 (determinant of ρ: 0.47). */
const COVARIANCE = [
  [0.04, 0.018, -0.003],
  [0.018, 0.0225, -0.0018],
  [-0.003, -0.0018, 0.0009],
];
const MEAN = [0.01, -0.005, 0.002];

function draw(count: number, seed: number, mean = MEAN, covariance = COVARIANCE): Float64Array[] {
  const sampler = new CorrelatedNormalSampler(mean, choleskyDecompose(covariance), new SeededRandom(seed));
  const series = mean.map(() => new Float64Array(count));
  const out = new Float64Array(mean.length);
  for (let t = 0; t < count; t++) {
    sampler.fill(out);
    out.forEach((value, i) => (series[i][t] = value));
  }
  return series;
}

describe('CorrelatedNormalSampler', () => {
  it('reproduces the input covariance (within 5 % relative over 20k draws) and mean', () => {
    const series = draw(20_000, 42);
    const { drift, covariance } = estimateAnnualMoments(
      series.map((s) => Array.from(s)),
      1,
    );
    COVARIANCE.forEach((row, i) =>
      row.forEach((expected, j) => {
        expect(Math.abs(covariance[i][j] - expected) / Math.abs(expected)).toBeLessThan(0.05);
      }),
    );
    MEAN.forEach((expected, i) => expect(Math.abs(drift[i] - expected)).toBeLessThan(0.005));
  });

  it('is reproducible from the seed', () => {
    expect(draw(100, 7)).toEqual(draw(100, 7));
    expect(draw(100, 7)).not.toEqual(draw(100, 8));
  });
});

describe('estimateAnnualMoments', () => {
  it('annualises daily mean and covariance over 365 days', () => {
    const daily = [
      [0.01, -0.01, 0.02, 0],
      [0.02, 0, 0.01, -0.01],
    ];
    // Means 0.005 and 0.005. Centred: [0.005, −0.015, 0.015, −0.005] and [0.015, −0.005, 0.005, −0.015].
    // Var₁ = (0.25 + 2.25 + 2.25 + 0.25)e−4 / 3 = 5e−4 / 3; Cov = (0.75 + 0.75 + 0.75 + 0.75)e−4 / 3 = 1e−4.
    const { drift, covariance } = estimateAnnualMoments(daily);
    expect(drift[0]).toBeCloseTo(0.005 * 365, 12);
    expect(drift[1]).toBeCloseTo(0.005 * 365, 12);
    expect(covariance[0][0]).toBeCloseTo((5e-4 / 3) * 365, 12);
    expect(covariance[1][1]).toBeCloseTo((5e-4 / 3) * 365, 12);
    expect(covariance[0][1]).toBeCloseTo(1e-4 * 365, 12);
    expect(covariance[1][0]).toBe(covariance[0][1]);
  });

  it('gives exactly zero variance and covariance to a constant series', () => {
    const { covariance } = estimateAnnualMoments([
      [0.001, 0.001, 0.001],
      [0.03, -0.02, 0.01],
    ]);
    expect(covariance[0][0]).toBe(0);
    expect(covariance[0][1]).toBe(0);
    expect(covariance[1][0]).toBe(0);
  });

  it.each([
    { name: 'no series', series: [], code: SimulationErrorCode.InvalidInput },
    { name: 'one day', series: [[0.01]], code: SimulationErrorCode.InsufficientHistory },
    { name: 'misaligned series', series: [[0.01, 0.02], [0.01]], code: SimulationErrorCode.InvalidInput },
    { name: 'a NaN', series: [[0.01, NaN]], code: SimulationErrorCode.InvalidInput },
  ])('rejects $name', ({ series, code }) => {
    expect(() => estimateAnnualMoments(series)).toThrow(expect.objectContaining({ code }));
  });

  it('fillSteps gives the same draws as fill() step by step, bit for bit', () => {
    const lower = choleskyDecompose(COVARIANCE);
    const stepwise = new CorrelatedNormalSampler(MEAN, lower, new SeededRandom('steps'));
    const bulk = new CorrelatedNormalSampler(MEAN, lower, new SeededRandom('steps'));
    for (const steps of [1, 7, 120, 3]) {
      const out = new Float64Array(steps * 3);
      bulk.fillSteps(out, steps);
      const one = new Float64Array(3);
      for (let s = 0; s < steps; s++) {
        stepwise.fill(one);
        expect(Array.from(out.subarray(s * 3, s * 3 + 3))).toEqual(Array.from(one));
      }
    }
  });
});
