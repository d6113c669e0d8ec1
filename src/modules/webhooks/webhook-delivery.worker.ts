/**
 * The delivery worker's unit of work (docs/events.md, "Delivery"), written so a job queue can run
 * it later: `runOnce` fans new outbox events out to the matching endpoints (one `webhook_delivery`
 * per endpoint), claims due deliveries with a lease (SKIP LOCKED: N instances never take the same
 * row; a killed instance's lease lapses and another takes the row over) and sends them, signed.
 *
 * At least once: a delivery is marked delivered only after a 2xx; a crash in between sends it
 * again with the same `webhook-id`. Order per account: a delivery waits while an earlier one of
 * the same account to the same endpoint is pending. Failures back off exponentially with jitter
 * until WEBHOOK_RETRY_HOURS have passed since the event, then the delivery is `failed`; an
 * endpoint failing continuously is disabled with the reason.
 */
import { Injectable, Logger, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Clock } from '../../common/clock/clock.js';
import { AppConfig } from '../../config/app-config.js';
import { WebhookMetrics } from '../metrics/index.js';
import { sendWebhook, type SendResult } from './webhook-sender.js';
import { signedHeaders } from './webhook-signer.js';
import { WebhookSecretCipher } from './webhook-secrets.js';
import { checkWebhookTarget, WebhookUrlError } from './webhook-url.js';
import { WebhooksRepository, type DeliveryRow, type EndpointRow } from './webhooks.repository.js';

/** Deliveries claimed per run and instance (sent side by side). */
export const DELIVERY_BATCH_SIZE = 20;
/** Outbox events fanned out per run. */
export const FAN_OUT_BATCH_SIZE = 200;

export interface RunSummary {
  readonly fannedOut: number;
  readonly attempted: number;
  readonly delivered: number;
  readonly failed: number;
}

/** The delay before retry `attempt` (1-based): base·2^(attempt-1), capped, with half jitter. */
export function retryDelayMs(attempt: number, baseMs: number, capMs: number, random = Math.random): number {
  const delay = Math.min(capMs, baseMs * 2 ** Math.min(attempt - 1, 40));
  return Math.round(delay / 2 + random() * (delay / 2));
}

@Injectable()
export class WebhookDeliveryWorker {
  private readonly logger = new Logger('Webhooks');
  /** Identifies this instance's claims. */
  readonly owner = `${hostname().slice(0, 40)}:${process.pid}:${randomUUID().slice(0, 8)}`;

  constructor(
    private readonly repository: WebhooksRepository,
    private readonly cipher: WebhookSecretCipher,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    // Absent where the metrics module is (a test context with the webhooks alone): nothing counted.
    @Optional() private readonly metrics?: WebhookMetrics,
  ) {
    metrics?.readBacklogWith(() => this.repository.pendingBacklog(this.clock.now()));
  }

  /** One round: fan out, then claim and send what is due. Resolves when the sends have ended. */
  async runOnce(): Promise<RunSummary> {
    let fannedOut = 0;
    for (;;) {
      const { events } = await this.repository.fanOutAcrossTenants(this.clock.now(), FAN_OUT_BATCH_SIZE);
      fannedOut += events;
      if (events < FAN_OUT_BATCH_SIZE) break;
    }
    const now = this.clock.now();
    const claimed = await this.repository.claimDueAcrossTenants(
      now,
      this.owner,
      new Date(now.getTime() + this.config.WEBHOOK_LEASE_MS),
      DELIVERY_BATCH_SIZE,
    );
    const outcomes = await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
    return {
      fannedOut,
      attempted: claimed.length,
      delivered: outcomes.filter((o) => o === 'delivered').length,
      failed: outcomes.filter((o) => o === 'failed').length,
    };
  }

