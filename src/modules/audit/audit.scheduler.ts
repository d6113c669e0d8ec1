import { Injectable, Logger } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { AppConfig } from '../../config/app-config.js';
import { AuditService } from './audit.service.js';

/**
 * Daily, 03:30 UTC: retention (AUDIT_RETENTION_DAYS). Safe on many instances: the prune locks the
 * chain head, so a second run finds nothing left to delete.
 */
@Injectable()
export class AuditScheduler {
  private readonly logger = new Logger('AuditScheduler');

  constructor(
    private readonly audit: AuditService,
    private readonly config: AppConfig,
  ) {}

  @Cron('30 3 * * *', { name: 'audit-retention', waitForCompletion: true, timeZone: 'UTC' })
  async prune(): Promise<void> {
    if (!this.config.SCHEDULER_ENABLED) return;
    const deleted = await this.audit.prune();
    if (deleted)
      this.logger.log(
        `audit retention: pruned ${deleted} entries older than ${this.config.AUDIT_RETENTION_DAYS} days`,
      );
  }
}
