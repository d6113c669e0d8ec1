import { SeededRandom } from '../random/seeded-random.js';
import {
  BlockBootstrapSampler,
  percentile,
  percentileRanks,
  selectRanks,
  SIMULATION_DEFAULTS,
  simulatePortfolio,
  type SimulationInput,
} from './monte-carlo.js';
import { SimulationErrorCode } from './simulation-error.js';

/** Daily log returns N(mean, sd) from a seed: stands in for stored history. */
function history(days: number, dailyMean: number, dailySd: number, seed: number): number[] {
  const random = new SeededRandom(seed);
  return Array.from({ length: days }, () => dailyMean + dailySd * random.normal());
}

const BTC = history(730, 0.0012, 0.035, 1);
const ETH_NOISE = history(730, 0.0005, 0.03, 2);
const ETH = BTC.map((r, t) => 0.8 * r + 0.6 * ETH_NOISE[t]);

function input(overrides: Partial<SimulationInput> = {}): SimulationInput {
  return {
    assets: [
      { symbol: 'BTC', weight: 0.6 },
      { symbol: 'ETH', weight: 0.4 },
    ],
    dailyLogReturns: [BTC, ETH],
    horizonYears: 5,
    seed: 12345,
    paths: 400,
    ...overrides,
  };
}

/**
 * The test's oracle. Closed form of the simulation without volatility: each step every asset grows by
 * exp(μᵢ / stepsPerYear) and the portfolio is rebalanced, so the terminal value is
 * principal × (Σᵢ wᵢ·exp(μᵢ / k))^(k·years). With one asset, or equal drifts, that is
 * principal × exp(μ·years).
 */
function zeroVolatilityTerminalUsd(params: {
  readonly principalUsd: number;
  readonly weights: readonly number[];
  readonly annualDrift: readonly number[];
  readonly horizonYears: number;
  readonly stepsPerYear?: number;
}): number {
  const stepsPerYear = params.stepsPerYear ?? SIMULATION_DEFAULTS.stepsPerYear;
  const total = params.weights.reduce((sum, w) => sum + w, 0);
  const stepGrowth = params.weights.reduce(
    (sum, w, i) => sum + (w / total) * Math.exp(params.annualDrift[i] / stepsPerYear),
    0,
  );
  return params.principalUsd * Math.pow(stepGrowth, stepsPerYear * params.horizonYears);
}

