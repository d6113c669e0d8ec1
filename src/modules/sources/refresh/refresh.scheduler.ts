import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { AppConfig } from '../../../config/app-config.js';
import { RefreshService } from './refresh.service.js';

/** Accounts refreshed per scheduler run and instance: small, to protect the sources. */
export const REFRESH_BATCH_SIZE = 10;

/**
 * Every minute: refresh the accounts whose data is due (over 30 minutes old, a slow initial sync
 * that should be ready, a failed refresh to retry). Only calls the service; each instance claims
 * its own batch in Postgres, so N instances never refresh one account twice at once.
 */
@Injectable()
export class RefreshScheduler {
  private readonly logger = new Logger(RefreshScheduler.name);

  constructor(
    private readonly config: AppConfig,
    private readonly refresher: RefreshService,
  ) {}

  @Cron(CronExpression.EVERY_MINUTE, { name: 'accounts-refresh', waitForCompletion: true })
  async refreshDueAccounts(): Promise<void> {
    if (!this.config.SCHEDULER_ENABLED) return;
    try {
      const outcomes = await this.refresher.refreshDueAccounts(REFRESH_BATCH_SIZE);
      if (outcomes.length)
        this.logger.log(
          `Scheduled refresh of ${outcomes.length} account(s): ${outcomes.map((o) => o.status).join(', ')}`,
        );
    } catch (error) {
      this.logger.error(
        `Scheduled account refresh failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
