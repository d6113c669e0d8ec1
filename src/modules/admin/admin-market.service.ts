import { Injectable } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { Clock } from '../../common/clock/clock.js';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import { MarketRefreshService } from '../market/index.js';
import type { MarketRefreshResultDto } from './dto/admin-market.dto.js';

/**
 * The admin's "refresh market data now" (design §1). Runs the scheduler's own refresh through
 * MarketRefreshService.refreshNow(), under the same database lease, so an admin's run and the
 * scheduler's (on any instance) never overlap: when the lease is held, nothing runs and the admin
 * is told which run holds it (409).
 */
@Injectable()
export class AdminMarketService {
  constructor(
    private readonly market: MarketRefreshService,
    private readonly clock: Clock,
  ) {}

  async refreshNow(): Promise<MarketRefreshResultDto> {
    const startedAt = this.clock.now();
    const started = performance.now();
    const outcome = await this.market.refreshNow();
    const durationMs = Math.round(performance.now() - started);
    if (outcome.status === 'skipped') {
      const run = await this.market.currentRun();
      const since = run?.startedAt ? ` since ${run.startedAt.toISOString()}` : '';
      const until = run ? `; its lease ends at ${run.leaseUntil.toISOString()} at the latest` : '';
      throw new DomainError(
        ErrorCode.Conflict,
        `A market-data refresh is already running${since} (the scheduler's or another admin's)${until}. Nothing was started; the data is refreshed when it finishes.`,
      );
    }
    return {
      status: outcome.status,
      provider: this.market.providerSource,
      quotedAssets: outcome.quotedAssets,
      historyRows: outcome.historyRows,
      errors: outcome.errors,
      startedAt: startedAt.toISOString(),
      finishedAt: this.clock.now().toISOString(),
      durationMs,
    };
  }
}