describe('simulatePortfolio', () => {
  it('gives identical output for the same seed, and different output for another seed', () => {
    const first = simulatePortfolio(input());
    expect(simulatePortfolio(input())).toEqual(first);
    expect(simulatePortfolio(input({ seed: 'another seed' })).scenarios).not.toEqual(first.scenarios);
  });

  it('orders bull ≥ base ≥ bear, with the documented defaults', () => {
    const result = simulatePortfolio(input());
    expect(result.scenarios.map((s) => [s.name, s.percentile])).toEqual([
      ['bull', 0.9],
      ['base', 0.5],
      ['bear', 0.1],
    ]);
    const [bull, base, bear] = result.scenarios;
    expect(Number(bull.terminalUsd)).toBeGreaterThanOrEqual(Number(base.terminalUsd));
    expect(Number(base.terminalUsd)).toBeGreaterThanOrEqual(Number(bear.terminalUsd));
    expect(bull.cagr).toBeGreaterThanOrEqual(base.cagr);
    expect(base.cagr).toBeGreaterThanOrEqual(bear.cagr);
    expect(bull.terminalUsd).toMatch(/^\d+\.\d{2}$/);
    expect(result).toMatchObject({ principalUsd: 10_000, stepsPerYear: 12, paths: 400, horizonYears: 5 });
    expect(result.model.jitter).toBe(0);
  });

  it('gives a band per year whose percentiles are ordered and, at the horizon, are bull/base/bear', () => {
    for (const overrides of [{}, { inflationRate: 0.03 }, { method: 'bootstrap' as const, paths: 300 }]) {
      const result = simulatePortfolio(input(overrides));
      expect(result.bands.map((band) => band.year)).toEqual([1, 2, 3, 4, 5]);
      for (const band of result.bands) {
        const values = [band.p10, band.p25, band.p50, band.p75, band.p90].map(Number);
        expect([...values].sort((a, b) => a - b)).toEqual(values);
        expect(band.p50).toMatch(/^\d+\.\d{2}$/);
      }
      const last = result.bands.at(-1)!;
      const [bull, base, bear] = result.scenarios;
      expect([last.p90, last.p50, last.p10]).toEqual([bull.terminalUsd, base.terminalUsd, bear.terminalUsd]);
    }
  });

  it('without volatility every band of year y is the closed form at y years', () => {
    const flat = Array.from({ length: 400 }, () => 0);
    const result = simulatePortfolio({
      assets: [{ symbol: 'A', weight: 1 }],
      dailyLogReturns: [flat],
      annualLogDrift: [0.1],
      annualVolatility: [0],
      horizonYears: 3,
      seed: 1,
      paths: 20,
    });
    for (const band of result.bands) {
      // 10,000 · e^(0.1·y): 11,051.71 / 12,214.03 / 13,498.59 (y = 1, 2, 3).
      const expected = (10_000 * Math.exp(0.1 * band.year)).toFixed(2);
      expect([band.p10, band.p50, band.p90]).toEqual([expected, expected, expected]);
    }
    expect(result.bands.map((band) => band.p50)).toEqual(['11051.71', '12214.03', '13498.59']);
  });

  it('reports cagr = (terminal / principal)^(1 / years) − 1', () => {
    const result = simulatePortfolio(input({ principalUsd: 2_500 }));
    for (const scenario of result.scenarios) {
      expect(2_500 * Math.pow(1 + scenario.cagr, 5)).toBeCloseTo(Number(scenario.terminalUsd), 1);
    }
  });

  it.each([
    { name: 'one asset', weights: [1], dailyDrifts: [0.0004] },
    { name: 'two assets with equal drift', weights: [0.3, 0.7], dailyDrifts: [0.0004, 0.0004] },
    { name: 'two assets, rebalanced monthly', weights: [0.5, 0.5], dailyDrifts: [0.001, -0.0005] },
  ])('matches the closed form with zero volatility ($name)', ({ weights, dailyDrifts }) => {
    const result = simulatePortfolio({
      assets: weights.map((weight, i) => ({ symbol: `A${i}`, weight })),
      dailyLogReturns: dailyDrifts.map((drift) => new Array<number>(400).fill(drift)),
      horizonYears: 7,
      seed: 1,
      paths: 50,
    });
    const annualDrift = dailyDrifts.map((d) => d * 365);
    const expected = zeroVolatilityTerminalUsd({
      principalUsd: 10_000,
      weights,
      annualDrift,
      horizonYears: 7,
    });
    if (new Set(dailyDrifts).size === 1) {
      expect(Math.abs(expected / (10_000 * Math.exp(annualDrift[0] * 7)) - 1)).toBeLessThan(1e-12);
    }
    const expectedCagr = Math.pow(expected / 10_000, 1 / 7) - 1;
    for (const scenario of result.scenarios) {
      const simulatedTerminal = 10_000 * Math.pow(1 + scenario.cagr, 7);
      expect(Math.abs(simulatedTerminal / expected - 1)).toBeLessThan(1e-9);
      expect(Math.abs(scenario.cagr - expectedCagr)).toBeLessThan(1e-12);
      expect(Math.abs(Number(scenario.terminalUsd) - expected)).toBeLessThanOrEqual(0.005 + 1e-9);
    }
    expect(result.model.annualVolatility).toEqual(weights.map(() => 0));
  });

  it('matches the log-normal quantiles exp(μT ± 1.2816·σ√T) for one asset', () => {
    const result = simulatePortfolio({
      assets: [{ symbol: 'BTC', weight: 1 }],
      dailyLogReturns: [BTC],
      horizonYears: 4,
      seed: 99,
      paths: 20_000,
      // One asset: rebalancing is moot, so yearly steps give the same distribution, cheaper.
      stepsPerYear: 1,
    });
    const [mu] = result.model.annualDrift;
    const [sigma] = result.model.annualVolatility;
    const z90 = 1.2815515655446004;
    const density = (z: number) => Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI);
    result.scenarios.forEach((scenario, i) => {
      const z = [z90, 0, -z90][i];
      const expectedLog = Math.log(10_000) + mu * 4 + z * sigma * Math.sqrt(4);
      // Standard error of a sample quantile: √(p(1 − p) / n) / φ(z), in units of σ√T.
      const p = scenario.percentile;
      const standardError = (Math.sqrt((p * (1 - p)) / 20_000) / density(z)) * sigma * Math.sqrt(4);
      expect(Math.abs(Math.log(Number(scenario.terminalUsd)) - expectedLog)).toBeLessThan(4 * standardError);
    });
  });

  it('pairs paths antithetically: the twin of log return μ + L·z is μ − L·z', () => {
    const result = simulatePortfolio({
      assets: [{ symbol: 'BTC', weight: 1 }],
      dailyLogReturns: [BTC],
      horizonYears: 1,
      stepsPerYear: 1,
      seed: 3,
      paths: 2,
    });
    // Two paths a ≤ b: bull = a + 0.9·(b − a), bear = a + 0.1·(b − a).
    const [bull, , bear] = result.scenarios.map((s) => 10_000 * (1 + s.cagr));
    const spread = (bull - bear) / 0.8;
    const low = bear - 0.1 * spread;
    const high = low + spread;
    expect(Math.log(low / 10_000) + Math.log(high / 10_000)).toBeCloseTo(2 * result.model.annualDrift[0], 10);
  });

  it('jitters a singular covariance (two identical histories) instead of failing', () => {
    const result = simulatePortfolio(input({ dailyLogReturns: [BTC, BTC], paths: 200 }));
    expect(result.model.jitter).toBeGreaterThan(0);
    const single = simulatePortfolio({
      ...input({ paths: 2_000, stepsPerYear: 1 }),
      assets: [{ symbol: 'BTC', weight: 1 }],
      dailyLogReturns: [BTC],
    });
    const twin = simulatePortfolio(input({ dailyLogReturns: [BTC, BTC], paths: 2_000, stepsPerYear: 1 }));
    expect(Number(twin.scenarios[1].terminalUsd) / Number(single.scenarios[1].terminalUsd)).toBeCloseTo(1, 1);
  });

  it('accepts weights that sum to 1 within 0.0001', () => {
    const nearlyOne = input({
      assets: [
        { symbol: 'BTC', weight: 0.60005 },
        { symbol: 'ETH', weight: 0.4 },
      ],
    });
    expect(() => simulatePortfolio(nearlyOne)).not.toThrow();
  });

  it.each([
    {
      name: 'weights summing to 0.9',
      patch: {
        assets: [
          { symbol: 'BTC', weight: 0.5 },
          { symbol: 'ETH', weight: 0.4 },
        ],
      },
    },
    {
      name: 'a negative weight',
      patch: {
        assets: [
          { symbol: 'BTC', weight: 1.5 },
          { symbol: 'ETH', weight: -0.5 },
        ],
      },
    },
    {
      name: 'duplicate symbols',
      patch: {
        assets: [
          { symbol: 'BTC', weight: 0.5 },
          { symbol: 'BTC', weight: 0.5 },
        ],
      },
    },
    { name: 'a missing series', patch: { dailyLogReturns: [BTC] } },
    { name: 'a fractional horizon', patch: { horizonYears: 2.5 } },
    { name: 'a zero horizon', patch: { horizonYears: 0 } },
    { name: 'too many paths', patch: { paths: 100_001 } },
    { name: 'zero steps per year', patch: { stepsPerYear: 0 } },
    { name: 'a zero principal', patch: { principalUsd: 0 } },
    { name: 'no assets', patch: { assets: [], dailyLogReturns: [] } },
  ])('rejects $name', ({ patch }) => {
    expect(() => simulatePortfolio(input(patch))).toThrow(
      expect.objectContaining({ code: SimulationErrorCode.InvalidInput }),
    );
  });
});

