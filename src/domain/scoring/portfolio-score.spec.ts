import fc from 'fast-check';
import { scoreAsset, type AssetScore, type AssetScoreInputs } from './asset-score.js';
import { scorePortfolio, type ReturnCovariance } from './portfolio-score.js';
import { ScoringError, ScoringErrorCode } from './scoring.errors.js';

function assetInputs(overrides: Partial<AssetScoreInputs> = {}): AssetScoreInputs {
  return {
    marketCapUsd: 1e9,
    circulatingSupply: 50,
    totalSupply: 80,
    maxSupply: 100,
    liquidityScore: 60,
    developerScore: 70,
    communityScore: 80,
    annualizedVolatility: 0.6,
    maxDrawdown: 0.4,
    ...overrides,
  };
}

/** Covariance with the given correlations and volatilities (annualized). */
function covarianceOf(
  symbols: string[],
  volatilities: number[],
  correlationOf: (i: number, j: number) => number,
) {
  const annualized = symbols.map((_, i) =>
    symbols.map((__, j) => (i === j ? 1 : correlationOf(i, j)) * volatilities[i] * volatilities[j]),
  );
  return { symbols, annualized } satisfies ReturnCovariance;
}

// A: F 60.5, R 40 (volatility 0.6), Q 60.3.  B: F 73.5, R 20 (volatility 0.3), Q 76.1.
const A = scoreAsset(assetInputs());
const B = scoreAsset(
  assetInputs({
    marketCapUsd: 1e11,
    circulatingSupply: 90,
    totalSupply: 100,
    maxSupply: null,
    liquidityScore: 80,
    developerScore: 50,
    communityScore: 60,
    annualizedVolatility: 0.3,
    maxDrawdown: 0.2,
  }),
);

describe('scorePortfolio', () => {
  it('pins the formulas on a two-asset portfolio with correlation 0.5', () => {
    // σp² = .25·.36 + .25·.09 + 2·.25·.5·.6·.3 = .1575 → σp = 0.396863 → 26.4575 volatility points
    // F = .5·60.5 + .5·73.5 = 67
    // R = .5·26.4575 + .3·(.5·40 + .5·20) + .2·(.5·40 + .5·20) = 28.2288
    // Q = .6·67 + .4·71.7712 = 68.9085
    const result = scorePortfolio(
      { A: 50, B: 50 },
      { A, B },
      covarianceOf(['A', 'B'], [0.6, 0.3], () => 0.5),
    );
    expect(A).toMatchObject({ fScore: 60.5, rScore: 40, qScore: 60.3 });
    expect(B).toMatchObject({ fScore: 73.5, rScore: 20, qScore: 76.1 });
    expect(result).toMatchObject({ fScore: 67, rScore: 28.23, qScore: 68.91 });
    expect(result.annualizedVolatility).toBeCloseTo(0.39686269665968854, 12);
    expect(result.allocation).toEqual({ A: 50, B: 50 });
    expect(result.breakdown).toEqual({
      A: { qScore: 60.3, fScore: 60.5, rScore: 40 },
      B: { qScore: 76.1, fScore: 73.5, rScore: 20 },
    });
  });

  it('takes only correlations from the covariance: the diagonal is each asset’s own volatility', () => {
    // Same correlation 0.5, but variances from another window (four times larger).
    const otherWindow = covarianceOf(['A', 'B'], [1.2, 0.6], () => 0.5);
    const result = scorePortfolio({ A: 50, B: 50 }, { A, B }, otherWindow);
    expect(result.annualizedVolatility).toBeCloseTo(0.39686269665968854, 12);
  });

  it('normalises percentages within the ±0.01 tolerance', () => {
    const covariance = covarianceOf(['A', 'B'], [0.6, 0.3], () => 0.5);
    expect(scorePortfolio({ A: 50.005, B: 50 }, { A, B }, covariance).fScore).toBeCloseTo(67, 2);
  });

  it('hedges with negatively correlated assets', () => {
    const hedged = scorePortfolio(
      { A: 50, B: 50 },
      { A, B },
      covarianceOf(['A', 'B'], [0.6, 0.3], () => -1),
    );
    expect(hedged.annualizedVolatility).toBeCloseTo(0.15, 12);
  });

  describe('rejects', () => {
    const covariance = covarianceOf(['A', 'B'], [0.6, 0.3], () => 0.5);

    it.each<{ allocation: Record<string, number>; why: string }>([
      { allocation: {}, why: 'no allocation' },
      { allocation: { A: 60, B: 50 }, why: 'a sum above 100.01' },
      { allocation: { A: 50, B: 49.98 }, why: 'a sum below 99.99' },
      { allocation: { A: 110, B: -10 }, why: 'a negative allocation' },
      { allocation: { A: Number.NaN, B: 100 }, why: 'a non-number' },
    ])('$why as InvalidAllocation', ({ allocation }) => {
      expect(() => scorePortfolio(allocation, { A, B }, covariance)).toThrow(
        expect.objectContaining({ code: ScoringErrorCode.InvalidAllocation }),
      );
    });

    it('an asset without scores or without covariance as MissingScoreData, naming them', () => {
      const noCovarianceForC = { C: A, ...{ A, B } };
      let error: unknown;
      try {
        scorePortfolio({ A: 40, X: 30, C: 30 }, noCovarianceForC, covariance);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ScoringError);
      expect(error).toMatchObject({ code: ScoringErrorCode.MissingScoreData, symbols: ['X', 'C'] });
    });

    it('inherited property names are not score data', () => {
      expect(() =>
        scorePortfolio({ constructor: 100 }, { A, B }, { symbols: ['constructor'], annualized: [[1]] }),
      ).toThrow(expect.objectContaining({ code: ScoringErrorCode.MissingScoreData }));
    });

    it('a covariance matrix that does not match its symbols as a programming error', () => {
      expect(() =>
        scorePortfolio({ A: 100 }, { A, B }, { symbols: ['A', 'B'], annualized: [[0.36]] }),
      ).toThrow(RangeError);
    });
  });
});

