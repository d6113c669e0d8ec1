import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiParam,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { CurrentClient, Scopes } from '../../common/decorators/auth.decorators.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { formatPercent, formatSignedPercent, formatUsd } from '../../domain/money/format.js';
import {
  CONSERVATIVE_PRIOR,
  PROJECTION_DISCLOSURE,
  type AssetAssumption,
} from '../../domain/simulation/return-assumptions.js';
import { DomainError } from '../../common/errors/domain-error.js';
import type { StoredAssumption } from './capital-market-assumptions.repository.js';
import {
  CapitalMarketAssumptionDto,
  CapitalMarketAssumptionsDto,
  PutAssumptionDto,
  type AssetAssumptionDto,
} from './dto/assumptions.dto.js';
import { RoiProjectionDto, RoiQueryDto } from './dto/roi.dto.js';
import { SimulateRequestDto, SimulationResultDto } from './dto/simulate.dto.js';
import { ReturnAssumptionsService } from './return-assumptions.service.js';
import { RoiService } from './roi.service.js';
import { SimulationService } from './simulation.service.js';

/** The stated rebalancing policy (docs/simulation.md "Model"). */
const REBALANCING = 'Rebalanced to the target weights at the start of every month, without costs.';

const SYMBOL_PATTERN = /^[A-Za-z0-9]{1,20}$/;

function toAssumptionDto(assumption: AssetAssumption): AssetAssumptionDto {
  return {
    symbol: assumption.symbol,
    expected_return: formatPercent(assumption.expectedReturn),
    volatility: formatPercent(assumption.volatility),
    source: assumption.source,
    historical_return: formatPercent(assumption.historicalExpectedReturn),
    standard_error: formatPercent(assumption.standardError),
    weight_on_history: formatPercent(assumption.weightOnHistory),
  };
}

function toStoredDto(stored: StoredAssumption): CapitalMarketAssumptionDto {
  return {
    symbol: stored.symbol,
    expected_return: Number(stored.expectedReturn),
    volatility: stored.volatility === null ? null : Number(stored.volatility),
    note: stored.note,
    updated_at: stored.updatedAt.toISOString(),
  };
}

const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', example: 5 } },
};

@ApiTags('Simulation')
@Scopes('partner')
@Controller('qsim')
export class SimulationController {
  constructor(private readonly simulations: SimulationService) {}

