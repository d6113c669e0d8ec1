import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { IdempotencyService } from './idempotency.service.js';

/** Hourly: forgets Idempotency-Keys older than 24 hours (expired keys are ignored before that anyway). */
@Injectable()
export class IdempotencyScheduler {
  private readonly logger = new Logger('IdempotencyScheduler');

  constructor(private readonly idempotency: IdempotencyService) {}

  @Cron(CronExpression.EVERY_HOUR, { name: 'idempotency-keys-sweep', waitForCompletion: true })
  async sweep(): Promise<void> {
    const deleted = await this.idempotency.deleteExpired();
    if (deleted) this.logger.debug(`deleted ${deleted} expired idempotency keys`);
  }
}
