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
import { DAYS_PER_YEAR, estimateAnnualMoments } from './annual-moments.js';
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
  /**
   * One aligned series of daily log returns per asset, in the order of `assets` (arrays or
   * Float64Arrays: the simulation pool moves the latter to its worker thread without a copy).
   */
  readonly dailyLogReturns: readonly ArrayLike<number>[];
  readonly horizonYears: number;
  readonly seed: number | string;
  /** Steps per year; also the rebalancing frequency. Default 12 (monthly). */
  readonly stepsPerYear?: number;
  readonly paths?: number;
  readonly principalUsd?: number;
  /** Default parametric (correlated log-normal); bootstrap resamples the history in blocks. */
  readonly method?: SimulationMethod;
  /**
   * Assumed annual mean log return μ per asset (ln(1 + expected compound return)), in the order
   * of `assets`. Absent: the history's own mean — for the engine's tests only; the service always
   * passes the assumptions of return-assumptions.ts.
   */
  readonly annualLogDrift?: readonly number[];
  /** Assumed annual volatility per asset; absent: the history's. Correlations stay the history's. */
  readonly annualVolatility?: readonly number[];
  /** Annual inflation rate (fraction): when given, every figure is in today's dollars. */
  readonly inflationRate?: number;
  /** Paid in (> 0) or taken out (< 0) at the end of every step, nominal USD; default 0. */
  readonly periodicContributionUsd?: number;
}

export type SimulationMethod = 'parametric' | 'bootstrap';
export const SIMULATION_METHODS: readonly SimulationMethod[] = ['parametric', 'bootstrap'];

/** Risk figures of the same paths as the scenarios (docs/simulation.md "Risk figures"). */
export interface SimulationRisk {
  /** Share of paths whose terminal value is below the principal. */
  readonly probabilityBelowPrincipal: number;
  /** Median and 90th percentile over paths of the largest peak-to-trough fall of the portfolio's return index. */
  readonly maxDrawdownMedian: number;
  readonly maxDrawdownP90: number;
  /** Mean of the worst 5 % of terminal values, rounded half-up to cents, decimal text. */
  readonly expectedShortfall5Usd: string;
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

/**
 * The spread of portfolio values at the end of one year of the horizon (a fan chart's slice):
 * percentiles over paths, USD rounded half-up to cents, decimal text; in today's dollars when an
 * inflation rate is given. At the horizon, p90/p50/p10 are the bull/base/bear terminal values.
 */
export interface YearBand {
  readonly year: number;
  readonly p10: string;
  readonly p25: string;
  readonly p50: string;
  readonly p75: string;
  readonly p90: string;
}

export interface SimulationResult {
  /** Always bull, base, bear in that order. */
  readonly scenarios: readonly SimulationScenario[];
  /** One per year of the horizon, year 1 first. */
  readonly bands: readonly YearBand[];
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
  readonly method: SimulationMethod;
  readonly risk: SimulationRisk;
  readonly inflationRate: number | null;
  readonly periodicContributionUsd: number;
}

export const SIMULATION_DEFAULTS = { stepsPerYear: 12, paths: 10_000, principalUsd: 10_000 } as const;
export const SIMULATION_LIMITS = {
  maxPaths: 100_000,
  maxHorizonYears: 50,
  maxStepsPerYear: 365,
  maxAssets: 50,
} as const;
export const WEIGHT_SUM_TOLERANCE = 0.0001;
/** Expected shortfall is the mean of this worst share of terminal values. */
export const EXPECTED_SHORTFALL_LEVEL = 0.05;

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