  @Post('simulate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Bull, base and bear projections of a portfolio (Monte Carlo)',
    description:
      '10,000 paths of monthly returns, rebalanced monthly to the target weights; bull/base/bear are the 90th/50th/10th percentiles of terminal value. Expected returns come from the return assumptions (your firm’s capital-market assumptions, PUT /qsim/assumptions/{symbol}, else the historical mean shrunk toward the risk-free rate by its standard error); volatilities and correlations from the stored daily history (up to ten years). method parametric (correlated log-normal) or bootstrap (blocks of a month of stored daily returns, re-centred on the assumed means); optional inflation_rate (today’s dollars) and monthly_contribution_usd. Every answer adds risk figures, the assumptions used and a disclosure. The same seed with the same inputs and stored history gives the same answer. Work budget: assets × horizon_years at most 600 by default (SIMULATION_MAX_ASSET_YEARS). Simulations run in a worker pool, a few at once per client and per instance. Model and limits: docs/simulation.md.',
  })
  @ApiOkResponse({ type: SimulationResultDto })
  @ApiBadRequestResponse({
    description:
      'A malformed field (named): empty or unknown or repeated symbols, weights outside 0-1 or not summing to 1 ± 0.0001, horizon_years not an integer 1-50 or assets × horizon_years beyond the work budget (600 by default), scenarios empty, repeated or not bull/base/bear, principal_usd ≤ 0, a bad seed, method, inflation_rate or monthly_contribution_usd.',
  })
  @ApiTooManyRequestsResponse({
    description:
      'This client already runs as many simulations as it may at once (SIMULATION_PER_CLIENT, default 2), `reason` too_many_simulations; or the client rate limit. Retry-After says when to retry.',
    headers: RETRY_AFTER,
  })
  @ApiServiceUnavailableResponse({
    description:
      'Every simulation worker of this instance is busy and its queue is full, `reason` simulations_busy. Retry-After says when to retry.',
    headers: RETRY_AFTER,
  })
  @ApiUnprocessableEntityResponse({
    description: 'Not enough overlapping stored history to estimate the model (`reason`).',
  })
  async simulate(
    @Body() body: SimulateRequestDto,
    @CurrentClient() client: AuthenticatedClient,
  ): Promise<SimulationResultDto> {
    const outcome = await this.simulations.simulate({
      clientId: client.clientId,
      tenantId: client.tenantId,
      method: body.method,
      inflationRate: body.inflation_rate,
      monthlyContributionUsd: body.monthly_contribution_usd,
      portfolio: body.portfolio,
      horizonYears: body.horizon_years,
      scenarios: body.scenarios,
      principalUsd: body.principal_usd,
      seed: body.seed,
    });
    return {
      scenarios: outcome.scenarios.map((scenario) => ({
        name: scenario.name,
        cagr: formatPercent(scenario.cagr),
        terminal_usd: formatUsd(scenario.terminalUsd),
      })),
      seed: outcome.seed,
      principal_usd: outcome.principalUsd,
      horizon_years: outcome.horizonYears,
      paths: outcome.paths,
      steps_per_year: outcome.stepsPerYear,
      history_from: outcome.historyFrom,
      history_to: outcome.historyTo,
      history_days: outcome.historyDays,
      method: outcome.method,
      rebalancing: REBALANCING,
      risk: {
        probability_below_principal: formatPercent(outcome.risk.probabilityBelowPrincipal),
        max_drawdown_median: formatPercent(outcome.risk.maxDrawdownMedian),
        max_drawdown_p90: formatPercent(outcome.risk.maxDrawdownP90),
        expected_shortfall_5_usd: formatUsd(outcome.risk.expectedShortfall5Usd),
      },
      assumptions: outcome.assumptions.map(toAssumptionDto),
      inflation_rate: outcome.inflationRate === null ? null : formatPercent(outcome.inflationRate),
      monthly_contribution_usd: outcome.monthlyContributionUsd,
      disclosure: PROJECTION_DISCLOSURE,
    };
  }
}

@ApiTags('ROI')
@Scopes('partner')
@Controller('roi')
export class RoiController {
  constructor(private readonly roi: RoiService) {}

  @Get('projection')
  @ApiOperation({
    summary: 'ROI projection of a principal over a horizon',
    description:
      'Compounds the principal at the asset’s expected compound annual return (BTC unless `symbol` is given) from its return assumption — your firm’s capital-market assumption, else the historical mean of the stored daily history (up to ten years) shrunk toward the risk-free rate by its standard error — and compares it with the configured benchmark (ROI_BENCHMARK_CAGR, default 10 %: US large-cap equities). The answer states the assumption and a disclosure.',
  })
  @ApiOkResponse({ type: RoiProjectionDto })
  @ApiBadRequestResponse({
    description:
      'principal_usd missing or not > 0, horizon_years not an integer 1-50, or an unknown symbol (named in errors).',
  })
  @ApiUnprocessableEntityResponse({ description: 'Not enough stored history for the asset (`reason`).' })
  async projection(
    @Query() query: RoiQueryDto,
    @CurrentClient() client: AuthenticatedClient,
  ): Promise<RoiProjectionDto> {
    const outcome = await this.roi.project({
      tenantId: client.tenantId,
      principalUsd: query.principal_usd,
      horizonYears: query.horizon_years,
      symbol: query.symbol,
    });
    return {
      principal_usd: Number(outcome.principalUsd),
      horizon_years: outcome.horizonYears,
      terminal_usd: formatUsd(outcome.terminalUsd),
      cagr: formatPercent(outcome.cagr),
      benchmark_diff: formatSignedPercent(outcome.benchmarkDiff),
      benchmark_cagr: formatPercent(outcome.benchmarkCagr),
      symbol: outcome.symbol,
      history_from: outcome.historyFrom,
      history_to: outcome.historyTo,
      assumptions: [toAssumptionDto(outcome.assumption)],
      disclosure: PROJECTION_DISCLOSURE,
    };
  }
}

