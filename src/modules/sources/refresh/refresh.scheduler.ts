import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { AppConfig } from '../../../config/app-config.js';
import { RefreshService } from './refresh.service.js';

/** Accounts claimed per source, scheduler run and instance: small, to protect the sources. */
export const REFRESH_BATCH_SIZE = 10;

/**
 * Every 30 seconds: claim the accounts whose refresh is due (their source's interval elapsed, a
 * slow initial sync that should be ready, a failed refresh whose backoff ended), per source within
 * the source's concurrency (source-schedule.ts), and start their refreshes. The run waits for the
 * claims only, never for the refreshes: a slow exchange keeps its own slots busy while the next run
 * claims the other sources' accounts. Each instance claims in Postgres, so N instances never
 * refresh one account twice at once.
 */
@Injectable()
export class RefreshScheduler implements OnApplicationShutdown {
  private readonly logger = new Logger(RefreshScheduler.name);
  /** Refreshes started by a run and not finished yet: shutdown waits for them. */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly config: AppConfig,
    private readonly refresher: RefreshService,
  ) {}

  @Cron(CronExpression.EVERY_30_SECONDS, { name: 'accounts-refresh', waitForCompletion: true })
  async refreshDueAccounts(): Promise<void> {
    if (!this.config.SCHEDULER_ENABLED) return;
    try {
      const { started, done } = await this.refresher.dispatchDueAccounts(REFRESH_BATCH_SIZE);
      if (started === 0) return;
      const logged = done.then((outcomes) =>
        this.logger.log(
          `Scheduled refresh of ${outcomes.length} account(s): ${outcomes.map((o) => o.status).join(', ')}`,
        ),
      );
      this.inFlight.add(logged);
      void logged.finally(() => this.inFlight.delete(logged));
    } catch (error) {
      this.logger.error(
        `Scheduled account refresh failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** The started refreshes end (each within its connector timeout) before the database closes. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }
}
