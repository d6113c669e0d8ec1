import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
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
import { RoiProjectionDto, RoiQueryDto } from './dto/roi.dto.js';
import { SimulateRequestDto, SimulationResultDto } from './dto/simulate.dto.js';
import { RoiService } from './roi.service.js';
import { SimulationService } from './simulation.service.js';

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
      '10,000 paths of correlated log-normal monthly returns estimated from the stored daily history (up to ten years), rebalanced monthly to the target weights; bull/base/bear are the 90th/50th/10th percentiles of terminal value. The same seed with the same inputs and stored history gives the same answer. Work budget: assets × horizon_years at most 600 by default (SIMULATION_MAX_ASSET_YEARS). Simulations run in a worker pool, a few at once per client and per instance. Model and limits: docs/simulation.md.',
  })
  @ApiOkResponse({ type: SimulationResultDto })
  @ApiBadRequestResponse({
    description:
      'A malformed field (named): empty or unknown or repeated symbols, weights outside 0-1 or not summing to 1 ± 0.0001, horizon_years not an integer 1-50 or assets × horizon_years beyond the work budget (600 by default), scenarios empty, repeated or not bull/base/bear, principal_usd ≤ 0, a bad seed.',
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
      'Compounds the principal at the asset’s base-case CAGR from its stored daily history (BTC unless `symbol` is given; up to ten years) and compares the CAGR with the configured benchmark (ROI_BENCHMARK_CAGR, default 10 %: US large-cap equities). Past returns do not predict future returns.',
  })
  @ApiOkResponse({ type: RoiProjectionDto })
  @ApiBadRequestResponse({
    description:
      'principal_usd missing or not > 0, horizon_years not an integer 1-50, or an unknown symbol (named in errors).',
  })
  @ApiUnprocessableEntityResponse({ description: 'Not enough stored history for the asset (`reason`).' })
  async projection(@Query() query: RoiQueryDto): Promise<RoiProjectionDto> {
    const outcome = await this.roi.project({
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
    };
  }
}
