/**
 * Monte Carlo projection of a portfolio from stored price history (design §9,
 * docs/simulation.md).
 *
 * Owns: estimating μ and Σ of log returns, drawing correlated log-normal paths from a
 * seed, rebalancing to the target weights every step, and reading the bull/base/bear
 * percentiles of terminal value. Never: loads history, formats text or picks a seed —
 * the caller passes aligned daily log returns and a seed, and formats the result with
 * src/domain/money/format.ts.
 */
import { Decimal } from 'decimal.js';
import { roundUsdToCents } from '../money/format.js';
import { SeededRandom } from '../random/seeded-random.js';
import { estimateAnnualMoments } from './annual-moments.js';
import { CorrelatedNormalSampler } from './correlated-normal-sampler.js';
import { factorCovariance } from './covariance-factor.js';
import { invalidInput } from './simulation-error.js';

export interface SimulationAsset {
  readonly symbol: string;
  /** Target weight as a fraction; weights sum to 1 (± WEIGHT_SUM_TOLERANCE). */
  readonly weight: number;
}

export interface SimulationInput {
  readonly assets: readonly SimulationAsset[];
  /** One aligned series of daily log returns per asset, in the order of `assets`. */
  readonly dailyLogReturns: readonly (readonly number[])[];
  readonly horizonYears: number;
  readonly seed: number | string;
  /** Steps per year; also the rebalancing frequency. Default 12 (monthly). */
  readonly stepsPerYear?: number;
  readonly paths?: number;
  readonly principalUsd?: number;
}

export type ScenarioName = 'bull' | 'base' | 'bear';

export interface SimulationScenario {
  readonly name: ScenarioName;
  /** Percentile of terminal value, as a fraction (0.9, 0.5, 0.1). */
  readonly percentile: number;
  /** Terminal portfolio value in USD, rounded half-up to cents, as decimal text. */
  readonly terminalUsd: string;
  /** (terminal / principal)^(1 / horizonYears) − 1, as a fraction. */
  readonly cagr: number;
}

export interface SimulationResult {
  /** Always bull, base, bear in that order. */
  readonly scenarios: readonly SimulationScenario[];
  readonly principalUsd: number;
  readonly horizonYears: number;
  readonly stepsPerYear: number;
  readonly paths: number;
  readonly seed: number | string;
  /** What the paths were drawn from, per asset in input order. */
  readonly model: {
    readonly symbols: readonly string[];
    readonly annualDrift: readonly number[];
    readonly annualVolatility: readonly number[];
    readonly jitter: number;
  };
}

export const SIMULATION_DEFAULTS = { stepsPerYear: 12, paths: 10_000, principalUsd: 10_000 } as const;
export const SIMULATION_LIMITS = {
  maxPaths: 100_000,
  maxHorizonYears: 50,
  maxStepsPerYear: 365,
  maxAssets: 50,
} as const;
export const WEIGHT_SUM_TOLERANCE = 0.0001;

export const SCENARIO_PERCENTILES: readonly { readonly name: ScenarioName; readonly percentile: number }[] = [
  { name: 'bull', percentile: 0.9 },
  { name: 'base', percentile: 0.5 },
  { name: 'bear', percentile: 0.1 },
];

export function simulatePortfolio(input: SimulationInput): SimulationResult {
  const stepsPerYear = input.stepsPerYear ?? SIMULATION_DEFAULTS.stepsPerYear;
  const paths = input.paths ?? SIMULATION_DEFAULTS.paths;
  const principalUsd = input.principalUsd ?? SIMULATION_DEFAULTS.principalUsd;
  const { horizonYears } = input;
  const weights = validate(input, stepsPerYear, paths, principalUsd);

  const { drift, covariance } = estimateAnnualMoments(input.dailyLogReturns);
  const stepDrift = drift.map((annual) => annual / stepsPerYear);
  const { lower, jitter } = factorCovariance(covariance.map((row) => row.map((v) => v / stepsPerYear)));
  const sampler = new CorrelatedNormalSampler(stepDrift, lower, new SeededRandom(input.seed));

  const terminal = simulateTerminalValues(
    sampler,
    stepDrift,
    weights,
    principalUsd,
    horizonYears * stepsPerYear,
    paths,
  );
  terminal.sort();

  const scenarios = SCENARIO_PERCENTILES.map(({ name, percentile: p }) => {
    const valueUsd = percentile(terminal, p);
    return {
      name,
      percentile: p,
      terminalUsd: roundUsdToCents(new Decimal(valueUsd)).toFixed(2),
      cagr: Math.pow(valueUsd / principalUsd, 1 / horizonYears) - 1,
    };
  });

  return {
    scenarios,
    principalUsd,
    horizonYears,
    stepsPerYear,
    paths,
    seed: input.seed,
    model: {
      symbols: input.assets.map((asset) => asset.symbol),
      annualDrift: drift,
      annualVolatility: covariance.map((row, i) => Math.sqrt(row[i])),
      jitter: jitter * stepsPerYear,
    },
  };
}

