import fc from 'fast-check';
import { SeededRandom } from '../random/seeded-random.js';
import { CONSERVATIVE_PRIOR, resolveAssumptions, shrinkTowardPrior } from './return-assumptions.js';

describe('shrinkTowardPrior (docs/simulation.md, worked example)', () => {
  it('shrinks μ̂ = 0.40 with σ = 70 % over 2,555 days (7 years) to 5.30 % a year', () => {
    const shrunk = shrinkTowardPrior({ historicalLogMean: 0.4, annualVolatility: 0.7, years: 2555 / 365 });
    // SE = 0.7 / √7 = 0.264575131…, SE² = 0.07
    expect(shrunk.standardError).toBeCloseTo(0.264575131106459, 14);
    // w = 0.05² / (0.05² + 0.07) = 0.0025 / 0.0725 = 1 / 29 = 0.0344827586…
    expect(shrunk.weightOnHistory).toBeCloseTo(1 / 29, 14);
    // μ₀ = ln 1.04 = 0.0392207131…; μ = μ₀ + (0.40 − μ₀) / 29 = 0.0516613782…
    expect(shrunk.logDrift).toBeCloseTo(0.05166137821696129, 14);
    // Expected compound return e^μ − 1 = 5.3019 %, against e^0.40 − 1 = 49.18 % raw.
    expect(Math.expm1(shrunk.logDrift)).toBeCloseTo(0.05301910692692213, 14);
  });

  it('lies between the prior and the history, nearer the history the more years there are', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -2, max: 2, noNaN: true }),
        fc.double({ min: 0.01, max: 2, noNaN: true }),
        fc.double({ min: 0.1, max: 50, noNaN: true }),
        (mean, sigma, years) => {
          const prior = Math.log1p(CONSERVATIVE_PRIOR.expectedReturn);
          const { logDrift, weightOnHistory } = shrinkTowardPrior({
            historicalLogMean: mean,
            annualVolatility: sigma,
            years,
          });
          expect(weightOnHistory).toBeGreaterThan(0);
          expect(weightOnHistory).toBeLessThan(1);
          expect(logDrift).toBeGreaterThanOrEqual(Math.min(mean, prior) - 1e-12);
          expect(logDrift).toBeLessThanOrEqual(Math.max(mean, prior) + 1e-12);
          const longer = shrinkTowardPrior({
            historicalLogMean: mean,
            annualVolatility: sigma,
            years: years * 2,
          });
          expect(longer.weightOnHistory).toBeGreaterThan(weightOnHistory);
        },
      ),
    );
  });

  it('takes the history whole without volatility (SE = 0)', () => {
    expect(shrinkTowardPrior({ historicalLogMean: 0.3, annualVolatility: 0, years: 1 }).logDrift).toBe(0.3);
  });
});

describe('resolveAssumptions', () => {
  const random = new SeededRandom('assumptions');
  const btc = Array.from({ length: 730 }, () => 0.002 + 0.04 * random.normal());
  const eth = Array.from({ length: 730 }, () => 0.001 + 0.05 * random.normal());

  it('defaults to the shrunk history and takes a tenant override as given', () => {
    const [a, b] = resolveAssumptions(
      ['BTC', 'ETH'],
      [btc, eth],
      new Map([['ETH', { expectedReturn: 0.07 }]]),
    );
    expect(a.source).toBe('history_shrunk');
    expect(a.volatility).toBeCloseTo(a.historicalVolatility, 15);
    const shrunk = shrinkTowardPrior({
      historicalLogMean: Math.log1p(a.historicalExpectedReturn),
      annualVolatility: a.historicalVolatility,
      years: 2,
    });
    expect(a.annualLogDrift).toBeCloseTo(shrunk.logDrift, 12);
    expect(a.expectedReturn).toBeCloseTo(Math.expm1(shrunk.logDrift), 12);
    expect(b).toMatchObject({ source: 'tenant', expectedReturn: 0.07, annualLogDrift: Math.log1p(0.07) });
    expect(b.volatility).toBe(b.historicalVolatility);
    const [c] = resolveAssumptions(
      ['BTC'],
      [btc],
      new Map([['BTC', { expectedReturn: 0.05, volatility: 0.5 }]]),
    );
    expect(c.volatility).toBe(0.5);
  });
});
