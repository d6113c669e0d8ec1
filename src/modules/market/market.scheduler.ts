import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '../../config/app-config.js';
import { errorMessage, JobQueue, type QueueDefinition } from '../jobs/index.js';
import { MarketRefreshService } from './market-refresh.service.js';

/** How often each instance asks for a refresh; the service's lease and interval decide whether it runs. */
const TICK_MS = 60_000;
/** First check soon after start, so a coingecko store fills without waiting a minute. */
const FIRST_TICK_MS = 2_000;

/** The market refresh job (docs/jobs.md). */
export const MARKET_REFRESH_QUEUE: QueueDefinition = {
  name: 'market.refresh',
  // One job queued or running across instances (singletonKey 'market'): ticks never pile up.
  policy: 'exclusive',
  // A provider's failure is an outcome (the stored data stays); a throw (database) is retried.
  retryLimit: 2,
  retryDelaySeconds: 15,
  retryBackoff: true,
  // Longer than the refresh lease (REFRESH_LEASE_SECONDS).
  expireInSeconds: 900,
  deleteAfterSeconds: 3_600,
  deadLetter: true,
};

/**
 * Triggers the market refresh through the job queue: every minute (and once soon after start) a
 * `market.refresh` job is sent; a worker runs MarketRefreshService.refreshIfDue. Does nothing when
 * SCHEDULER_ENABLED is false (tests call the service directly).
 */
@Injectable()
export class MarketScheduler implements OnApplicationBootstrap {
  private readonly logger = new Logger(MarketScheduler.name);
  private ready: Promise<void> | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly registry: SchedulerRegistry,
    private readonly refresh: MarketRefreshService,
    private readonly jobs: JobQueue,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.SCHEDULER_ENABLED) return;
    this.ready = this.jobs.define(MARKET_REFRESH_QUEUE).then(() =>
      this.jobs.work(MARKET_REFRESH_QUEUE.name, { concurrency: 1 }, async () => {
        await this.refresh.refreshIfDue();
      }),
    );
    this.ready.catch((error: unknown) => this.logger.warn(`Market refresh queue: ${errorMessage(error)}`));
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
      await this.ready;
      await this.jobs.send(MARKET_REFRESH_QUEUE.name, {}, { singletonKey: 'market' });
    } catch (error) {
      // Database unavailable or similar: the next tick retries.
      this.logger.warn(`Market refresh tick failed: ${errorMessage(error)}`);
    }
  }
}
