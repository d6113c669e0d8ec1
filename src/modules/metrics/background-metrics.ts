/**
 * The background work an operator watches (issue 31 item 4): the job queue's backlog per queue and
 * the webhook deliveries. Queue names are a short fixed list (one refresh queue per source,
 * `market.refresh`, `webhooks.deliver`); no label carries an id.
 *
 * The job queue is read at each scrape, before the gauges (JobsAdmin.backlog: one grouped query;
 * MetricsRegistry.beforeEachScrape, so the database pool's gauges do not count it). The webhooks module
 * reports each delivery attempt (WebhookMetrics.attempt) and registers how its backlog is read
 * (WebhookMetrics.readBacklogWith), so metrics imports nothing of webhooks and webhooks nothing
 * but this face.
 */
import { Injectable, Logger } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { JobsAdmin, type QueueBacklog } from '../jobs/index.js';
import { METRIC_PREFIX, MetricsRegistry } from './metrics.registry.js';

/** Seconds of one delivery attempt: a receiver answers in milliseconds, a slow one up to the timeout. */
const ATTEMPT_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export type WebhookAttemptOutcome = 'delivered' | 'retry' | 'failed';

export interface WebhookBacklog {
  /** Deliveries not delivered or failed yet. */
  readonly pending: number;
  /** Seconds since the oldest pending delivery was created; 0 when none is pending. */
  readonly oldestPendingSeconds: number;
}

@Injectable()
export class WebhookMetrics {
  private readonly attempts: Counter<'outcome'>;
  private readonly duration: Histogram;
  private readBacklog?: () => Promise<WebhookBacklog>;

  constructor(metrics: MetricsRegistry) {
    this.attempts = new Counter({
      name: `${METRIC_PREFIX}webhook_delivery_attempts_total`,
      help: 'Webhook delivery attempts by outcome: delivered (a 2xx), retry (failed, tried again later), failed (failed for good: retries exhausted or the endpoint disabled).',
      labelNames: ['outcome'],
      registers: [metrics.registry],
    });
    // Every outcome from the start, at 0: a rate needs the series before the first attempt.
    for (const outcome of ['delivered', 'retry', 'failed'] as const) this.attempts.inc({ outcome }, 0);
    this.duration = new Histogram({
      name: `${METRIC_PREFIX}webhook_delivery_attempt_seconds`,
      help: 'Duration of one webhook delivery attempt (the HTTP call to the partner), whatever its outcome.',
      buckets: ATTEMPT_BUCKETS,
      registers: [metrics.registry],
    });
    const logger = new Logger('Metrics');
    let backlog: WebhookBacklog | null = null;
    metrics.beforeEachScrape(async () => {
      backlog = null;
      if (!this.readBacklog) return;
      backlog = await this.readBacklog().catch((error: unknown) => {
        logger.warn(`Webhook backlog not read: ${error instanceof Error ? error.message : String(error)}`);
        return null;
      });
    });
    new Gauge({
      name: `${METRIC_PREFIX}webhook_deliveries_pending`,
      help: 'Webhook deliveries waiting to be delivered (new, or failed and waiting for their retry).',
      registers: [metrics.registry],
      collect() {
        if (backlog) this.set(backlog.pending);
      },
    });
    new Gauge({
      name: `${METRIC_PREFIX}webhook_oldest_pending_seconds`,
      help: 'Age of the oldest pending webhook delivery (since it was created, when its event was fanned out); 0 when none is pending.',
      registers: [metrics.registry],
      collect() {
        if (backlog) this.set(backlog.oldestPendingSeconds);
      },
    });
  }

  attempt(outcome: WebhookAttemptOutcome, seconds: number): void {
    this.attempts.inc({ outcome });
    this.duration.observe(seconds);
  }

  /** Called once by the webhooks module: how the backlog gauges read its tables. */
  readBacklogWith(reader: () => Promise<WebhookBacklog>): void {
    this.readBacklog = reader;
  }
}

@Injectable()
export class JobQueueGauges {
  constructor(metrics: MetricsRegistry, jobs: JobsAdmin) {
    const logger = new Logger('Metrics');
    let queues: QueueBacklog[] = [];
    metrics.beforeEachScrape(async () => {
      queues = await jobs.backlog().catch((error: unknown) => {
        logger.warn(`Job queue backlog not read: ${error instanceof Error ? error.message : String(error)}`);
        return [];
      });
    });
    const gauge = (name: string, help: string, value: (queue: QueueBacklog) => number) =>
      new Gauge({
        name: `${METRIC_PREFIX}${name}`,
        help,
        labelNames: ['queue'],
        registers: [metrics.registry],
        collect() {
          this.reset();
          for (const queue of queues) this.set({ queue: queue.name }, value(queue));
        },
      });
    gauge(
      'job_queue_waiting',
      'Jobs waiting in a queue (created, or failed and waiting for their retry).',
      (q) => q.waiting,
    );
    gauge(
      'job_queue_oldest_waiting_seconds',
      'How long the oldest job of a queue that is due has waited past its start; 0 when none is due.',
      (q) => q.oldestWaitingSeconds,
    );
    gauge(
      'job_queue_dead_letters',
      'Jobs of a queue that failed for good and wait in its dead letter queue.',
      (q) => q.deadLetters,
    );
  }
}