  const method = input.method ?? 'parametric';
  const history = estimateAnnualMoments(input.dailyLogReturns);
  const drift = input.annualLogDrift ? [...input.annualLogDrift] : history.drift;
  const historicalVolatility = history.covariance.map((row, i) => Math.sqrt(row[i]));
  const volatility = input.annualVolatility ? [...input.annualVolatility] : historicalVolatility;
  // Scale factor per asset from the history's volatility to the assumed one; correlations stay.
  const scale = volatility.map((sigma, i) =>
    historicalVolatility[i] > 0 ? sigma / historicalVolatility[i] : 0,
  );
  const covariance = history.covariance.map((row, i) => row.map((v, j) => v * scale[i] * scale[j]));
  const stepDrift = drift.map((annual) => annual / stepsPerYear);
  const random = new SeededRandom(input.seed);
  let jitter = 0;
  let sampler: StepSampler;
  if (method === 'bootstrap') {
    sampler = new BlockBootstrapSampler(
      input.dailyLogReturns,
      history.drift,
      drift,
      scale,
      stepsPerYear,
      random,
    );
  } else {
    const factor = factorCovariance(covariance.map((row) => row.map((v) => v / stepsPerYear)));
    jitter = factor.jitter;
    sampler = new CorrelatedNormalSampler(stepDrift, factor.lower, random);
  }

  const steps = horizonYears * stepsPerYear;
  const { terminal, maxDrawdown, yearEnds } = simulatePaths(
    sampler,
    method === 'parametric',
    stepDrift,
    weights,
    {
      principalUsd,
      steps,
      paths,
      contributionUsd: input.periodicContributionUsd ?? 0,
      stepsPerYear,
    },
  );
  // In today's dollars: every terminal value divided by the inflation over the horizon.
  const inflationRate = input.inflationRate ?? null;
  if (inflationRate !== null) {
    const deflator = Math.pow(1 + inflationRate, horizonYears);
    for (let k = 0; k < terminal.length; k++) terminal[k] /= deflator;
  }
  // The figures read a few ranks of each sample, not its order: they are put in place by
  // selection (what sort() would put there) instead of sorting all paths.
  const worst = Math.max(1, Math.floor(paths * EXPECTED_SHORTFALL_LEVEL));
  selectRanks(terminal, [
    worst - 1,
    ...percentileRanks(
      paths,
      SCENARIO_PERCENTILES.map((s) => s.percentile),
    ),
  ]);
  const bands = yearBands(yearEnds, horizonYears, paths, inflationRate);
  selectRanks(maxDrawdown, percentileRanks(paths, DRAWDOWN_PERCENTILES));

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
    bands,
    principalUsd,
    horizonYears,
    stepsPerYear,
    paths,
    seed: input.seed,
    model: {
      symbols: input.assets.map((asset) => asset.symbol),
      annualDrift: drift,
      annualVolatility: volatility,
      jitter: jitter * stepsPerYear,
    },
    method,
    risk: riskFigures(terminal, maxDrawdown, principalUsd),
    inflationRate,
    periodicContributionUsd: input.periodicContributionUsd ?? 0,
  };
}

/**
 * From the terminal values and maximum drawdowns of all paths, each with the ranks its figures
 * read in place (selectRanks): the terminal values' worst share and percentiles, the drawdowns'
 * DRAWDOWN_PERCENTILES.
 */
function riskFigures(
  terminal: Float64Array,
  maxDrawdown: Float64Array,
  principalUsd: number,
): SimulationRisk {
  let below = 0;
  for (let k = 0; k < terminal.length; k++) if (terminal[k] < principalUsd) below++;
  const worst = Math.max(1, Math.floor(terminal.length * EXPECTED_SHORTFALL_LEVEL));
  // The worst share is in front (rank worst − 1 selected); summed in ascending order, as before.
  const worstValues = terminal.slice(0, worst).sort();
  let sum = 0;
  for (let k = 0; k < worst; k++) sum += worstValues[k];
  return {
    probabilityBelowPrincipal: below / terminal.length,
    maxDrawdownMedian: percentile(maxDrawdown, DRAWDOWN_PERCENTILES[0]),
    maxDrawdownP90: percentile(maxDrawdown, DRAWDOWN_PERCENTILES[1]),
    expectedShortfall5Usd: roundUsdToCents(new Decimal(sum / worst)).toFixed(2),
  };
}

/** Draws a whole path's step log returns: out[s·n + i] is asset i's log return in step s. */
export interface StepSampler {
  fillSteps(out: Float64Array, steps: number): void;
}