describe('percentile (linear interpolation between closest ranks)', () => {
  it.each([
    { sample: [1, 2, 3, 4], p: 0.5, expected: 2.5 },
    { sample: [1, 2, 3, 4], p: 0.9, expected: 3.7 },
    { sample: [1, 2, 3, 4], p: 0.1, expected: 1.3 },
    { sample: [1, 2, 3, 4], p: 0, expected: 1 },
    { sample: [1, 2, 3, 4], p: 1, expected: 4 },
    { sample: [10, 20, 30, 40, 50], p: 0.5, expected: 30 },
    { sample: [7], p: 0.9, expected: 7 },
  ])('$p of $sample → $expected', ({ sample, p, expected }) => {
    expect(percentile(Float64Array.from(sample), p)).toBeCloseTo(expected, 12);
  });

  it('rejects an empty sample or p outside [0, 1]', () => {
    expect(() => percentile([], 0.5)).toThrow();
    expect(() => percentile([1], 1.5)).toThrow();
  });
});

describe('simulatePortfolio: assumptions, bootstrap, flows and risk figures', () => {
  /** Sample correlation of two equally long series. */
  function correlation(a: ArrayLike<number>, b: ArrayLike<number>): number {
    const n = a.length;
    let ma = 0;
    let mb = 0;
    for (let k = 0; k < n; k++) {
      ma += a[k] / n;
      mb += b[k] / n;
    }
    let sab = 0;
    let saa = 0;
    let sbb = 0;
    for (let k = 0; k < n; k++) {
      sab += (a[k] - ma) * (b[k] - mb);
      saa += (a[k] - ma) ** 2;
      sbb += (b[k] - mb) ** 2;
    }
    return sab / Math.sqrt(saa * sbb);
  }

  it('bootstrap keeps the history sample correlation (within 0.03 over 12,000 months)', () => {
    const historical = correlation(BTC, ETH); // ≈ 0.8 by construction
    const assumed = [Math.log1p(0.04), Math.log1p(0.04)];
    const sampler = new BlockBootstrapSampler(
      [BTC, ETH],
      [0, 0].map((_, i) => ([BTC, ETH][i].reduce((s, r) => s + r, 0) / 730) * 365),
      assumed,
      [1, 1],
      12,
      new SeededRandom(7),
    );
    const months = 12_000;
    const out = new Float64Array(months * 2);
    sampler.fillSteps(out, months);
    const a = out.filter((_, k) => k % 2 === 0);
    const b = out.filter((_, k) => k % 2 === 1);
    expect(Math.abs(correlation(a, b) - historical)).toBeLessThan(0.03);
    // Re-centred: the mean monthly log return is the assumed one (days/365 of μ), not the history's.
    const meanA = a.reduce((s, r) => s + r, 0) / a.length;
    expect(Math.abs(meanA - assumed[0] / 12)).toBeLessThan(0.01);
  });

  it('bootstrap: the drift of every whole circle of start days is exactly the assumed μ', () => {
    // A constant history: every block sums to its days × μ/365 (deviations are 0).
    const flat = Array.from({ length: 60 }, () => 0.01);
    const result = simulatePortfolio({
      assets: [{ symbol: 'X', weight: 1 }],
      dailyLogReturns: [flat],
      horizonYears: 3,
      seed: 1,
      paths: 5,
      method: 'bootstrap',
      annualLogDrift: [0.05],
    });
    expect(Number(result.scenarios[1].terminalUsd)).toBeCloseTo(10_000 * Math.exp(0.15), 2);
    expect(result.risk.maxDrawdownP90).toBe(0);
    expect(result.risk.probabilityBelowPrincipal).toBe(0);
  });

  it.each(['parametric', 'bootstrap'] as const)(
    '%s: a fixed seed reproduces every figure; another seed differs',
    (method) => {
      const first = simulatePortfolio(input({ method, annualLogDrift: [0.03, 0.02] }));
      expect(simulatePortfolio(input({ method, annualLogDrift: [0.03, 0.02] }))).toEqual(first);
      expect(
        simulatePortfolio(input({ method, annualLogDrift: [0.03, 0.02], seed: 9 })).scenarios,
      ).not.toEqual(first.scenarios);
    },
  );

  it('uses the assumed drift and volatility: zero volatility gives the closed form', () => {
    const result = simulatePortfolio(
      input({
        annualLogDrift: [Math.log1p(0.04), Math.log1p(0.06)],
        annualVolatility: [0, 0],
        horizonYears: 10,
      }),
    );
    const expected = zeroVolatilityTerminalUsd({
      principalUsd: 10_000,
      weights: [0.6, 0.4],
      annualDrift: [Math.log1p(0.04), Math.log1p(0.06)],
      horizonYears: 10,
    });
    for (const scenario of result.scenarios) expect(Number(scenario.terminalUsd)).toBeCloseTo(expected, 2);
    expect(result.risk.maxDrawdownMedian).toBe(0);
  });

  it('adds contributions at step ends, deflates by inflation, never goes below 0 on withdrawals', () => {
    const flat = { annualLogDrift: [0, 0], annualVolatility: [0, 0], horizonYears: 2 };
    const paid = simulatePortfolio(input({ ...flat, periodicContributionUsd: 100 }));
    expect(paid.scenarios[1].terminalUsd).toBe('12400.00'); // 10,000 + 24 × 100
    const real = simulatePortfolio(input({ ...flat, inflationRate: 0.03 }));
    expect(real.scenarios[1].terminalUsd).toBe('9425.96'); // 10,000 / 1.03² = 9425.959…
    expect(real.risk.probabilityBelowPrincipal).toBe(1);
    const drained = simulatePortfolio(input({ ...flat, periodicContributionUsd: -1000 }));
    expect(drained.scenarios[1].terminalUsd).toBe('0.00');
    expect(drained.scenarios[1].cagr).toBe(-1);
  });

  it('risk figures: share below principal, drawdown percentiles and 5 % expected shortfall', () => {
    const result = simulatePortfolio(input({ paths: 2000, annualLogDrift: [0, 0] }));
    const { risk } = result;
    // Zero drift: the median path ends near the principal, so about half end below it.
    expect(risk.probabilityBelowPrincipal).toBeGreaterThan(0.4);
    expect(risk.probabilityBelowPrincipal).toBeLessThan(0.7);
    expect(risk.maxDrawdownP90).toBeGreaterThanOrEqual(risk.maxDrawdownMedian);
    expect(risk.maxDrawdownMedian).toBeGreaterThan(0);
    expect(risk.maxDrawdownP90).toBeLessThan(1);
    expect(Number(risk.expectedShortfall5Usd)).toBeLessThan(Number(result.scenarios[2].terminalUsd));
    expect(Number(risk.expectedShortfall5Usd)).toBeGreaterThan(0);
  });
});

