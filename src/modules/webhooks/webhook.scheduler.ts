import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { Clock } from '../../common/clock/clock.js';
import { AppConfig } from '../../config/app-config.js';
import { WebhookDeliveryWorker } from './webhook-delivery.worker.js';
import { WebhooksRepository } from './webhooks.repository.js';

/** Dispatched outbox rows are kept this long (the deliveries keep their own copy of the body). */
const OUTBOX_RETENTION_MS = 7 * 24 * 3_600_000;

/**
 * Every WEBHOOK_POLL_MS (when SCHEDULER_ENABLED): one round of the delivery worker; a round
 * never overlaps the previous one on this instance. Shutdown waits for the running round (each
 * send ends within WEBHOOK_TIMEOUT_MS).
 */
@Injectable()
export class WebhookScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private running: Promise<unknown> | null = null;
  private stopped = false;
  private lastPrune = 0;

  constructor(
    private readonly config: AppConfig,
    private readonly worker: WebhookDeliveryWorker,
    private readonly repository: WebhooksRepository,
    private readonly registry: SchedulerRegistry,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.SCHEDULER_ENABLED) return;
    const timer = setInterval(() => this.tick(), this.config.WEBHOOK_POLL_MS);
    timer.unref();
    this.registry.addInterval('webhook-deliveries', timer);
  }

  private tick(): void {
    if (this.running || this.stopped) return;
    this.running = this.round()
      .catch((error: unknown) =>
        this.logger.error(
          `Webhook delivery round failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      )
      .finally(() => (this.running = null));
  }

  private async round(): Promise<void> {
    await this.worker.runOnce();
    const now = this.clock.now().getTime();
    if (now - this.lastPrune > 3_600_000) {
      this.lastPrune = now;
      await this.repository.pruneOutbox(new Date(now - OUTBOX_RETENTION_MS));
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.registry.doesExist('interval', 'webhook-deliveries'))
      this.registry.deleteInterval('webhook-deliveries');
    await this.running;
  }
}
