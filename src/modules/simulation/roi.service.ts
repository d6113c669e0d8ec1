/**
 * /roi/projection (design §9, docs/simulation.md §2): a principal compounded over a horizon at
 * the asset's expected compound return (BTC by default) from its return assumption (the tenant's,
 * or the historical mean shrunk toward the conservative prior), compared with the configured
 * benchmark CAGR.
 */
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { DomainError } from '../../common/errors/domain-error.js';
import type { AssetAssumption } from '../../domain/simulation/return-assumptions.js';
import { projectRoi, type RoiProjection } from '../../domain/simulation/roi.js';
import { SimulationError } from '../../domain/simulation/simulation-error.js';
import { MarketHistoryService } from './market-history.service.js';
import { ReturnAssumptionsService } from './return-assumptions.service.js';
import { domainErrorFrom } from './simulation.service.js';

export const DEFAULT_ROI_SYMBOL = 'BTC';

export interface RoiRequest {
  /** Whose capital-market assumptions apply. */
  readonly tenantId: string;
  /** Decimal text > 0. */
  readonly principalUsd: string;
  readonly horizonYears: number;
  readonly symbol?: string;
}

export interface RoiOutcome extends RoiProjection {
  readonly symbol: string;
  readonly historyFrom: string;
  readonly historyTo: string;
  readonly assumption: AssetAssumption;
}

@Injectable()
export class RoiService {
  constructor(
    private readonly history: MarketHistoryService,
    private readonly config: AppConfig,
    private readonly assumptions: ReturnAssumptionsService,
  ) {}

  async project(request: RoiRequest): Promise<RoiOutcome> {
    const symbol = (request.symbol ?? DEFAULT_ROI_SYMBOL).toUpperCase();
    if (!(await this.history.knownSymbols()).has(symbol)) {
      throw DomainError.validation('symbol', `${symbol} is not a known asset.`);
    }
    // The base case is the asset's expected compound return: the same assumption the
    // simulation's drift comes from (the tenant's, or the shrunk history), never the raw CAGR.
    const aligned = await this.history.alignedDailyLogReturns([symbol]);
    const [assumption] = await this.assumptions.forProjection(
      request.tenantId,
      [symbol],
      aligned.dailyLogReturns,
    );
    try {
      const projection = projectRoi({
        principalUsd: request.principalUsd,
        horizonYears: request.horizonYears,
        baseCagr: assumption.expectedReturn,
        benchmarkCagr: this.config.ROI_BENCHMARK_CAGR,
      });
      return { ...projection, symbol, historyFrom: aligned.from, historyTo: aligned.to, assumption };
    } catch (error) {
      throw error instanceof SimulationError ? domainErrorFrom(error) : error;
    }
  }
}