/**
 * Terminal value and maximum drawdown per path, rebalanced to `weights` at the start of every
 * step: value ← value × Σᵢ wᵢ·exp(rᵢ) (+ the contribution at the step's end, never below 0),
 * r one step of the sampler's path.
 *
 * Parametric paths come in antithetic pairs: a draw r = μΔ + L·z drives one path and its mirror
 * 2μΔ − r = μΔ − L·z drives the next, so each normal serves two paths. That halves the work of
 * the random-number generator (most of the run time) and reduces the sampling error of the
 * percentiles; each path on its own still has exactly the model's distribution. With an odd
 * count the last path has no twin. The random stream is consumed pair by pair, step by step,
 * asset by asset. Bootstrap paths have no twin: the mirror of a resampled month is not a month
 * the history could give (skew).
 *
 * The drawdown is measured on the portfolio's return index (the value without contributions or
 * withdrawals), at step ends: the largest fall from a running peak, 1 − index / peak.
 */
function simulatePaths(
  sampler: StepSampler,
  antithetic: boolean,
  stepDrift: readonly number[],
  weights: Float64Array,
  run: { principalUsd: number; steps: number; paths: number; contributionUsd: number; stepsPerYear: number },
): { terminal: Float64Array; maxDrawdown: Float64Array; yearEnds: Float64Array } {
  const { principalUsd, steps, paths, contributionUsd, stepsPerYear } = run;
  // Every path's value at the end of each year: yearEnds[year · paths + path] (year 0 = the first).
  const yearEnds = new Float64Array((steps / stepsPerYear) * paths);
  const assetCount = weights.length;
  const twiceDrift = Float64Array.from(stepDrift, (drift) => 2 * drift);
  // One path's (or pair's) draws for every step at once (steps × assets): the normals come from
  // the generator in one bulk call, in the order of `steps` single draws, so a seed gives the
  // same figures as drawing step by step.
  const draws = new Float64Array(steps * assetCount);
  const terminal = new Float64Array(paths);
  const maxDrawdown = new Float64Array(paths);
  const stride = antithetic ? 2 : 1;
  for (let path = 0; path < paths; path += stride) {
    const hasTwin = antithetic && path + 1 < paths;
    sampler.fillSteps(draws, steps);
    let value = principalUsd;
    let twinValue = principalUsd;
    let index = 1;
    let peak = 1;
    let drawdown = 0;
    let twinIndex = 1;
    let twinPeak = 1;
    let twinDrawdown = 0;
    let step = 0;
    for (let base = 0; base < draws.length; base += assetCount) {
      let growth = 0;
      let twinGrowth = 0;
      for (let i = 0; i < assetCount; i++) {
        const logReturn = draws[base + i];
        growth += weights[i] * Math.exp(logReturn);
        if (antithetic) twinGrowth += weights[i] * Math.exp(twiceDrift[i] - logReturn);
      }
      value *= growth;
      index *= growth;
      if (index > peak) peak = index;
      else if (1 - index / peak > drawdown) drawdown = 1 - index / peak;
      if (antithetic) {
        twinValue *= twinGrowth;
        twinIndex *= twinGrowth;
        if (twinIndex > twinPeak) twinPeak = twinIndex;
        else if (1 - twinIndex / twinPeak > twinDrawdown) twinDrawdown = 1 - twinIndex / twinPeak;
      }
      if (contributionUsd !== 0) {
        value = Math.max(0, value + contributionUsd);
        twinValue = Math.max(0, twinValue + contributionUsd);
      }
      step++;
      if (step % stepsPerYear === 0) {
        const at = (step / stepsPerYear - 1) * paths + path;
        yearEnds[at] = value;
        if (hasTwin) yearEnds[at + 1] = twinValue;
      }
    }
    terminal[path] = value;
    maxDrawdown[path] = drawdown;
    if (hasTwin) {
      terminal[path + 1] = twinValue;
      maxDrawdown[path + 1] = twinDrawdown;
    }
  }
  return { terminal, maxDrawdown, yearEnds };
}