/**
 * Terminal value per path, rebalanced to `weights` at the start of every step:
 * value ← value × Σᵢ wᵢ·exp(rᵢ), r drawn per step from the sampler.
 *
 * Paths come in antithetic pairs: a draw r = μΔ + L·z drives one path and its mirror
 * 2μΔ − r = μΔ − L·z drives the next, so each normal serves two paths. That halves the
 * work of the random-number generator (most of the run time) and reduces the sampling
 * error of the percentiles; each path on its own still has exactly the model's
 * distribution. With an odd count the last path has no twin. The random stream is
 * consumed pair by pair, step by step, asset by asset.
 */
function simulateTerminalValues(
  sampler: CorrelatedNormalSampler,
  stepDrift: readonly number[],
  weights: Float64Array,
  principalUsd: number,
  steps: number,
  paths: number,
): Float64Array {
  const assetCount = weights.length;
  const twiceDrift = Float64Array.from(stepDrift, (drift) => 2 * drift);
  // One pair's draws for every step at once (steps × assets): the normals come from the
  // generator in one bulk call, in the order of `steps` single draws, so a seed gives the
  // same figures as drawing step by step.
  const draws = new Float64Array(steps * assetCount);
  const terminal = new Float64Array(paths);
  for (let path = 0; path < paths; path += 2) {
    const hasTwin = path + 1 < paths;
    sampler.fillSteps(draws, steps);
    let value = principalUsd;
    let twinValue = principalUsd;
    for (let base = 0; base < draws.length; base += assetCount) {
      let growth = 0;
      let twinGrowth = 0;
      for (let i = 0; i < assetCount; i++) {
        const logReturn = draws[base + i];
        growth += weights[i] * Math.exp(logReturn);
        twinGrowth += weights[i] * Math.exp(twiceDrift[i] - logReturn);
      }
      value *= growth;
      twinValue *= twinGrowth;
    }
    terminal[path] = value;
    if (hasTwin) terminal[path + 1] = twinValue;
  }
  return terminal;
}

/**
 * Percentile by linear interpolation between closest ranks (Hyndman–Fan type 7, as
 * numpy's default and Excel's PERCENTILE.INC): h = (n − 1)·p, then interpolate between
 * the values at ⌊h⌋ and ⌈h⌉ (0-based) of the ascending sample.
 */
export function percentile(sortedAscending: ArrayLike<number>, p: number): number {
  const n = sortedAscending.length;
  if (n === 0) throw invalidInput('Percentile of an empty sample');
  if (!(p >= 0 && p <= 1)) throw invalidInput(`Percentile must be within [0, 1], got ${p}`);
  const h = (n - 1) * p;
  const below = Math.floor(h);
  const above = Math.min(below + 1, n - 1);
  return sortedAscending[below] + (h - below) * (sortedAscending[above] - sortedAscending[below]);
}

/**
 * Closed form of the simulation without volatility: each step every asset grows by
 * exp(μᵢ / stepsPerYear) and the portfolio is rebalanced, so the terminal value is
 * principal × (Σᵢ wᵢ·exp(μᵢ / k))^(k·years). With one asset, or equal drifts, that is
 * principal × exp(μ·years).
 */
export function zeroVolatilityTerminalUsd(params: {
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

function validate(
  input: SimulationInput,
  stepsPerYear: number,
  paths: number,
  principalUsd: number,
): Float64Array {
  const { assets, dailyLogReturns, horizonYears } = input;
  if (assets.length === 0 || assets.length > SIMULATION_LIMITS.maxAssets) {
    throw invalidInput(`Between 1 and ${SIMULATION_LIMITS.maxAssets} assets are required`);
  }
  if (dailyLogReturns.length !== assets.length) throw invalidInput('One return series per asset is required');
  if (new Set(assets.map((asset) => asset.symbol)).size !== assets.length) {
    throw invalidInput('Asset symbols must be unique');
  }
  requireInteger('horizonYears', horizonYears, 1, SIMULATION_LIMITS.maxHorizonYears);
  requireInteger('stepsPerYear', stepsPerYear, 1, SIMULATION_LIMITS.maxStepsPerYear);
  requireInteger('paths', paths, 1, SIMULATION_LIMITS.maxPaths);
  if (!(Number.isFinite(principalUsd) && principalUsd > 0))
    throw invalidInput('principalUsd must be positive');
  if (typeof input.seed === 'number' && !Number.isFinite(input.seed))
    throw invalidInput('seed must be finite');

  let total = 0;
  for (const { symbol, weight } of assets) {
    if (!(Number.isFinite(weight) && weight >= 0)) throw invalidInput(`Weight of ${symbol} must be ≥ 0`);
    total += weight;
  }
  if (Math.abs(total - 1) > WEIGHT_SUM_TOLERANCE) {
    throw invalidInput(`Weights must sum to 1 (± ${WEIGHT_SUM_TOLERANCE}), got ${total}`);
  }
  // Within the tolerance, the weights are scaled to sum to exactly 1.
  return Float64Array.from(assets, (asset) => asset.weight / total);
}

function requireInteger(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw invalidInput(`${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
}
