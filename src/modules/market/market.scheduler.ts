import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '../../config/app-config.js';
import { MarketRefreshService } from './market-refresh.service.js';

/** How often each instance asks whether a refresh is due; the lease decides who runs it. */
const TICK_MS = 60_000;
/** First check soon after start, so a coingecko store fills without waiting a minute. */
const FIRST_TICK_MS = 2_000;

/**
 * Triggers the market refresh. Only calls MarketRefreshService; does nothing when
 * SCHEDULER_ENABLED is false (tests call the service directly).
 */
@Injectable()
export class MarketScheduler implements OnApplicationBootstrap {
  private readonly logger = new Logger(MarketScheduler.name);

  constructor(
    private readonly config: AppConfig,
    private readonly registry: SchedulerRegistry,
    private readonly refresh: MarketRefreshService,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.SCHEDULER_ENABLED) return;
    this.registry.addTimeout(
      'market-refresh:first',
      setTimeout(() => void this.tick(), FIRST_TICK_MS),
    );
    this.registry.addInterval(
      'market-refresh',
      setInterval(() => void this.tick(), TICK_MS),
    );
  }

  private async tick(): Promise<void> {
    try {
      await this.refresh.refreshIfDue();
    } catch (error) {
      // Database unavailable or similar: the next tick retries.
      this.logger.warn(
        `Market refresh tick failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
