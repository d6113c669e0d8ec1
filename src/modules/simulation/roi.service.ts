/**
 * /roi/projection (design §9, docs/simulation.md §2): a principal compounded over a horizon at
 * the asset's historical CAGR (BTC by default), compared with the configured benchmark CAGR.
 */
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { DomainError } from '../../common/errors/domain-error.js';
import { historicalCagr, projectRoi, type RoiProjection } from '../../domain/simulation/roi.js';
import { SimulationError } from '../../domain/simulation/simulation-error.js';
import { MarketHistoryService } from './market-history.service.js';
import { domainErrorFrom } from './simulation.service.js';

export const DEFAULT_ROI_SYMBOL = 'BTC';

export interface RoiRequest {
  /** Decimal text > 0. */
  readonly principalUsd: string;
  readonly horizonYears: number;
  readonly symbol?: string;
}

export interface RoiOutcome extends RoiProjection {
  readonly symbol: string;
  readonly historyFrom: string;
  readonly historyTo: string;
}

@Injectable()
export class RoiService {
  constructor(
    private readonly history: MarketHistoryService,
    private readonly config: AppConfig,
  ) {}

  async project(request: RoiRequest): Promise<RoiOutcome> {
    const symbol = (request.symbol ?? DEFAULT_ROI_SYMBOL).toUpperCase();
    if (!(await this.history.knownSymbols()).has(symbol)) {
      throw DomainError.validation('symbol', `${symbol} is not a known asset.`);
    }
    const closes = await this.history.dailyCloses(symbol);
    try {
      const projection = projectRoi({
        principalUsd: request.principalUsd,
        horizonYears: request.horizonYears,
        baseCagr: historicalCagr(closes.pricesUsd),
        benchmarkCagr: this.config.ROI_BENCHMARK_CAGR,
      });
      return { ...projection, symbol, historyFrom: closes.from, historyTo: closes.to };
    } catch (error) {
      throw error instanceof SimulationError ? domainErrorFrom(error) : error;
    }
  }
}
