import {
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { Clock } from '../../common/clock/clock.js';
import { AppConfig } from '../../config/app-config.js';
import { errorMessage, JobQueue, type QueueDefinition } from '../jobs/index.js';
import { WebhookDeliveryWorker } from './webhook-delivery.worker.js';
import { WebhooksRepository } from './webhooks.repository.js';

/** Dispatched outbox rows are kept this long (the deliveries keep their own copy of the body). */
const OUTBOX_RETENTION_MS = 7 * 24 * 3_600_000;

/** One delivery round per job (docs/jobs.md). */
export const WEBHOOK_ROUND_QUEUE: QueueDefinition = {
  name: 'webhooks.deliver',
  // At most one round waiting; rounds on several instances run side by side (their claims are
  // disjoint: SKIP LOCKED), one at a time per instance (concurrency 1).
  policy: 'short',
  // A round that threw (the database went away) is tried once more; the next tick sends another
  // round anyway. The deliveries' own backoff, 24 h window and `failed` marking live in the
  // delivery rows (WebhookDeliveryWorker), not in the queue.
  retryLimit: 1,
  retryDelaySeconds: 5,
  retryBackoff: false,
  expireInSeconds: 300,
  deleteAfterSeconds: 3_600,
  deadLetter: false,
};

/**
 * Every WEBHOOK_POLL_MS (when SCHEDULER_ENABLED): sends a `webhooks.deliver` job; a worker runs
 * one round of the delivery worker (fan out, claim, send). Shutdown: no more rounds are sent; the
 * job queue waits for the running round (each send ends within WEBHOOK_TIMEOUT_MS).
 */
@Injectable()
export class WebhookScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private ready: Promise<void> | null = null;
  private sending = false;
  private stopped = false;
  private lastPrune = 0;

  constructor(
    private readonly config: AppConfig,
    private readonly worker: WebhookDeliveryWorker,
    private readonly repository: WebhooksRepository,
    private readonly registry: SchedulerRegistry,
    private readonly clock: Clock,
    private readonly jobs: JobQueue,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.SCHEDULER_ENABLED) return;
    this.ready = this.jobs
      .define(WEBHOOK_ROUND_QUEUE)
      .then(() =>
        this.jobs.work(
          WEBHOOK_ROUND_QUEUE.name,
          { concurrency: 1, pollIntervalMs: this.config.WEBHOOK_POLL_MS },
          () => this.round(),
        ),
      );
    this.ready.catch((error: unknown) => this.logger.error(`Webhook delivery queue: ${errorMessage(error)}`));
    const timer = setInterval(() => this.tick(), this.config.WEBHOOK_POLL_MS);
    timer.unref();
    this.registry.addInterval('webhook-deliveries', timer);
  }

  private tick(): void {
    if (this.sending || this.stopped) return;
    this.sending = true;
    void (async () => {
      try {
        await this.ready;
        await this.jobs.send(WEBHOOK_ROUND_QUEUE.name, {});
      } catch (error) {
        this.logger.error(`Webhook delivery round not enqueued: ${errorMessage(error)}`);
      } finally {
        this.sending = false;
      }
    })();
  }

  /** One round (the job): fan out and send what is due; hourly, prune the dispatched outbox. */
  async round(): Promise<void> {
    await this.worker.runOnce();
    const now = this.clock.now().getTime();
    if (now - this.lastPrune > 3_600_000) {
      this.lastPrune = now;
      await this.repository.pruneOutbox(new Date(now - OUTBOX_RETENTION_MS));
    }
  }

  beforeApplicationShutdown(): void {
    this.stopped = true;
    if (this.registry.doesExist('interval', 'webhook-deliveries'))
      this.registry.deleteInterval('webhook-deliveries');
  }
}
