/**
 * Return assumptions per asset (design §9 "Projections an advisor can defend",
 * docs/simulation.md §1 "Return assumptions").
 *
 * Owns: the default expected return of an asset — its historical mean log return shrunk by its
 * own standard error toward a conservative prior — its volatility from history, applying a
 * tenant's capital-market assumptions over them, and the disclosure text every projection
 * carries. Never: loads history or overrides (the caller passes them).
 *
 * Expected return here is always the expected *compound* (geometric) annual return
 * g = e^μ − 1 of the asset alone, μ its annual mean log return: the growth rate of its median
 * outcome, the quantity the simulation's drift and the ROI projection's CAGR are. An arithmetic
 * mean return would be higher by about σ²/2.
 */
import { estimateAnnualDriftAndVariance } from './annual-moments.js';
import { invalidInput } from './simulation-error.js';

/**
 * The conservative prior: a risky asset's median growth equals the risk-free rate (no risk
 * premium is taken for granted), give or take 5 % a year (τ, one standard deviation, in log
 * terms). 4 % is about the yield of US Treasury bills and the 10-year note in 2024–2026.
 */
export const CONSERVATIVE_PRIOR = {
  name: 'risk-free rate (US Treasury bills, nominal)',
  expectedReturn: 0.04,
  uncertainty: 0.05,
} as const;

/** Tenant overrides are held to these bounds (fractions a year). */
export const ASSUMPTION_LIMITS = {
  minExpectedReturn: -0.5,
  maxExpectedReturn: 1,
  maxVolatility: 3,
} as const;

export type AssumptionSource = 'history_shrunk' | 'tenant';

export interface AssetAssumption {
  readonly symbol: string;
  /** Expected compound annual return e^μ − 1, a fraction. */
  readonly expectedReturn: number;
  /** Annual volatility of log returns, a fraction. */
  readonly volatility: number;
  readonly source: AssumptionSource;
  /** The μ the simulation uses: ln(1 + expectedReturn). */
  readonly annualLogDrift: number;
  /** Of the historical estimate (also shown for a tenant override, for comparison). */
  readonly historicalExpectedReturn: number;
  readonly historicalVolatility: number;
  /** Standard error of the annualised historical mean log return: σ / √years. */
  readonly standardError: number;
  /** Weight w of the historical mean in the default: τ² / (τ² + SE²). */
  readonly weightOnHistory: number;
}

export interface Shrinkage {
  /** Posterior mean log return per year. */
  readonly logDrift: number;
  readonly standardError: number;
  readonly weightOnHistory: number;
}

/**
 * The default expected log return: the historical mean μ̂ shrunk toward the prior μ₀ by the
 * precision weights of a normal prior N(μ₀, τ²) and a normal likelihood N(μ̂, SE²):
 *
 *   SE = σ̂ / √years,   w = τ² / (τ² + SE²),   μ = μ₀ + w · (μ̂ − μ₀)
 *
 * with μ₀ = ln(1 + prior return). Seven years of a 70 %-volatility asset give SE ≈ 26 % a year,
 * so w ≈ 3 %: the history barely moves the prior, as its evidence is that weak.
 */
export function shrinkTowardPrior(params: {
  readonly historicalLogMean: number;
  readonly annualVolatility: number;
  readonly years: number;
  readonly priorExpectedReturn?: number;
  readonly priorUncertainty?: number;
}): Shrinkage {
  const priorReturn = params.priorExpectedReturn ?? CONSERVATIVE_PRIOR.expectedReturn;
  const tau = params.priorUncertainty ?? CONSERVATIVE_PRIOR.uncertainty;
  const { historicalLogMean, annualVolatility, years } = params;
  if (!Number.isFinite(historicalLogMean)) throw invalidInput('historicalLogMean must be finite');
  if (!(Number.isFinite(annualVolatility) && annualVolatility >= 0))
    throw invalidInput('annualVolatility must be ≥ 0');
  if (!(Number.isFinite(years) && years > 0)) throw invalidInput('years must be positive');
  if (!(priorReturn > -1) || !(tau > 0))
    throw invalidInput('The prior must have a return above −1 and τ > 0');
  const priorLog = Math.log1p(priorReturn);
  const standardError = annualVolatility / Math.sqrt(years);
  const weightOnHistory = (tau * tau) / (tau * tau + standardError * standardError);
  return {
    logDrift: priorLog + weightOnHistory * (historicalLogMean - priorLog),
    standardError,
    weightOnHistory,
  };
}

export interface AssumptionOverride {
  /** Expected compound annual return, a fraction. */
  readonly expectedReturn: number;
  /** Annual volatility; absent: the history's. */
  readonly volatility?: number | null;
}

/**
 * Assumptions per asset in the order of `symbols`: the tenant's override where there is one,
 * else the shrunk default. Volatilities come from the history unless overridden; correlations
 * always do (the simulation takes them from the same daily returns).
 */
export function resolveAssumptions(
  symbols: readonly string[],
  dailyLogReturns: readonly ArrayLike<number>[],
  overrides: ReadonlyMap<string, AssumptionOverride> = new Map(),
  daysPerYear = 365,
): AssetAssumption[] {
  const { drift, variance } = estimateAnnualDriftAndVariance(dailyLogReturns, daysPerYear);
  const years = dailyLogReturns[0].length / daysPerYear;
  return symbols.map((symbol, i) => {
    const historicalVolatility = Math.sqrt(variance[i]);
    const shrunk = shrinkTowardPrior({
      historicalLogMean: drift[i],
      annualVolatility: historicalVolatility,
      years,
    });
    const common = {
      symbol,
      historicalExpectedReturn: Math.expm1(drift[i]),
      historicalVolatility,
      standardError: shrunk.standardError,
      weightOnHistory: shrunk.weightOnHistory,
    };
    const override = overrides.get(symbol);
    if (override) {
      return {
        ...common,
        expectedReturn: override.expectedReturn,
        volatility: override.volatility ?? historicalVolatility,
        source: 'tenant' as const,
        annualLogDrift: Math.log1p(override.expectedReturn),
      };
    }
    return {
      ...common,
      expectedReturn: Math.expm1(shrunk.logDrift),
      volatility: historicalVolatility,
      source: 'history_shrunk' as const,
      annualLogDrift: shrunk.logDrift,
    };
  });
}

/** Every projection answer carries this (design §9: hypothetical, on stated assumptions). */
export const PROJECTION_DISCLOSURE =
  'Hypothetical projection for illustration only, not a promise or a prediction of future results. ' +
  'It rests on the stated assumptions: per asset, an expected compound annual return (by default the ' +
  'historical mean shrunk toward a conservative prior, the risk-free rate, by its own statistical ' +
  'uncertainty, unless your firm set its own capital-market assumptions) and a volatility, with ' +
  'correlations from stored daily history. Crypto-assets are highly volatile, can lose most or all of ' +
  'their value, and their short history is a weak guide to the future. Scenarios are percentiles of ' +
  'simulated outcomes, not best or worst cases; results before fees, taxes and trading costs.';