/** Percentiles of each year's values over paths (deflated to today's dollars when inflation is given). */
function yearBands(
  yearEnds: Float64Array,
  horizonYears: number,
  paths: number,
  inflationRate: number | null,
): YearBand[] {
  const cents = (value: number) => roundUsdToCents(new Decimal(value)).toFixed(2);
  const bands: YearBand[] = [];
  for (let year = 1; year <= horizonYears; year++) {
    const values = yearEnds.slice((year - 1) * paths, year * paths);
    if (inflationRate !== null) {
      const deflator = Math.pow(1 + inflationRate, year);
      for (let k = 0; k < values.length; k++) values[k] /= deflator;
    }
    selectRanks(values, percentileRanks(paths, BAND_PERCENTILES));
    bands.push({
      year,
      p10: cents(percentile(values, 0.1)),
      p25: cents(percentile(values, 0.25)),
      p50: cents(percentile(values, 0.5)),
      p75: cents(percentile(values, 0.75)),
      p90: cents(percentile(values, 0.9)),
    });
  }
  return bands;
}

/**
 * Block bootstrap of the stored daily log returns (docs/simulation.md "Bootstrap"): each step is
 * one block of consecutive history days, as many as the step has calendar days
 * (⌊365·(s+1)/k⌋ − ⌊365·s/k⌋ for step s of a year of k steps: 30 or 31 for months, 365 a year),
 * starting on a uniformly drawn day and wrapping around the end of the history. The block is
 * taken from every asset at once, so a month keeps the assets' co-movement, fat tails and any
 * autocorrelation within it. Each day's return is re-centred: its deviation from the asset's
 * historical mean, scaled to the assumed volatility, plus the assumed mean μ/365; over a whole
 * circle of start days the deviations sum to 0, so the expected drift is exactly the assumed one.
 * Block sums come from prefix sums, so a step costs one uniform draw and one subtraction per asset.
 */
export class BlockBootstrapSampler implements StepSampler {
  private readonly assetCount: number;
  private readonly days: number;
  /** Asset-major prefix sums of the scaled deviations, the history repeated (wrapped). */
  private readonly prefix: Float64Array;
  private readonly span: number;
  private readonly stepDays: Int32Array;
  private readonly stepMean: Float64Array;

  constructor(
    dailyLogReturns: readonly ArrayLike<number>[],
    historicalAnnualDrift: readonly number[],
    assumedAnnualDrift: readonly number[],
    volatilityScale: readonly number[],
    stepsPerYear: number,
    private readonly random: SeededRandom,
  ) {
    this.assetCount = dailyLogReturns.length;
    this.days = dailyLogReturns[0].length;
    this.stepDays = Int32Array.from(
      { length: stepsPerYear },
      (_, s) =>
        Math.floor((DAYS_PER_YEAR * (s + 1)) / stepsPerYear) - Math.floor((DAYS_PER_YEAR * s) / stepsPerYear),
    );
    const maxBlock = Math.max(...this.stepDays);
    // Prefix sums over days 0 .. days + maxBlock: a block starting on the last day still fits.
    this.span = this.days + maxBlock + 1;
    this.prefix = new Float64Array(this.assetCount * this.span);
    this.stepMean = new Float64Array(this.assetCount * stepsPerYear);
    for (let i = 0; i < this.assetCount; i++) {
      const series = dailyLogReturns[i];
      const dailyMean = historicalAnnualDrift[i] / DAYS_PER_YEAR;
      const offset = i * this.span;
      for (let t = 1; t < this.span; t++) {
        const deviation = (series[(t - 1) % this.days] - dailyMean) * volatilityScale[i];
        this.prefix[offset + t] = this.prefix[offset + t - 1] + deviation;
      }
      for (let s = 0; s < stepsPerYear; s++) {
        this.stepMean[i * stepsPerYear + s] = (assumedAnnualDrift[i] * this.stepDays[s]) / DAYS_PER_YEAR;
      }
    }
  }