  private async attempt(delivery: DeliveryRow): Promise<'delivered' | 'retry' | 'failed' | 'released'> {
    try {
      const endpoint = await this.repository.findEndpointAcrossTenants(delivery.endpoint_id);
      if (!endpoint || endpoint.status !== 'enabled') {
        await this.repository.release(delivery.id, this.owner);
        return 'released';
      }
      const started = performance.now();
      const result = await this.send(endpoint, delivery);
      const seconds = (performance.now() - started) / 1000;
      const now = this.clock.now();
      if (result.status !== null && result.status >= 200 && result.status < 300) {
        await this.repository.markDelivered(delivery.id, this.owner, now, result.status, result.excerpt);
        await this.repository.recordEndpointSuccess(endpoint.id);
        this.metrics?.attempt('delivered', seconds);
        return 'delivered';
      }
      const outcome = await this.failed(endpoint, delivery, result, now);
      this.metrics?.attempt(outcome, seconds);
      return outcome;
    } catch (error) {
      // E.g. the database went away mid-way: the lease lapses and the delivery is tried again.
      this.logger.error(
        { deliveryId: delivery.id, endpointId: delivery.endpoint_id },
        `Webhook delivery attempt failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      return 'retry';
    }
  }

  private async send(endpoint: EndpointRow, delivery: DeliveryRow): Promise<SendResult> {
    let url: URL;
    try {
      url = await checkWebhookTarget(endpoint.url, this.config.isProduction);
    } catch (error) {
      if (error instanceof WebhookUrlError)
        return { status: null, excerpt: null, error: `refused: ${error.message}` };
      throw error;
    }
    const secrets = [await this.cipher.decrypt(endpoint.id, endpoint.secret_encrypted)];
    if (
      endpoint.previous_secret_encrypted &&
      endpoint.previous_secret_expires_at &&
      endpoint.previous_secret_expires_at > this.clock.now()
    )
      secrets.push(await this.cipher.decrypt(endpoint.id, endpoint.previous_secret_encrypted));
    // The signature's timestamp is the wall clock: the receiver checks it against its own.
    const headers = signedHeaders(delivery.event_id, delivery.body, secrets, new Date());
    return sendWebhook(url, headers, delivery.body, this.config.WEBHOOK_TIMEOUT_MS, this.config.isProduction);
  }

  private async failed(
    endpoint: EndpointRow,
    delivery: DeliveryRow,
    result: SendResult,
    now: Date,
  ): Promise<'retry' | 'failed'> {
    const error = result.error ?? `HTTP ${result.status}`;
    const deadline = new Date(delivery.created_at).getTime() + this.config.WEBHOOK_RETRY_HOURS * 3_600_000;
    const next = new Date(
      now.getTime() +
        retryDelayMs(
          delivery.attempts,
          this.config.WEBHOOK_RETRY_BASE_MS,
          this.config.WEBHOOK_RETRY_MAX_DELAY_MS,
        ),
    );
    const giveUp = next.getTime() > deadline;
    await this.repository.markAttemptFailed(
      delivery.id,
      this.owner,
      result.status,
      error,
      result.excerpt,
      giveUp ? null : next,
    );
    const disabled = await this.repository.recordEndpointFailure(
      endpoint.id,
      now,
      this.config.WEBHOOK_DISABLE_AFTER_FAILURES,
      new Date(now.getTime() - this.config.WEBHOOK_RETRY_HOURS * 3_600_000),
      (failures, since) =>
        `Disabled after ${failures} consecutive failed deliveries (failing since ${since.toISOString()}; last: ${error.slice(0, 200)}). Fix the receiver, then PATCH status "enabled".`,
    );
    if (disabled)
      this.logger.warn(
        { event: 'webhook.endpoint_disabled', endpointId: endpoint.id, tenantId: endpoint.tenant_id },
        'Webhook endpoint disabled after continuous failures',
      );
    // Every failed attempt has its line (an operator saw nothing of six failed deliveries before):
    // which delivery, whose endpoint, the attempt, what the receiver answered or why it was not
    // reached, and when it is tried again. Never the URL (it may carry a token) nor the body.
    if (!giveUp)
      this.logger.warn(
        {
          deliveryId: delivery.id,
          endpointId: endpoint.id,
          tenantId: endpoint.tenant_id,
          attempt: delivery.attempts,
          status: result.status,
          error: error.slice(0, 200),
          nextAttemptAt: next.toISOString(),
        },
        'Webhook delivery attempt failed; retried later',
      );
    if (giveUp)
      this.logger.warn(
        {
          deliveryId: delivery.id,
          endpointId: endpoint.id,
          tenantId: endpoint.tenant_id,
          attempts: delivery.attempts,
        },
        'Webhook delivery failed for good after the retry window',
      );
    return giveUp ? 'failed' : 'retry';
  }
}