const SYMBOL_PARAM = {
  name: 'symbol',
  description: 'Asset ticker with stored history (case-insensitive).',
  example: 'BTC',
};

@ApiTags('Simulation')
@Scopes('partner')
@Controller('qsim/assumptions')
export class AssumptionsController {
  constructor(private readonly assumptions: ReturnAssumptionsService) {}

  @Get()
  @ApiOperation({
    summary: 'Your capital-market assumptions, and the default for every other asset',
    description:
      'The expected compound annual returns (and volatilities) your firm set per asset; /qsim/simulate and /roi/projection use them for your tenant. Every other asset gets the default described in `default` (docs/simulation.md §1).',
  })
  @ApiOkResponse({ type: CapitalMarketAssumptionsDto })
  async list(@CurrentClient() client: AuthenticatedClient): Promise<CapitalMarketAssumptionsDto> {
    return {
      assumptions: (await this.assumptions.list(client.tenantId)).map(toStoredDto),
      default: {
        prior: CONSERVATIVE_PRIOR.name,
        prior_expected_return: CONSERVATIVE_PRIOR.expectedReturn,
        prior_uncertainty: CONSERVATIVE_PRIOR.uncertainty,
        formula:
          'μ = μ₀ + w·(μ̂ − μ₀), w = τ²/(τ² + SE²), SE = σ̂/√years, μ₀ = ln(1 + prior); expected return e^μ − 1',
      },
    };
  }

  @Put(':symbol')
  @ApiOperation({
    summary: 'Set your capital-market assumption for an asset',
    description:
      'Expected compound annual return (fraction) and optionally the volatility; correlations stay the history’s. Replaces an earlier one for the asset.',
  })
  @ApiParam(SYMBOL_PARAM)
  @ApiOkResponse({ type: CapitalMarketAssumptionDto })
  @ApiBadRequestResponse({
    description:
      'An unknown or malformed symbol, expected_return outside -0.5 to 1, volatility outside 0 to 3, a note over 500 characters or an unknown field (named).',
  })
  async put(
    @CurrentClient() client: AuthenticatedClient,
    @Param('symbol') symbol: string,
    @Body() body: PutAssumptionDto,
  ): Promise<CapitalMarketAssumptionDto> {
    return toStoredDto(
      await this.assumptions.put(client.tenantId, validSymbol(symbol), {
        expectedReturn: body.expected_return,
        volatility: body.volatility,
        note: body.note,
      }),
    );
  }

  @Delete(':symbol')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Remove your assumption for an asset (it gets the default again)',
    description:
      'Deletes the expected return your firm set for this asset; simulations and projections of your tenant use the default for it again (docs/simulation.md §1). 404 when your tenant set none for it.',
  })
  @ApiParam(SYMBOL_PARAM)
  @ApiNoContentResponse({ description: 'Removed; no body.' })
  @ApiBadRequestResponse({ description: 'A malformed symbol.' })
  @ApiNotFoundResponse({ description: 'Your tenant has no assumption for this asset.' })
  async remove(@CurrentClient() client: AuthenticatedClient, @Param('symbol') symbol: string): Promise<void> {
    await this.assumptions.remove(client.tenantId, validSymbol(symbol));
  }
}

function validSymbol(symbol: string): string {
  if (!SYMBOL_PATTERN.test(symbol)) {
    throw DomainError.validation('symbol', 'symbol must be a ticker of 1-20 letters or digits, e.g. BTC.');
  }
  return symbol;
}