  fillSteps(out: Float64Array, steps: number): void {
    const n = this.assetCount;
    const perYear = this.stepDays.length;
    const prefix = this.prefix;
    const span = this.span;
    for (let s = 0; s < steps; s++) {
      const inYear = s % perYear;
      const length = this.stepDays[inYear];
      const start = this.random.int(0, this.days - 1);
      for (let i = 0; i < n; i++) {
        const offset = i * span;
        // The prefix runs over the history repeated, so a block wraps without a branch.
        const sum = prefix[offset + start + length] - prefix[offset + start];
        out[s * n + i] = sum + this.stepMean[i * perYear + inYear];
      }
    }
  }
}

/** The percentiles a year's band reads, and the drawdown's median and 90th. */
const BAND_PERCENTILES = [0.1, 0.25, 0.5, 0.75, 0.9];
const DRAWDOWN_PERCENTILES = [0.5, 0.9];

/** The 0-based ranks percentile() reads in a sample of n for each p: ⌊h⌋ and ⌈h⌉, h = (n − 1)·p. */
export function percentileRanks(n: number, ps: readonly number[]): number[] {
  const ranks: number[] = [];
  for (const p of ps) {
    const below = Math.floor((n - 1) * p);
    ranks.push(below, Math.min(below + 1, n - 1));
  }
  return ranks;
}

/**
 * Puts in place, for each rank r given, the value sort() would put at values[r] (ascending, NaN
 * last), with every value before it ≤ it and every value after it ≥ it: what percentile() and a
 * sum of the smallest values read, at the cost of a few linear passes instead of a sort (quickselect,
 * Hoare partitions around a median of three, one rank after another on what is right of the last).
 * The order within the parts is left unspecified. A −0 and a +0 count as equal here (sort() puts −0
 * first); the difference of two zeros is +0 either way, so no percentile changes.
 */
export function selectRanks(values: Float64Array, ranks: readonly number[]): void {
  // NaN at the end, as sort() leaves them; the rest is selected with plain comparisons.
  let end = values.length;
  for (let k = 0; k < end; k++) {
    if (values[k] !== values[k]) {
      end--;
      const last = values[end];
      values[end] = values[k];
      values[k] = last;
      k--;
    }
  }
  const wanted = [...new Set(ranks)].sort((a, b) => a - b);
  let lo = 0;
  for (const rank of wanted) {
    if (rank >= end) break;
    quickselect(values, lo, end - 1, rank);
    lo = rank + 1;
  }
}

function quickselect(a: Float64Array, lo: number, hi: number, k: number): void {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const x = a[lo];
    const y = a[mid];
    const z = a[hi];
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const swap = a[i];
        a[i] = a[j];
        a[j] = swap;
        i++;
        j--;
      }
    }
    // Now a[lo..j] ≤ pivot ≤ a[i..hi], and whatever lies between equals the pivot.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

/**
 * Percentile by linear interpolation between closest ranks (Hyndman–Fan type 7, as
 * numpy's default and Excel's PERCENTILE.INC): h = (n − 1)·p, then interpolate between
 * the values at ⌊h⌋ and ⌈h⌉ (0-based) of the ascending sample (or of one whose those two ranks
 * are in place: selectRanks with percentileRanks).
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
  if (input.method !== undefined && !SIMULATION_METHODS.includes(input.method))
    throw invalidInput(`method must be one of ${SIMULATION_METHODS.join(', ')}`);
  for (const [name, values] of [
    ['annualLogDrift', input.annualLogDrift],
    ['annualVolatility', input.annualVolatility],
  ] as const) {
    if (values === undefined) continue;
    if (values.length !== assets.length) throw invalidInput(`${name} must have one value per asset`);
    if (!values.every((v) => Number.isFinite(v) && (name === 'annualLogDrift' || v >= 0)))
      throw invalidInput(`${name} must hold finite values${name === 'annualVolatility' ? ' ≥ 0' : ''}`);
  }
  if (
    input.inflationRate !== undefined &&
    !(Number.isFinite(input.inflationRate) && input.inflationRate > -1)
  )
    throw invalidInput('inflationRate must be a finite fraction above −1');
  if (input.periodicContributionUsd !== undefined && !Number.isFinite(input.periodicContributionUsd))
    throw invalidInput('periodicContributionUsd must be finite');

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