describe('selectRanks (the ranks percentile() reads, without sorting)', () => {
  it('puts at each rank what sort() puts there, with ties, zeros and NaN, for every rank', () => {
    const random = new SeededRandom('select-ranks');
    for (let round = 0; round < 200; round++) {
      const n = 1 + random.int(0, 60);
      const values = Float64Array.from({ length: n }, () => {
        const roll = random.next();
        if (roll < 0.1) return 0;
        if (roll < 0.15) return Number.NaN;
        if (roll < 0.4) return random.int(0, 5);
        return random.normal() * 100;
      });
      const sorted = values.slice().sort();
      const ranks = Array.from({ length: 1 + random.int(0, 4) }, () => random.int(0, n - 1));
      const selected = values.slice();
      selectRanks(selected, ranks);
      for (const rank of ranks) {
        expect(selected[rank]).toBe(sorted[rank]);
        for (let k = 0; k < n; k++) {
          if (Number.isNaN(selected[rank])) continue;
          if (k < rank) expect(selected[k] <= selected[rank]).toBe(true);
          if (k > rank) expect(selected[k] >= selected[rank] || Number.isNaN(selected[k])).toBe(true);
        }
      }
      // The same multiset of values.
      expect(selected.slice().sort()).toEqual(sorted);
    }
  });

  it('gives percentile() the sorted sample’s figures at percentileRanks', () => {
    const random = new SeededRandom('select-ranks-percentiles');
    const ps = [0.1, 0.25, 0.5, 0.75, 0.9];
    for (const n of [1, 2, 3, 10, 101, 10_000]) {
      const values = Float64Array.from({ length: n }, () => Math.exp(random.normal()));
      const sorted = values.slice().sort();
      selectRanks(values, percentileRanks(n, ps));
      for (const p of ps) expect(percentile(values, p)).toBe(percentile(sorted, p));
    }
  });
});
