/**
 * /qsim/simulate (design §9, docs/simulation.md): validates what the DTO cannot (symbols known,
 * unique, weights summing to 1, assets × years within the work budget), and in one of the
 * instance's simulation slots (SimulationPool: per-client and per-instance caps) loads aligned
 * history and runs the pure Monte Carlo simulator in a worker thread with a seed (the caller's,
 * or one chosen here and returned so the run can be repeated).
 */
import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { DomainError, ErrorCode, type FieldErrors } from '../../common/errors/domain-error.js';
import {
  SIMULATION_DEFAULTS,
  WEIGHT_SUM_TOLERANCE,
  type ScenarioName,
  type SimulationMethod,
  type SimulationRisk,
  type SimulationScenario,
  type YearBand,
} from '../../domain/simulation/monte-carlo.js';
import type { AssetAssumption } from '../../domain/simulation/return-assumptions.js';
import { SimulationError, SimulationErrorCode } from '../../domain/simulation/simulation-error.js';
import { AppConfig } from '../../config/app-config.js';
import { MarketHistoryService } from './market-history.service.js';
import { ReturnAssumptionsService } from './return-assumptions.service.js';
import { SimulationPool } from './simulation-pool.js';

export interface SimulationRequest {
  /** Who asks: simulations are capped per client. */
  readonly clientId: string;
  /** Whose capital-market assumptions apply. */
  readonly tenantId: string;
  readonly portfolio: readonly { readonly symbol: string; readonly weight: number }[];
  readonly horizonYears: number;
  readonly scenarios: readonly ScenarioName[];
  readonly principalUsd?: number;
  readonly seed?: number | string;
  readonly method?: SimulationMethod;
  /** Annual, fraction; results in today's dollars when given. */
  readonly inflationRate?: number;
  /** Per month, nominal USD; negative: a withdrawal. */
  readonly monthlyContributionUsd?: number;
}

export interface SimulationOutcome {
  /** In the order requested. */
  readonly scenarios: readonly SimulationScenario[];
  /** Percentiles of value at each year's end (the client statement's fan chart). */
  readonly bands: readonly YearBand[];
  readonly seed: number | string;
  readonly principalUsd: number;
  readonly horizonYears: number;
  readonly paths: number;
  readonly stepsPerYear: number;
  readonly historyFrom: string;
  readonly historyTo: string;
  readonly historyDays: number;
  readonly method: SimulationMethod;
  readonly risk: SimulationRisk;
  readonly assumptions: readonly AssetAssumption[];
  readonly inflationRate: number | null;
  readonly monthlyContributionUsd: number;
}

@Injectable()
export class SimulationService {
  constructor(
    private readonly history: MarketHistoryService,
    private readonly pool: SimulationPool,
    private readonly config: AppConfig,
    private readonly assumptions: ReturnAssumptionsService,
  ) {}

  async simulate(request: SimulationRequest): Promise<SimulationOutcome> {
    const symbols = request.portfolio.map((entry) => entry.symbol.toUpperCase());
    const known = await this.history.knownSymbols();
    const errors: FieldErrors = {};
    symbols.forEach((symbol, i) => {
      if (symbols.indexOf(symbol) !== i)
        errors[`portfolio.${i}.symbol`] = [`${symbol} appears more than once.`];
      else if (!known.has(symbol)) errors[`portfolio.${i}.symbol`] = [`${symbol} is not a known asset.`];
    });
    const maxYears = Math.floor(this.config.SIMULATION_MAX_ASSET_YEARS / symbols.length);
    if (request.horizonYears > maxYears) {
      errors.horizon_years = [
        `With ${symbols.length} assets, horizon_years may be at most ${maxYears}: assets × horizon_years must not exceed ${this.config.SIMULATION_MAX_ASSET_YEARS} (${SIMULATION_DEFAULTS.paths.toLocaleString('en-US')} paths × ${SIMULATION_DEFAULTS.stepsPerYear} steps a year each).`,
      ];
    }
    if (Object.keys(errors).length > 0) {
      throw new DomainError(ErrorCode.ValidationFailed, 'One or more validation errors occurred.', errors);
    }
    const weightSum = request.portfolio.reduce((sum, entry) => sum + entry.weight, 0);
    if (Math.abs(weightSum - 1) > WEIGHT_SUM_TOLERANCE) {
      throw DomainError.validation(
        'portfolio',
        `The weights must sum to 1 (± ${WEIGHT_SUM_TOLERANCE}); they sum to ${Math.round(weightSum * 1e8) / 1e8}.`,
      );
    }

    return this.pool.admit(request.clientId, () => this.run(request, symbols));
  }

  private async run(request: SimulationRequest, symbols: string[]): Promise<SimulationOutcome> {
    const aligned = await this.history.alignedDailyLogReturns(symbols);
    const assumptions = await this.assumptions.forProjection(
      request.tenantId,
      symbols,
      aligned.dailyLogReturns,
    );
    // The caller's seed repeats a run exactly; without one, a fresh seed is chosen and returned.
    const seed = request.seed ?? randomInt(0, 2 ** 31 - 1);
    let result;
    try {
      result = await this.pool.run({
        assets: symbols.map((symbol, i) => ({ symbol, weight: request.portfolio[i].weight })),
        // Copies moved to the worker thread (SimulationPool.run) instead of cloned there.
        dailyLogReturns: aligned.dailyLogReturns.map((series) => Float64Array.from(series)),
        horizonYears: request.horizonYears,
        seed,
        principalUsd: request.principalUsd ?? SIMULATION_DEFAULTS.principalUsd,
        method: request.method ?? 'parametric',
        annualLogDrift: assumptions.map((a) => a.annualLogDrift),
        annualVolatility: assumptions.map((a) => a.volatility),
        inflationRate: request.inflationRate,
        periodicContributionUsd: request.monthlyContributionUsd,
      });
    } catch (error) {
      throw error instanceof SimulationError ? domainErrorFrom(error) : error;
    }
    return {
      scenarios: request.scenarios.map((name) =>
        result.scenarios.find((scenario) => scenario.name === name)!,
      ),
      bands: result.bands,
      seed,
      principalUsd: result.principalUsd,
      horizonYears: result.horizonYears,
      paths: result.paths,
      stepsPerYear: result.stepsPerYear,
      historyFrom: aligned.from,
      historyTo: aligned.to,
      historyDays: aligned.dailyLogReturns[0].length,
      method: result.method,
      risk: result.risk,
      assumptions,
      inflationRate: result.inflationRate,
      monthlyContributionUsd: result.periodicContributionUsd,
    };
  }
}

/** The DTO and the checks above catch invalid input first; what remains is about the history. */
export function domainErrorFrom(error: SimulationError): DomainError {
  if (error.code === SimulationErrorCode.InvalidInput) {
    return new DomainError(ErrorCode.ValidationFailed, 'One or more validation errors occurred.', {
      body: [error.message],
    });
  }
  return new DomainError(
    ErrorCode.Unprocessable,
    error.code === SimulationErrorCode.InsufficientHistory
      ? `Not enough stored history: ${error.message}.`
      : `The assets' return history cannot be simulated: ${error.message}.`,
    undefined,
    error.code === SimulationErrorCode.InsufficientHistory ? 'insufficient_history' : 'degenerate_history',
  );
}
