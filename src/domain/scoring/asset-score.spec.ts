import fc from 'fast-check';
import {
  scoreAsset,
  sizePoints,
  supplyDilutionPoints,
  volatilityRiskPoints,
  type AssetScoreInputs,
} from './asset-score.js';

/** Round figures: size 50, supply 50, volatility 40, drawdown 40, illiquidity 40. */
const MIDCAP: AssetScoreInputs = {
  marketCapUsd: 1e9,
  circulatingSupply: 50,
  totalSupply: 80,
  maxSupply: 100,
  liquidityScore: 60,
  developerScore: 70,
  communityScore: 80,
  annualizedVolatility: 0.6,
  maxDrawdown: 0.4,
};

describe('scoreAsset', () => {
  it('pins the formulas on round inputs', () => {
    // F = .3·50 + .2·60 + .2·70 + .15·80 + .15·50 = 60.5
    // R = .5·40 + .3·40 + .2·(100 − 60) = 40
    // Q = .6·60.5 + .4·(100 − 40) = 60.3
    const score = scoreAsset(MIDCAP);
    expect(score).toMatchObject({ fScore: 60.5, rScore: 40, qScore: 60.3 });
    expect(score.components).toEqual({
      size: 50,
      liquidity: 60,
      developer: 70,
      community: 80,
      supplyDilution: 50,
      volatility: 40,
      drawdown: 40,
      illiquidity: 40,
    });
  });

  it('scores a BTC-like asset (size clamped at $1T) and rounds only at the end', () => {
    // F = 30 + .2·69.76 + .2·89.94 + .15·98.85 + .15·(19.8/21·100) = 90.910357…
    // R = .5·26 + .3·35 + .2·30.24 = 29.548
    // Q = .6·90.910357… + .4·70.452 = 82.727014…
    const score = scoreAsset({
      marketCapUsd: 2.2e12,
      circulatingSupply: 19_800_000,
      totalSupply: 19_800_000,
      maxSupply: 21_000_000,
      liquidityScore: 69.76,
      developerScore: 89.94,
      communityScore: 98.85,
      annualizedVolatility: 0.39,
      maxDrawdown: 0.35,
    });
    expect(score).toMatchObject({ fScore: 90.91, rScore: 29.55, qScore: 82.73 });
  });

  it.each([
    { marketCapUsd: 1e6, expected: 0 },
    { marketCapUsd: 1e9, expected: 50 },
    { marketCapUsd: 1e12, expected: 100 },
    { marketCapUsd: 5e12, expected: 100 },
    { marketCapUsd: 0, expected: 0 },
  ])('size: market cap $marketCapUsd → $expected points', ({ marketCapUsd, expected }) => {
    expect(sizePoints(marketCapUsd)).toBeCloseTo(expected, 10);
  });

  it.each([
    { circulating: 50, total: 80, max: 100, expected: 50, why: 'circulating / max' },
    { circulating: 120, total: 120, max: null, expected: 100, why: 'uncapped: circulating / total (ETH)' },
    { circulating: 60, total: 80, max: null, expected: 75, why: 'uncapped with locked supply' },
    { circulating: 60, total: null, max: null, expected: 50, why: 'unknown cap: neutral' },
    { circulating: 110, total: 100, max: 100, expected: 100, why: 'data quirk above the cap: clamped' },
  ])('supply dilution: $why → $expected', ({ circulating, total, max, expected }) => {
    expect(supplyDilutionPoints(circulating, total, max)).toBeCloseTo(expected, 10);
  });

  it.each([
    { volatility: 0, expected: 0 },
    { volatility: 0.75, expected: 50 },
    { volatility: 1.5, expected: 100 },
    { volatility: 3, expected: 100 },
  ])('volatility $volatility → $expected risk points', ({ volatility, expected }) => {
    expect(volatilityRiskPoints(volatility)).toBeCloseTo(expected, 10);
  });

  it('keeps every score in [0, 100] with two decimals, whatever the inputs', () => {
    const anyNumber = fc.oneof(fc.double(), fc.double({ min: 0, max: 1e13, noNaN: true }));
    const inputs: fc.Arbitrary<AssetScoreInputs> = fc.record({
      marketCapUsd: anyNumber,
      circulatingSupply: anyNumber,
      totalSupply: fc.option(anyNumber, { nil: null }),
      maxSupply: fc.option(anyNumber, { nil: null }),
      liquidityScore: anyNumber,
      developerScore: anyNumber,
      communityScore: anyNumber,
      annualizedVolatility: anyNumber,
      maxDrawdown: anyNumber,
    });
    fc.assert(
      fc.property(inputs, (input) => {
        const { qScore, fScore, rScore } = scoreAsset(input);
        for (const score of [qScore, fScore, rScore]) {
          expect(score).toBeGreaterThanOrEqual(0);
          expect(score).toBeLessThanOrEqual(100);
          expect(Math.round(score * 100) / 100).toBe(score);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('rates a riskier asset (more volatile, deeper drawdown) with a higher rScore and lower qScore', () => {
    const calm = scoreAsset(MIDCAP);
    const wild = scoreAsset({ ...MIDCAP, annualizedVolatility: 1.2, maxDrawdown: 0.8 });
    expect(wild.rScore).toBeGreaterThan(calm.rScore);
    expect(wild.qScore).toBeLessThan(calm.qScore);
    expect(wild.fScore).toBe(calm.fScore);
  });
});