describe('scorePortfolio properties', () => {
  const assetArb: fc.Arbitrary<AssetScoreInputs> = fc.record({
    marketCapUsd: fc.double({ min: 1e5, max: 3e12, noNaN: true }),
    circulatingSupply: fc.double({ min: 1, max: 1e11, noNaN: true }),
    totalSupply: fc.option(fc.double({ min: 1, max: 1e11, noNaN: true }), { nil: null }),
    maxSupply: fc.option(fc.double({ min: 1, max: 1e11, noNaN: true }), { nil: null }),
    liquidityScore: fc.double({ min: 0, max: 100, noNaN: true }),
    developerScore: fc.double({ min: 0, max: 100, noNaN: true }),
    communityScore: fc.double({ min: 0, max: 100, noNaN: true }),
    annualizedVolatility: fc.double({ min: 0, max: 3, noNaN: true }),
    maxDrawdown: fc.double({ min: 0, max: 1, noNaN: true }),
  });
  const weightedAverage = (weights: number[], values: number[]) =>
    weights.reduce((sum, w, i) => sum + (w / 100) * values[i], 0);

  it('scores a one-asset portfolio exactly as that asset, whatever the covariance says', () => {
    fc.assert(
      fc.property(assetArb, fc.double({ min: 1e-6, max: 10, noNaN: true }), (inputs, variance) => {
        const asset = scoreAsset(inputs);
        const result = scorePortfolio({ X: 100 }, { X: asset }, { symbols: ['X'], annualized: [[variance]] });
        expect({ qScore: result.qScore, fScore: result.fScore, rScore: result.rScore }).toEqual({
          qScore: asset.qScore,
          fScore: asset.fScore,
          rScore: asset.rScore,
        });
        expect(result.breakdown.X).toEqual({
          qScore: asset.qScore,
          fScore: asset.fScore,
          rScore: asset.rScore,
        });
      }),
      { numRuns: 200 },
    );
  });

  it('never lowers risk by mixing perfectly correlated assets (equal to the weighted average below the clamp)', () => {
    fc.assert(
      fc.property(assetArb, assetArb, fc.integer({ min: 1, max: 99 }), (inputsA, inputsB, weightA) => {
        const a = scoreAsset(inputsA);
        const b = scoreAsset(inputsB);
        const weights = [weightA, 100 - weightA];
        const covariance = covarianceOf(
          ['A', 'B'],
          [a.annualizedVolatility, b.annualizedVolatility],
          () => 1,
        );
        const result = scorePortfolio({ A: weights[0], B: weights[1] }, { A: a, B: b }, covariance);
        const averageRisk = weightedAverage(weights, [a.rScore, b.rScore]);
        // Each published score is rounded to 0.01, hence the tolerance.
        expect(result.rScore).toBeGreaterThanOrEqual(averageRisk - 0.01);
        expect(result.annualizedVolatility).toBeCloseTo(
          weightedAverage(weights, [a.annualizedVolatility, b.annualizedVolatility]),
          12,
        );
        if (Math.max(a.annualizedVolatility, b.annualizedVolatility) <= 1.5) {
          expect(Math.abs(result.rScore - averageRisk)).toBeLessThanOrEqual(0.01 + 1e-9);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('lowers volatility and rScore by diversifying across uncorrelated assets', () => {
    const volatility = fc.double({ min: 0.1, max: 1.4, noNaN: true });
    fc.assert(
      fc.property(
        assetArb,
        assetArb,
        volatility,
        volatility,
        fc.integer({ min: 10, max: 90 }),
        (inputsA, inputsB, volatilityA, volatilityB, weightA) => {
          const a = scoreAsset({ ...inputsA, annualizedVolatility: volatilityA });
          const b = scoreAsset({ ...inputsB, annualizedVolatility: volatilityB });
          const weights = [weightA, 100 - weightA];
          const covariance = covarianceOf(['A', 'B'], [volatilityA, volatilityB], () => 0);
          const result = scorePortfolio({ A: weights[0], B: weights[1] }, { A: a, B: b }, covariance);
          expect(result.annualizedVolatility).toBeLessThan(
            weightedAverage(weights, [volatilityA, volatilityB]),
          );
          expect(result.rScore).toBeLessThan(weightedAverage(weights, [a.rScore, b.rScore]));
          // Same two assets, perfectly correlated: strictly riskier than uncorrelated.
          const correlated = scorePortfolio(
            { A: weights[0], B: weights[1] },
            { A: a, B: b },
            covarianceOf(['A', 'B'], [volatilityA, volatilityB], () => 1),
          );
          expect(result.rScore).toBeLessThan(correlated.rScore);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps portfolio scores in [0, 100] for any allocation and any valid correlations', () => {
    const correlationArb = fc.double({ min: -1, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        fc.array(assetArb, { minLength: 1, maxLength: 5 }),
        fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 5, maxLength: 5 }),
        correlationArb,
        (inputs, rawWeights, rho) => {
          const symbols = inputs.map((_, i) => `S${i}`);
          const scores: Record<string, AssetScore> = {};
          const allocation: Record<string, number> = {};
          const total = symbols.reduce((sum, _, i) => sum + rawWeights[i], 0);
          symbols.forEach((symbol, i) => {
            scores[symbol] = scoreAsset(inputs[i]);
            allocation[symbol] = (rawWeights[i] / total) * 100;
          });
          // Equicorrelation ρ is a valid correlation matrix only for ρ ≥ −1/(n − 1).
          const validRho = Math.max(rho, symbols.length > 1 ? -1 / (symbols.length - 1) : rho);
          const covariance = covarianceOf(
            symbols,
            inputs.map((x) => x.annualizedVolatility),
            () => validRho,
          );
          const result = scorePortfolio(allocation, scores, covariance);
          for (const score of [result.qScore, result.fScore, result.rScore]) {
            expect(score).toBeGreaterThanOrEqual(0);
            expect(score).toBeLessThanOrEqual(100);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
